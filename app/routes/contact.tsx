import { MapEmbed } from '../components/MapEmbed.tsx';
import { ContactDetails } from '../components/contact/ContactDetails.tsx';
import { QuoteFormSection } from '../components/contact/QuoteFormSection.tsx';
import { PageHeader } from '../components/ui/PageHeader.tsx';
import { EnquiryForm } from '../components/forms/EnquiryForm.tsx';
import { business } from '../content/business.ts';
import { facts } from '../content/facts.ts';
import { enquiryAction, enquiryMiddleware } from '../leads/form-actions.server.ts';
import { breadcrumbJsonLd } from '../lib/json-ld.ts';
import { seo } from '../lib/seo.ts';
import pagesCss from '../styles/pages.css?url';
import type { Route } from './+types/contact';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: pagesCss }];

/**
 * SPEC §4/§7: the quote form posts here, with or without JavaScript:
 * the middleware answers its script, the action a plain post.
 */
export const middleware = [enquiryMiddleware('contact_form')];
export const action = enquiryAction('contact_form');

export const meta: Route.MetaFunction = () =>
  seo({
    title: 'Contact Us',
    description: `Call ${business.phone.display}, e-mail us or request a free quote. Glaziers based in ${business.address.suburb}, ${business.address.city}, with a ${business.emergency.hours} emergency service.`,
    path: '/contact',
    jsonLd: [
      breadcrumbJsonLd([
        { name: 'Home', path: '/' },
        { name: 'Contact Us', path: '/contact' },
      ]),
    ],
  });

/** SPEC §2 'Contact page': the details, the map and the place of the quote form. */
export default function Contact({ actionData }: Route.ComponentProps) {
  return (
    <>
      <PageHeader
        title="Contact Us"
        intro={
          <p>
            Call, e-mail or send us the details of your glass job. We reply to every enquiry within{' '}
            {facts.enquiryReply}, and answer the phone {business.emergency.hours} for emergencies.
          </p>
        }
      />
      <section className="section section--plain" aria-labelledby="contact-details">
        <div className="container contact-layout">
          <ContactDetails headingId="contact-details" />
          <div className="contact-layout__map">
            <MapEmbed
              title={`Map of ${business.name} in ${business.address.suburb}, ${business.address.city}`}
            />
          </div>
        </div>
      </section>
      <QuoteFormSection
        phoneLine={{
          before: 'Easier to explain out loud? Ring',
          after: ` and a glazier will talk it through with you; the emergency line answers ${business.emergency.hours}.`,
        }}
        intro={
          <p>
            Tell us what needs doing and where, and we will come back to you with a free,
            fixed-price quote.
          </p>
        }
      >
        <EnquiryForm
          source="contact_form"
          labelledBy="quote-form-heading"
          action="/contact"
          result={actionData}
        />
      </QuoteFormSection>
    </>
  );
}

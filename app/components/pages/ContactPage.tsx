import type { ReactNode } from 'react';
import { MapEmbed } from '../MapEmbed.tsx';
import { ContactDetails } from '../contact/ContactDetails.tsx';
import { QuoteFormSection } from '../contact/QuoteFormSection.tsx';
import { PageHeader } from '../ui/PageHeader.tsx';
import { business } from '../../content/business.ts';
import { facts } from '../../content/facts.ts';
import type { PageMeta } from '../../layouts/page-meta.ts';
import { breadcrumbJsonLd } from '../../layouts/json-ld.ts';

/** The contact page's head, for its two page files (prerendered, and the form post's answer). */
export const contactMeta = (): PageMeta => ({
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

/**
 * docs/screens.md#contact-page: the details, the map and the place of the quote form.
 * `children`: the enquiry form, an island (app/pages).
 */
export function ContactPage({ children }: { children: ReactNode }) {
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
        {children}
      </QuoteFormSection>
    </>
  );
}

import { QuoteFormSection } from '../components/contact/QuoteFormSection.tsx';
import { PageHeader } from '../components/ui/PageHeader.tsx';
import { EnquiryForm } from '../components/forms/EnquiryForm.tsx';
import { enquiryAction, enquiryMiddleware } from '../leads/form-actions.server.ts';
import { breadcrumbJsonLd } from '../lib/json-ld.ts';
import { seo } from '../lib/seo.ts';
import pagesCss from '../styles/pages.css?url';
import type { Route } from './+types/quote';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: pagesCss }];

/**
 * SPEC §4/§7: the quote form posts here, with or without JavaScript:
 * the middleware answers its script, the action a plain post.
 */
export const middleware = [enquiryMiddleware('quote_form')];
export const action = enquiryAction('quote_form');

export const meta: Route.MetaFunction = () =>
  seo({
    title: 'Request a Free Quote',
    description:
      'Tell us about your glass job and get a free, no-obligation quote from Tauranga glaziers. The final estimate is the final price.',
    path: '/quote',
    jsonLd: [
      breadcrumbJsonLd([
        { name: 'Home', path: '/' },
        { name: 'Request a Free Quote', path: '/quote' },
      ]),
    ],
  });

/** SPEC §2 'Quote page': one form (it comes with the leads issue) and the phone. */
export default function Quote({ actionData }: Route.ComponentProps) {
  return (
    <>
      <PageHeader
        eyebrow="Free and no obligation"
        title="Get a Free Quote"
        intro={
          <p>
            Tell us what needs doing and we will get back to you with a free quote. Our final
            estimate is the final price, and we never do extra work without your approval.
          </p>
        }
      />
      <QuoteFormSection>
        <EnquiryForm
          source="quote_form"
          labelledBy="quote-form-heading"
          action="/quote"
          result={actionData}
        />
      </QuoteFormSection>
    </>
  );
}

import type { ReactNode } from 'react';
import { business, telHref } from '../../content/business.ts';

/**
 * The place of the contact/quote form (docs/screens.md#contact-page,
 * #quote-page). The form itself (EnquiryForm.tsx) goes in as `children`; the
 * id lets links and the header's 'Request an Estimate' find the section.
 */
export function QuoteFormSection({
  intro,
  phoneLine = {
    before: 'Would you rather talk it through? Call us on',
    after: ', any time for emergencies.',
  },
  children,
}: {
  intro?: ReactNode;
  /** The words around the phone number, so each page that has the form says its own. */
  phoneLine?: { before: string; after: string };
  children?: ReactNode;
}) {
  return (
    <section
      id="quote-form-section"
      className="section section--tint quote-form-section"
      aria-labelledby="quote-form-heading"
    >
      <div className="container container--narrow">
        <div className="quote-form-section__card">
          <h2 id="quote-form-heading">Request a Free Quote</h2>
          {intro}
          <p className="quote-form-section__call">
            {phoneLine.before}{' '}
            <a href={telHref} className="quote-form-section__phone">
              {business.phone.display}
            </a>
            {phoneLine.after}
          </p>
          {children}
        </div>
      </div>
    </section>
  );
}

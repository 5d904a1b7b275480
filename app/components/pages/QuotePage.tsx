import type { ReactNode } from 'react';
import { QuoteFormSection } from '../contact/QuoteFormSection.tsx';
import { PageHeader } from '../ui/PageHeader.tsx';
import type { PageMeta } from '../../layouts/page-meta.ts';
import { breadcrumbJsonLd } from '../../layouts/json-ld.ts';

/** The quote page's head, for its two page files (prerendered, and the form post's answer). */
export const quoteMeta = (): PageMeta => ({
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

/**
 * docs/screens.md#quote-page: one form and the phone.
 * `children`: the enquiry form, an island (app/pages).
 */
export function QuotePage({ children }: { children: ReactNode }) {
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
      <QuoteFormSection>{children}</QuoteFormSection>
    </>
  );
}

import { LegalDocument } from '../legal/LegalDocument.tsx';
import { terms } from '../../content/legal.ts';
import { formatLongDateNz } from '../../lib/format-date.ts';
import type { PageMeta } from '../../layouts/page-meta.ts';

export function termsData() {
  return { document: { ...terms, lastUpdatedText: formatLongDateNz(terms.lastUpdated) } };
}

export const termsMeta = (loaderData: ReturnType<typeof termsData>): PageMeta => ({
  title: loaderData.document.title,
  description: loaderData.document.metaDescription,
  path: '/terms',
});

/** SPEC §2 footer link: terms of trade and of website use. */
export function TermsPage({ loaderData }: { loaderData: ReturnType<typeof termsData> }) {
  return <LegalDocument document={loaderData.document} />;
}

import { LegalDocument } from '../legal/LegalDocument.tsx';
import { privacyPolicyFor } from '../../content/legal.ts';
import { formatLongDateNz } from '../../lib/format-date.ts';
import { publicConfig } from '../../lib/public-config.ts';
import type { PageMeta } from '../../layouts/page-meta.ts';

export function privacyPolicyData() {
  // The retention the server applies (LEAD_RETENTION_DAYS), as this build was made with it.
  const policy = privacyPolicyFor(publicConfig);
  return { document: { ...policy, lastUpdatedText: formatLongDateNz(policy.lastUpdated) } };
}

export const privacyPolicyMeta = (loaderData: ReturnType<typeof privacyPolicyData>): PageMeta => ({
  title: loaderData.document.title,
  description: loaderData.document.metaDescription,
  path: '/privacy-policy',
});

/** SPEC §2 footer link: what the forms collect and why, under the Privacy Act 2020. */
export function PrivacyPolicyPage({
  loaderData,
}: {
  loaderData: ReturnType<typeof privacyPolicyData>;
}) {
  return <LegalDocument document={loaderData.document} />;
}

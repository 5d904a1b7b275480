import { LegalDocument } from '../components/legal/LegalDocument.tsx';
import { privacyPolicyFor } from '../content/legal.ts';
import { formatLongDateNz } from '../lib/format-date.ts';
import { publicConfig } from '../lib/public-config.ts';
import { seo } from '../lib/seo.ts';
import pagesCss from '../styles/pages.css?url';
import type { Route } from './+types/privacy-policy';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: pagesCss }];

export function loader() {
  // The retention the server applies (LEAD_RETENTION_DAYS), as this build was made with it.
  const policy = privacyPolicyFor(publicConfig);
  return { document: { ...policy, lastUpdatedText: formatLongDateNz(policy.lastUpdated) } };
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  seo({
    title: loaderData.document.title,
    description: loaderData.document.metaDescription,
    path: '/privacy-policy',
  });

/** SPEC §2 footer link: what the forms collect and why, under the Privacy Act 2020. */
export default function PrivacyPolicy({ loaderData }: Route.ComponentProps) {
  return <LegalDocument document={loaderData.document} />;
}

import { LegalDocument } from '../components/legal/LegalDocument.tsx';
import { terms } from '../content/legal.ts';
import { formatLongDateNz } from '../lib/format-date.ts';
import { seo } from '../lib/seo.ts';
import pagesCss from '../styles/pages.css?url';
import type { Route } from './+types/terms';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: pagesCss }];

export function loader() {
  return { document: { ...terms, lastUpdatedText: formatLongDateNz(terms.lastUpdated) } };
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  seo({
    title: loaderData.document.title,
    description: loaderData.document.metaDescription,
    path: '/terms',
  });

/** SPEC §2 footer link: terms of trade and of website use. */
export default function Terms({ loaderData }: Route.ComponentProps) {
  return <LegalDocument document={loaderData.document} />;
}

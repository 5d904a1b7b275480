import { NotFoundContent } from '../NotFoundContent.tsx';
import { siteLinks } from '../../content/site-links.ts';
import type { PageMeta } from '../../layouts/page-meta.ts';

export function notFoundData(path: string) {
  return { path };
}

export const notFoundPageMeta = ({ path }: ReturnType<typeof notFoundData>): PageMeta => ({
  title: 'Page not found',
  description:
    'The page you were looking for is not here. See our glass services or request a free quote.',
  path,
  noindex: true,
});

export function NotFoundPage() {
  return <NotFoundContent serviceLinks={siteLinks.services} />;
}

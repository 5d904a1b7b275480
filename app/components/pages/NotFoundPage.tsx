import { NotFoundContent } from '../NotFoundContent.tsx';
import { siteLinks } from '../../content/site-links.ts';
import { seo } from '../../lib/seo.ts';

export function notFoundData(path: string) {
  return { path };
}

export const notFoundPageMeta = (loaderData: ReturnType<typeof notFoundData>) =>
  seo({
    title: 'Page not found',
    description:
      'The page you were looking for is not here. See our glass services or request a free quote.',
    path: loaderData?.path ?? '/',
    noindex: true,
  });

export function NotFoundPage() {
  return <NotFoundContent serviceLinks={siteLinks.services} />;
}

import { data } from 'react-router';
import { NotFoundContent } from '../components/NotFoundContent.tsx';
import { siteLinks } from '../content/site-links.ts';
import { seo } from '../lib/seo.ts';
import type { Route } from './+types/not-found';

export function loader({ request }: Route.LoaderArgs) {
  // The service links the page lists come with it, as a static page's would.
  return data(
    { path: new URL(request.url).pathname, serviceLinks: siteLinks.services },
    { status: 404 },
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  seo({
    title: 'Page not found',
    description:
      'The page you were looking for is not here. See our glass services or request a free quote.',
    path: loaderData?.path ?? '/',
    noindex: true,
  });

export default function NotFound({ loaderData }: Route.ComponentProps) {
  return <NotFoundContent serviceLinks={loaderData.serviceLinks} />;
}

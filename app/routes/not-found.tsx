import { data } from 'react-router';
import { NotFoundContent } from '../components/NotFoundContent.tsx';
import { seo } from '../lib/seo.ts';
import type { Route } from './+types/not-found';

export function loader({ request }: Route.LoaderArgs) {
  return data({ path: new URL(request.url).pathname }, { status: 404 });
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  seo({
    title: 'Page not found',
    description:
      'The page you were looking for is not here. See our glass services or request a free quote.',
    path: loaderData?.path ?? '/',
    noindex: true,
  });

export default function NotFound() {
  return <NotFoundContent />;
}

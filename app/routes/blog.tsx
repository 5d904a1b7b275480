import { BlogList } from '../components/blog/BlogList.tsx';
import { blogListData } from '../lib/blog/articles.server.ts';
import { redirectForPageQuery } from '../lib/blog/redirects.ts';
import { blogRouteLinks } from '../lib/blog/route-links.ts';
import { breadcrumbJsonLd } from '../lib/json-ld.ts';
import { seo } from '../lib/seo.ts';
import type { Route } from './+types/blog';

export const links: Route.LinksFunction = blogRouteLinks;

export function loader({ request }: Route.LoaderArgs) {
  redirectForPageQuery(request);
  // SPEC §5 search without JavaScript: /blog?q=… (server-rendered, see server/app.server.ts).
  return blogListData(null, new URL(request.url).searchParams.get('q') ?? '');
}

export const meta: Route.MetaFunction = () =>
  seo({
    title: 'Glass Advice Blog',
    description:
      'Practical advice on windows, double glazing, glass repairs and care for Bay of Plenty homes and businesses, from local glaziers.',
    path: '/blog',
    jsonLd: [
      breadcrumbJsonLd([
        { name: 'Home', path: '/' },
        { name: 'Blog', path: '/blog' },
      ]),
    ],
  });

export default function Blog({ loaderData }: Route.ComponentProps) {
  return <BlogList data={loaderData} />;
}

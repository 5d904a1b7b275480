import { BlogList } from '../components/blog/BlogList.tsx';
import { blogListData, categories } from '../lib/blog/articles.server.ts';
import { findCategory } from '../lib/blog/category.ts';
import {
  redirectForPageQuery,
  redirectToBlog,
  retiredCategorySlugs,
} from '../lib/blog/redirects.ts';
import { blogRouteLinks } from '../lib/blog/route-links.ts';
import { breadcrumbJsonLd } from '../lib/json-ld.ts';
import { seo } from '../lib/seo.ts';
import type { Route } from './+types/blog-category';

export const links: Route.LinksFunction = blogRouteLinks;

export function loader({ params, request }: Route.LoaderArgs) {
  redirectForPageQuery(request);
  if (retiredCategorySlugs.has(params.category.toLowerCase())) redirectToBlog();
  // SPEC §4: a category that matches none gives no filter (all posts, 'All Blogs').
  const category = findCategory(categories, params.category);
  return blogListData(category, new URL(request.url).searchParams.get('q') ?? '');
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const category = loaderData?.category ?? null;
  return seo({
    title: category ? `${category} Articles` : 'Glass Advice Blog',
    description: category
      ? `Articles on ${category.toLowerCase()} from Tauranga glaziers: practical advice for Bay of Plenty homes and businesses.`
      : 'Practical advice on windows, double glazing, glass repairs and care for Bay of Plenty homes and businesses.',
    path: loaderData?.path ?? '/blog',
    jsonLd: [
      breadcrumbJsonLd([
        { name: 'Home', path: '/' },
        { name: 'Blog', path: '/blog' },
        ...(category && loaderData ? [{ name: category, path: loaderData.path }] : []),
      ]),
    ],
  });
};

export default function BlogCategory({ loaderData }: Route.ComponentProps) {
  // A new category starts a new list state: search from the URL, page 1 (SPEC §4).
  return <BlogList key={loaderData.category ?? 'all'} data={loaderData} />;
}

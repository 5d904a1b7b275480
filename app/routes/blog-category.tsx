import { Link } from 'react-router';
import { PageHeader } from '../components/ui/PageHeader.tsx';
import { categorySlug } from '../lib/blog/category.ts';
import {
  redirectForPageQuery,
  redirectToBlog,
  retiredCategorySlugs,
} from '../lib/blog/redirects.ts';
import { postSummaries } from '../lib/blog/summaries.ts';
import { seo } from '../lib/seo.ts';
import { blogCategories } from '../site-pages.ts';
import type { Route } from './+types/blog-category';

export function loader({ params, request }: Route.LoaderArgs) {
  redirectForPageQuery(request);
  const slug = params.category.toLowerCase();
  if (retiredCategorySlugs.has(slug)) redirectToBlog();
  // SPEC §4: an unknown category gives no filter.
  const category = blogCategories.find((name) => categorySlug(name) === slug) ?? null;
  const posts = postSummaries
    .filter((post) => category === null || post.categories.includes(category))
    .map(({ slug: postSlug, title, excerpt }) => ({ slug: postSlug, title, excerpt }));
  return {
    category,
    canonicalPath: category ? `/blog/category/${categorySlug(category)}` : '/blog',
    posts,
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  seo({
    title: loaderData?.category ? `${loaderData.category} Articles` : 'Glass Advice Blog',
    description: loaderData?.category
      ? `Articles on ${loaderData.category.toLowerCase()} from Tauranga glaziers: practical advice for Bay of Plenty homes and businesses.`
      : 'Practical advice on windows, double glazing, glass repairs and care for Bay of Plenty homes and businesses.',
    path: loaderData?.canonicalPath ?? '/blog',
  });

export default function BlogCategory({ loaderData }: Route.ComponentProps) {
  const heading = loaderData.category ? `${loaderData.category} Articles` : 'All Blogs';
  return (
    <>
      <PageHeader
        title="Shared Resources for Your Home Needs"
        intro={<p>Advice from our glaziers, sorted by topic.</p>}
      />
      <section className="section section--plain" aria-labelledby="category-heading">
        <div className="container">
          <h2 id="category-heading">{heading}</h2>
          <ul className="link-grid">
            {loaderData.posts.map((post) => (
              <li key={post.slug}>
                <Link to={`/blog/${post.slug}`}>{post.title}</Link>
                <p>{post.excerpt}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>
    </>
  );
}

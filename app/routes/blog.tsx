import { Link } from 'react-router';
import { PageHeader } from '../components/ui/PageHeader.tsx';
import { postSummaries } from '../lib/blog/summaries.ts';
import { redirectForPageQuery } from '../lib/blog/redirects.ts';
import { seo } from '../lib/seo.ts';
import type { Route } from './+types/blog';

export function loader({ request }: Route.LoaderArgs) {
  redirectForPageQuery(request);
  return { posts: postSummaries.map(({ slug, title, excerpt }) => ({ slug, title, excerpt })) };
}

export const meta = () =>
  seo({
    title: 'Glass Advice Blog',
    description:
      'Practical advice on windows, double glazing, glass repairs and care for Bay of Plenty homes and businesses, from local glaziers.',
    path: '/blog',
  });

export default function Blog({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHeader
        title="Shared Resources for Your Home Needs"
        intro={
          <p>
            Straight answers from our glaziers on repairs, double glazing, cleaning and safety, so
            you know what can wait, what you can fix yourself and when to call us.
          </p>
        }
      />
      <section className="section section--plain" aria-labelledby="all-blogs">
        <div className="container">
          <h2 id="all-blogs">All Blogs</h2>
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

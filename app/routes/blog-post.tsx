import { ButtonLink } from '../components/ui/ButtonLink.tsx';
import { PageHeader } from '../components/ui/PageHeader.tsx';
import { redirectToBlog } from '../lib/blog/redirects.ts';
import { postSummaries } from '../lib/blog/summaries.ts';
import { seo } from '../lib/seo.ts';
import type { Route } from './+types/blog-post';

export function loader({ params }: Route.LoaderArgs) {
  const post = postSummaries.find((summary) => summary.slug === params.slug);
  // SPEC §2, §8: an unknown slug (including the old /blog/2 and /blog/3) goes to /blog.
  if (!post) return redirectToBlog();
  return { post };
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData
    ? seo({
        title: loaderData.post.metaTitle,
        description: loaderData.post.metaDescription,
        path: `/blog/${loaderData.post.slug}`,
        type: 'article',
        article: { publishedTime: loaderData.post.publishedAt, tags: loaderData.post.categories },
      })
    : [];

export default function BlogPost({ loaderData }: Route.ComponentProps) {
  const { post } = loaderData;
  return (
    <PageHeader
      eyebrow={post.categories[0]}
      title={post.title}
      intro={<p>{post.excerpt}</p>}
      actions={<ButtonLink to="/quote">Request an Estimate</ButtonLink>}
    />
  );
}

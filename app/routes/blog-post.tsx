import { ArticleBody } from '../components/blog/ArticleBody.tsx';
import { ArticlePager } from '../components/blog/ArticlePager.tsx';
import { BlogCallToAction } from '../components/blog/BlogCallToAction.tsx';
import { CategoryChips } from '../components/blog/CategoryChips.tsx';
import { HelpNowBox } from '../components/blog/HelpNowBox.tsx';
import { PostCard } from '../components/blog/PostCard.tsx';
import { Breadcrumbs, type Crumb } from '../components/ui/Breadcrumbs.tsx';
import { Icon } from '../components/ui/Icon.tsx';
import { Illustration } from '../components/ui/Illustration.tsx';
import { articlePageData } from '../lib/blog/articles.server.ts';
import type { ArticlePageData } from '../lib/blog/listing.ts';
import { redirectToBlog } from '../lib/blog/redirects.ts';
import { blogRouteLinks } from '../lib/blog/route-links.ts';
import { blogPostingJsonLd, breadcrumbJsonLd } from '../lib/json-ld.ts';
import { seo } from '../lib/seo.ts';
import type { Route } from './+types/blog-post';

export const links: Route.LinksFunction = blogRouteLinks;

export function loader({ params }: Route.LoaderArgs) {
  const data = articlePageData(params.slug);
  // SPEC §2, §8: an unknown slug (including the old /blog/2 and /blog/3) goes to /blog.
  if (!data) return redirectToBlog();
  return data;
}

/** SPEC §2: Home / Blog / first category / title. */
function crumbs(article: ArticlePageData['article']): Crumb[] {
  const category = article.categoryLinks[0];
  return [
    { name: 'Home', path: '/' },
    { name: 'Blog', path: '/blog' },
    ...(category ? [{ name: category.name, path: category.path }] : []),
    { name: article.title, path: article.path },
  ];
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  if (!loaderData) return [];
  const { article } = loaderData;
  const categories = article.categoryLinks.map((link) => link.name);
  return seo({
    title: article.metaTitle,
    description: article.metaDescription,
    path: article.path,
    type: 'article',
    // The cover is an SVG, which social networks do not show: the default share image stays.
    article: { publishedTime: article.date.iso, section: categories[0], tags: categories },
    jsonLd: [
      blogPostingJsonLd({
        path: article.path,
        headline: article.title,
        description: article.metaDescription,
        image: {
          path: article.cover.src,
          width: article.cover.width,
          height: article.cover.height,
        },
        datePublished: article.date.iso,
        wordCount: article.wordCount,
        categories,
      }),
      breadcrumbJsonLd(crumbs(article)),
    ],
  });
};

/** SPEC §2 article screen, in order. */
export default function BlogPost({ loaderData }: Route.ComponentProps) {
  const { article, related, previous, next } = loaderData;
  return (
    <>
      <article key={article.slug} className="article" aria-labelledby="article-title">
        <header className="article-header">
          <div className="container container--narrow">
            <Breadcrumbs items={crumbs(article)} />
            <h1 id="article-title">{article.title}</h1>
            <p className="article-meta">
              <span>By {article.author}</span>
              <span>
                <Icon name="clock" size={18} />
                {article.readTimeMinutes} min read
              </span>
              <span>
                <Icon name="file-text" size={18} />
                <time dateTime={article.date.iso}>{article.date.long}</time>
              </span>
            </p>
            <CategoryChips label="Article categories" links={article.categoryLinks} />
          </div>
        </header>
        <div className="container container--narrow article-content">
          <Illustration
            src={article.cover.src}
            alt={article.cover.alt}
            width={article.cover.width}
            height={article.cover.height}
            priority
            className="article-cover"
          />
          <ArticleBody html={article.bodyBeforeHelpBox} />
          <HelpNowBox />
          <ArticleBody html={article.bodyAfterHelpBox} />
        </div>
      </article>

      <BlogCallToAction />

      {related.length > 0 ? (
        <section
          className="section section--tint related-articles"
          aria-labelledby="related-heading"
        >
          <div className="container">
            <h2 id="related-heading">Related Articles</h2>
            <ul className="post-grid post-grid--related">
              {related.map((post) => (
                <li key={post.slug}>
                  <PostCard post={post} />
                </li>
              ))}
            </ul>
          </div>
        </section>
      ) : null}

      <ArticlePager previous={previous} next={next} />
    </>
  );
}

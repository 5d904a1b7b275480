import { ArticleBody } from '../blog/ArticleBody.tsx';
import { ArticlePager } from '../blog/ArticlePager.tsx';
import { BlogCallToAction } from '../blog/BlogCallToAction.tsx';
import { CategoryChips } from '../blog/CategoryChips.tsx';
import { HelpNowBox } from '../blog/HelpNowBox.tsx';
import { PostCard } from '../blog/PostCard.tsx';
import { Breadcrumbs, type Crumb } from '../ui/Breadcrumbs.tsx';
import { Icon } from '../ui/Icon.tsx';
import { Illustration } from '../ui/Illustration.tsx';
import { articlePageData } from '../../lib/blog/articles.server.ts';
import type { ArticlePageData } from '../../lib/blog/listing.ts';
import { blogPostingJsonLd, breadcrumbJsonLd } from '../../lib/json-ld.ts';
import type { PageMeta } from '../../layouts/page-meta.ts';

/** The article's page, or null for an unknown slug (SPEC §2, §8: the caller redirects to /blog). */
export function blogPostData(slug: string) {
  const data = articlePageData(slug);
  // SPEC §2, §8: an unknown slug (including the old /blog/2 and /blog/3) goes to /blog.
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

export const blogPostMeta = (
  loaderData: NonNullable<ReturnType<typeof blogPostData>>,
): PageMeta => {
  const { article } = loaderData;
  const categories = article.categoryLinks.map((link) => link.name);
  return {
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
  };
};

/** SPEC §2 article screen, in order. */
export function BlogPostPage({
  loaderData,
}: {
  loaderData: NonNullable<ReturnType<typeof blogPostData>>;
}) {
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

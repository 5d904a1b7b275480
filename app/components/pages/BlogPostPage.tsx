import { ArticleBody } from '../blog/ArticleBody.tsx';
import { ArticlePager } from '../blog/ArticlePager.tsx';
import { BlogCallToAction } from '../blog/BlogCallToAction.tsx';
import { CategoryChips } from '../blog/CategoryChips.tsx';
import { HelpNowBox } from '../blog/HelpNowBox.tsx';
import { PostCard } from '../blog/PostCard.tsx';
import { Breadcrumbs, type Crumb } from '../ui/Breadcrumbs.tsx';
import { Icon } from '../ui/Icon.tsx';
import { Illustration } from '../ui/Illustration.tsx';
import type { ArticlePageData } from '../../blog/listing.ts';

/** docs/blog.md#article-page, in order. */
export function BlogPostPage({
  article,
  related,
  previous,
  next,
  crumbs,
}: ArticlePageData & {
  /** Home / Blog / first category / title (the page's JSON-LD names the same). */
  crumbs: readonly Crumb[];
}) {
  return (
    <>
      <article className="article" aria-labelledby="article-title">
        <header className="article-header">
          <div className="container container--narrow">
            <Breadcrumbs items={crumbs} />
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

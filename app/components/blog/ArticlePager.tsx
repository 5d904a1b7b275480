import type { PostLink } from '../../blog/listing.ts';
import { Icon } from '../ui/Icon.tsx';

/**
 * docs/blog.md#article-page: previous and next article in list order (newest first): previous
 * is the newer neighbour, next the older one.
 */
export function ArticlePager({
  previous,
  next,
}: {
  previous: PostLink | null;
  next: PostLink | null;
}) {
  if (!previous && !next) return null;
  return (
    <nav className="article-pager" aria-label="More articles">
      <div className="container article-pager__inner">
        {previous ? (
          <a href={previous.path} rel="prev" className="article-pager__link">
            <span className="article-pager__label">
              <Icon name="chevron-left" size={18} />
              Previous article
            </span>
            <span className="article-pager__title">{previous.title}</span>
          </a>
        ) : null}
        {next ? (
          <a href={next.path} rel="next" className="article-pager__link article-pager__link--next">
            <span className="article-pager__label">
              Next article
              <Icon name="chevron-right" size={18} />
            </span>
            <span className="article-pager__title">{next.title}</span>
          </a>
        ) : null}
      </div>
    </nav>
  );
}

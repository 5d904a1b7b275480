import type { PostCardData } from '../../blog/listing.ts';
import { Icon } from '../ui/Icon.tsx';
import { Illustration } from '../ui/Illustration.tsx';
import { CategoryChips } from './CategoryChips.tsx';

/**
 * One article card (docs/blog.md#blog-list, and related articles): cover, category
 * links, title, en-NZ short date, excerpt and 'Learn more'. The page's data
 * (app/blog/listing.ts) has already left out hidden categories and
 * capped them on related cards.
 */
export function PostCard({ post }: { post: PostCardData }) {
  const headingId = `post-card-${post.slug}`;
  return (
    <article className="card post-card" aria-labelledby={headingId}>
      <Illustration
        src={post.cover.src}
        alt={post.cover.alt}
        width={post.cover.width}
        height={post.cover.height}
        className="post-card__cover"
      />
      <div className="card__body">
        {post.categoryLinks.length > 0 ? (
          <CategoryChips label={`Categories of ${post.title}`} links={post.categoryLinks} small />
        ) : null}
        <h3 id={headingId} className="card__title post-card__title">
          <a href={post.path}>{post.title}</a>
        </h3>
        <p className="post-card__date">
          <time dateTime={post.date.iso}>{post.date.short}</time>
        </p>
        <p className="post-card__excerpt">{post.excerpt}</p>
        <a href={post.path} className="card__link">
          Learn more <span className="sr-only">about {post.title}</span>
          <Icon name="chevron-right" size={18} />
        </a>
      </div>
    </article>
  );
}

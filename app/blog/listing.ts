import { categoryLinks, type CategoryLink } from './category.ts';
import type { CompiledArticle } from './compile.ts';

/**
 * What the blog pages show of an article, shaped from the compiled articles
 * when the pages render. Dates are formatted here, at build time or on the
 * server, with a fixed time zone, so the HTML and the blog list island once
 * it has hydrated always agree.
 */

export interface PostDate {
  /** 2024-01-15, for <time dateTime>. */
  iso: string;
  /** en-NZ short: 15 Jan 2024 (docs/blog.md#blog-list, cards). */
  short: string;
  /** en-NZ long: 15 January 2024 (docs/blog.md#article-page). */
  long: string;
}

export interface PostCardData {
  slug: string;
  path: string;
  title: string;
  excerpt: string;
  /**
   * The category links the card shows (docs/blog.md#categories: automotive
   * hidden; ≤ 2 when related).
   */
  categoryLinks: CategoryLink[];
  date: PostDate;
  cover: CompiledArticle['cover'];
}

export interface PostLink {
  path: string;
  title: string;
}

export interface BlogListData {
  /** The active category; null is 'All' (docs/blog.md#list-state). */
  category: string | null;
  /** The list's own address (/blog or /blog/category/…): canonical link and search form action. */
  path: string;
  /** Articles in the whole blog, for the 'All' entry. */
  total: number;
  /** The search of a no-JavaScript submit (/blog?q=…); the list filters by it. */
  query: string;
  /** Chips and sidebar, with the number of articles in each. */
  categories: (CategoryLink & { count: number })[];
  posts: PostCardData[];
  /**
   * What the list states of the business, given as data so the island's
   * code is the same for every publication (app/content/published.ts).
   */
  contact: { phone: { display: string; e164: string }; emergencyHours: string };
}

export interface ArticlePageData {
  article: {
    slug: string;
    path: string;
    title: string;
    excerpt: string;
    metaTitle: string;
    metaDescription: string;
    author: string;
    date: PostDate;
    readTimeMinutes: number;
    wordCount: number;
    /** Shown as chips; the first is the breadcrumb's category (docs/blog.md#article-page). */
    categoryLinks: CategoryLink[];
    cover: CompiledArticle['cover'];
    /**
     * The body split where the 'Need help now?' box goes
     * (docs/blog.md#need-help-now-box, computed at build time).
     */
    bodyBeforeHelpBox: string;
    bodyAfterHelpBox: string;
  };
  related: PostCardData[];
  previous: PostLink | null;
  next: PostLink | null;
}

/** docs/blog.md#article-page: related articles at most 3, a related card at most 2 categories. */
export const MAX_RELATED = 3;
export const MAX_RELATED_CARD_CATEGORIES = 2;

export function formatPostDate(isoDate: string): PostDate {
  // The date is a calendar date: read and written in UTC so no time zone can shift it a day.
  const date = new Date(`${isoDate}T00:00:00Z`);
  return {
    iso: isoDate,
    short: date.toLocaleDateString('en-NZ', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    }),
    long: date.toLocaleDateString('en-NZ', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }),
  };
}

export function postPath(slug: string): string {
  return `/blog/${slug}`;
}

export function postCard(
  article: CompiledArticle,
  maxCategories: number = Number.POSITIVE_INFINITY,
): PostCardData {
  const { slug, title, excerpt, categories, publishedAt } = article.frontmatter;
  return {
    slug,
    path: postPath(slug),
    title,
    excerpt,
    categoryLinks: categoryLinks(categories, maxCategories),
    date: formatPostDate(publishedAt),
    cover: article.cover,
  };
}

/** Other articles sharing at least one category with this one, in list order. */
export function relatedArticles<Article extends Pick<CompiledArticle, 'frontmatter'>>(
  articles: readonly Article[],
  slug: string,
  max: number = MAX_RELATED,
): Article[] {
  const current = articles.find((article) => article.frontmatter.slug === slug);
  if (!current) return [];
  const categories = new Set(current.frontmatter.categories);
  return articles
    .filter(
      (article) =>
        article.frontmatter.slug !== slug &&
        article.frontmatter.categories.some((category) => categories.has(category)),
    )
    .slice(0, max);
}

/**
 * The neighbours of an article in list order (newest first, docs/blog.md#articles).
 * 'Previous' is the one before it in that list (newer), 'next' the one after
 * it (older), so reading 'next' from the top walks the blog from newest to
 * oldest, as the list page does.
 */
export function adjacentArticles<Article extends Pick<CompiledArticle, 'frontmatter'>>(
  articles: readonly Article[],
  slug: string,
): { previous: Article | null; next: Article | null } {
  const index = articles.findIndex((article) => article.frontmatter.slug === slug);
  if (index < 0) return { previous: null, next: null };
  return { previous: articles[index - 1] ?? null, next: articles[index + 1] ?? null };
}

/**
 * The blog list's filters (docs/blog.md#search, #list-state, #pagination).
 * Small and free of content, so the list component can filter in the browser on
 * every keystroke.
 */

/** docs/blog.md#pagination: posts per page of the blog list. */
export const BLOG_PAGE_SIZE = 100;

export interface Searchable {
  title: string;
  excerpt: string;
}

/**
 * docs/blog.md#search: a case-insensitive substring of the title or the
 * excerpt; an empty search matches all.
 */
export function matchesSearch(post: Searchable, query: string): boolean {
  const needle = query.trim().toLocaleLowerCase('en-NZ');
  if (needle === '') return true;
  return (
    post.title.toLocaleLowerCase('en-NZ').includes(needle) ||
    post.excerpt.toLocaleLowerCase('en-NZ').includes(needle)
  );
}

/** docs/blog.md#search: both filters at once; a null category is 'All'. */
export function filterPosts<Post extends Searchable & { categories: readonly string[] }>(
  posts: readonly Post[],
  { query, category }: { query: string; category: string | null },
): Post[] {
  return posts.filter(
    (post) =>
      (category === null || post.categories.includes(category)) && matchesSearch(post, query),
  );
}

/** One page of results (pages count from 1) and how many pages there are. */
export function pageOf<Item>(
  items: readonly Item[],
  page: number,
  pageSize: number = BLOG_PAGE_SIZE,
): { items: Item[]; page: number; pageCount: number } {
  const pageCount = Math.max(1, Math.ceil(items.length / pageSize));
  const current = Math.min(Math.max(1, Math.floor(page)), pageCount);
  return {
    items: items.slice((current - 1) * pageSize, current * pageSize),
    page: current,
    pageCount,
  };
}

/**
 * docs/blog.md#categories: the category part of a URL is the lower-cased name
 * with spaces turned into hyphens.
 */
export function categorySlug(category: string): string {
  return category.toLowerCase().trim().replace(/\s+/g, '-');
}

/**
 * docs/blog.md#categories: automotive and auto-glass categories are never shown
 * as card category links.
 */
const HIDDEN_CATEGORY = /auto(motive)?|auto-glass/i;

export function isHiddenCategory(category: string): boolean {
  return HIDDEN_CATEGORY.test(category);
}

export interface CategoryLink {
  name: string;
  path: string;
}

export function categoryPath(category: string): string {
  return `/blog/category/${categorySlug(category)}`;
}

/** The categories a card or an article shows as links: hidden ones left out, at most `max`. */
export function categoryLinks(
  categories: readonly string[],
  max: number = Number.POSITIVE_INFINITY,
): CategoryLink[] {
  return categories
    .filter((name) => !isHiddenCategory(name))
    .slice(0, max)
    .map((name) => ({ name, path: categoryPath(name) }));
}

/**
 * docs/blog.md#categories: the category named by a URL, compared case-insensitively with
 * hyphens read as spaces; null (no filter) when it matches none.
 */
export function findCategory(known: readonly string[], urlPart: string): string | null {
  const wanted = categorySlug(urlPart.replace(/-/g, ' '));
  return known.find((name) => categorySlug(name) === wanted) ?? null;
}

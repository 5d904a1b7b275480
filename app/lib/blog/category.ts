/** SPEC §2: the category part of a URL is the lower-cased name with spaces turned into hyphens. */
export function categorySlug(category: string): string {
  return category.toLowerCase().trim().replace(/\s+/g, '-');
}

/** docs/pages-and-routes.md#redirects: retired category routes that now lead to /blog. */
export const retiredCategorySlugs: ReadonlySet<string> = new Set([
  'auto-glass',
  'auto',
  'automotive',
  'doors',
  'pool-fences',
  'retrofit',
  'security',
  'shower-installations',
  'insurance-claims',
]);

/** SPEC §2: retired category routes that now lead to /blog. */
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

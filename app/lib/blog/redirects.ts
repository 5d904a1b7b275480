import { redirect } from 'react-router';

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

/** SPEC §4, §8: a page query other than 1 goes back to /blog (the list has one page). */
export function redirectForPageQuery(request: Request): void {
  const page = new URL(request.url).searchParams.get('page');
  if (page !== null && page !== '1') throw redirect('/blog', 301);
}

export function redirectToBlog(): never {
  throw redirect('/blog', 301);
}

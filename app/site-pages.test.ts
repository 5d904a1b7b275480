import { describe, expect, it } from 'vitest';
import { THANK_YOU_PATH, URGENT_THANK_YOU_PATH } from './leads/intake/form-submission.ts';
import { sitePages, unlistedPages } from './site-pages.ts';

/*
 * That the build prerenders exactly these pages (and others only when they
 * are kept out of search, like /thank-you) is checked by the build itself,
 * on the real output (scripts/build.ts).
 */
describe('the page list (prerendering and sitemaps)', () => {
  it('lists every page of the route table once', () => {
    const paths = sitePages.map((page) => page.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const path of [
      '/',
      '/services',
      '/services/shower-installations',
      '/services/windows',
      '/services/doors',
      '/services/cat-doors',
      '/services/splashbacks',
      '/services/glass-repairs',
      '/services/balustrades',
      '/services/retrofit-glass',
      '/services/pool-fences',
      '/glass-types/performatech',
      '/glass-types/planitherm',
      '/about',
      '/contact',
      '/quote',
      '/blog',
      '/privacy-policy',
      '/terms',
      '/sitemap',
    ]) {
      expect(paths, path).toContain(path);
    }
    expect(paths).not.toContain('/thank-you');
  });

  it('keeps the pages an enquiry leads to out of the sitemaps, but names them', () => {
    const unlisted = unlistedPages.map((page) => page.path);
    expect(unlisted).toEqual([THANK_YOU_PATH, URGENT_THANK_YOU_PATH]);
    expect(unlisted).toEqual(['/thank-you', '/thank-you/urgent']);
    const listed = sitePages.map((page) => page.path);
    for (const path of unlisted) expect(listed).not.toContain(path);
  });
});

import { matchRoutes, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import routes from './routes.ts';
import { prerenderPaths, sitePages, unlistedPages } from './site-pages.ts';

/** The route config as route objects React Router can match against. */
function routeObjects(entries: typeof routes): RouteObject[] {
  return entries.map((entry) =>
    entry.index
      ? { index: true }
      : { path: entry.path, children: entry.children ? routeObjects(entry.children) : undefined },
  );
}

describe('the page list (prerendering and sitemaps) and the route list agree', () => {
  const objects = routeObjects(routes);
  const moduleFor = (path: string) => {
    const matches = matchRoutes(objects, path);
    const leaf = matches?.at(-1)?.route as { path?: string; index?: boolean } | undefined;
    return leaf?.index ? '(index)' : leaf?.path;
  };

  it('every listed page is served by a route module, not the catch-all', () => {
    for (const page of [...sitePages, ...unlistedPages]) {
      expect(moduleFor(page.path), page.path).toBeDefined();
      expect(moduleFor(page.path), page.path).not.toBe('*');
    }
  });

  it('every route module with a fixed path has its page in the list', () => {
    const listed = new Set(prerenderPaths);
    for (const route of routes) {
      if (route.path === '*' || route.path?.includes(':')) continue;
      const path = route.index ? '/' : `/${route.path}`;
      expect(listed.has(path), path).toBe(true);
    }
  });

  it('lists every SPEC §2 page once', () => {
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
    expect(prerenderPaths).toContain('/thank-you');
    expect(paths).not.toContain('/thank-you');
  });
});

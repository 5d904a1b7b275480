import type { APIRequestContext } from '@playwright/test';

/**
 * Every public page, read from the site's own /sitemap.xml (which is built
 * from the one route list), plus the unlisted thank-you page.
 */
export async function allPagePaths(request: APIRequestContext): Promise<string[]> {
  const response = await request.get('/sitemap.xml');
  const xml = await response.text();
  const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map(
    (match) => new URL((match[1] ?? '').replace(/&amp;/g, '&')).pathname,
  );
  return [...paths, '/thank-you'];
}

/** Analytics stand-in: the real tag host is unreachable here, so answer with an empty script. */
export const GTAG_PATTERN = 'https://www.googletagmanager.com/**';

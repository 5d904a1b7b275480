import { expect, test } from '@playwright/test';
import { JSDOM } from 'jsdom';
import { E2E_BUILD_ENV } from './support/env.ts';
import { PAGE_PATHS } from './support/pages.ts';

/**
 * No broken link: every page of the built site is read, and every
 * same-origin address it names (links, images and their srcset candidates,
 * icons, the manifest, scripts, the share image, the canonical link) is
 * requested and answers 200, after redirects. Addresses on SITE_URL, which
 * the build writes into canonical links and share tags, are this server's.
 */

/** The addresses a page names, as written. */
function addressesIn(html: string): string[] {
  const { document } = new JSDOM(html).window;
  const found: string[] = [];
  const attribute = (selector: string, name: string) => {
    for (const element of document.querySelectorAll(selector)) {
      const value = element.getAttribute(name);
      if (value) found.push(value);
    }
  };
  attribute('a[href]', 'href');
  attribute('link[href]', 'href');
  attribute('img[src]', 'src');
  attribute('script[src]', 'src');
  attribute('form[action]', 'action');
  attribute('meta[property="og:image"], meta[name="twitter:image"]', 'content');
  for (const element of document.querySelectorAll('img[srcset], source[srcset]')) {
    for (const candidate of (element.getAttribute('srcset') ?? '').split(',')) {
      const url = candidate.trim().split(/\s+/)[0];
      if (url) found.push(url);
    }
  }
  return found;
}

test('every same-origin link, image, icon and script of every page answers', async ({
  request,
  baseURL,
}) => {
  const base = new URL(baseURL!);
  const siteOrigin = new URL(E2E_BUILD_ENV.SITE_URL).origin;
  // Each address, with the first page that names it.
  const targets = new Map<string, string>();
  for (const pagePath of PAGE_PATHS) {
    const response = await request.get(pagePath);
    expect(response.status(), pagePath).toBe(200);
    const pageUrl = new URL(pagePath, base);
    for (const written of addressesIn(await response.text())) {
      const url = new URL(written, pageUrl);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
      if (url.origin === siteOrigin) {
        url.protocol = base.protocol;
        url.host = base.host;
      }
      if (url.origin !== base.origin) continue;
      url.hash = '';
      const key = `${url.pathname}${url.search}`;
      if (!targets.has(key)) targets.set(key, pagePath);
    }
  }
  // The crawl reached the kinds of address the pages name.
  const keys = [...targets.keys()];
  expect(keys.some((key) => key.startsWith('/assets/'))).toBe(true);
  expect(keys.some((key) => key.startsWith('/services/'))).toBe(true);
  expect(keys).toContain('/site.webmanifest');

  const broken: string[] = [];
  for (const [target, page] of targets) {
    const response = await request.get(target, { maxRedirects: 3 });
    if (response.status() !== 200) broken.push(`${target} (${response.status()}, on ${page})`);
  }
  expect(broken).toEqual([]);
  expect(targets.size).toBeGreaterThan(60);
});

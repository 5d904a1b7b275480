import { get } from 'node:http';
import { expect, test } from '@playwright/test';
import { E2E_BASE_URL } from './support/env.ts';
import { PAGE_PATHS } from './support/pages.ts';

/**
 * Issue 15's JavaScript budgets, as a browser receives it (brotli): every
 * script a page has fetched once it is ready (its islands hydrated) and
 * idle. A page with a lead form or the blog search (a React
 * island) may have 70 KiB; any other page 15 KiB (the site's own module and
 * what it starts: menus, carousels, analytics).
 */
export const ISLAND_PAGE_JS_BUDGET_BYTES = 70 * 1024;
export const PLAIN_PAGE_JS_BUDGET_BYTES = 15 * 1024;

/** The pages with an island: the three lead forms and the blog lists. */
export function hasIsland(pagePath: string): boolean {
  return (
    ['/', '/contact', '/quote', '/blog'].includes(pagePath) ||
    pagePath.startsWith('/blog/category/')
  );
}

/** Bytes on the wire for one URL, with the given Accept-Encoding. */
function transferSize(
  url: string,
  encoding: string,
): Promise<{ bytes: number; encoding?: string }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'Accept-Encoding': encoding } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve({ bytes, encoding: response.headers['content-encoding'] }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

for (const pagePath of PAGE_PATHS) {
  const island = hasIsland(pagePath);
  const budget = island ? ISLAND_PAGE_JS_BUDGET_BYTES : PLAIN_PAGE_JS_BUDGET_BYTES;
  test(`${pagePath}: JavaScript within ${budget / 1024} KiB brotli`, async ({ page }) => {
    const scripts = new Set<string>();
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === E2E_BASE_URL && url.pathname.endsWith('.js')) scripts.add(url.pathname);
    });
    await page.goto(pagePath);
    await expect(page.locator('html[data-ready]')).toBeAttached();
    // Once the page is idle: its islands have hydrated (data-ready), and the
    // browser has run out of work that could still fetch a script.
    await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve())));

    expect(scripts.size).toBeGreaterThan(0);
    let brotli = 0;
    for (const url of scripts) {
      const compressed = await transferSize(`${E2E_BASE_URL}${url}`, 'br');
      if (compressed.bytes > 1024) expect(compressed.encoding, url).toBe('br');
      brotli += compressed.bytes;
    }
    console.log(
      `${pagePath}: ${scripts.size} scripts, ${(brotli / 1024).toFixed(1)} KiB brotli (budget ${budget / 1024} KiB)`,
    );
    expect(brotli).toBeLessThanOrEqual(budget);
    // A page without a form or search runs no React at all.
    if (!island) expect(await page.locator('astro-island').count()).toBe(0);
  });
}

// The first paint gets the bandwidth: a page fetches no script before its
// load event and its first contentful paint (scripts/defer-scripts.ts;
// islands hydrate after both, app/directives/after-load.ts).
for (const pagePath of ['/', '/services/windows', '/blog/double-pane-window-repair', '/quote']) {
  test(`${pagePath} fetches no script before its load event and first paint`, async ({ page }) => {
    await page.goto(pagePath);
    await expect(page.locator('html[data-ready]')).toBeAttached();
    const timing = await page.evaluate(() => {
      const [navigation] = performance.getEntriesByType(
        'navigation',
      ) as PerformanceNavigationTiming[];
      const [paint] = performance.getEntriesByName('first-contentful-paint');
      const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
        .map((entry) => ({ url: entry.name, startTime: entry.startTime }));
      return {
        loadEventStart: navigation!.loadEventStart,
        firstContentfulPaint: paint?.startTime,
        scripts,
      };
    });
    expect(timing.firstContentfulPaint).toBeDefined();
    expect(timing.scripts.length).toBeGreaterThan(0);
    for (const script of timing.scripts) {
      expect(script.startTime, script.url).toBeGreaterThanOrEqual(timing.loadEventStart);
      expect(script.startTime, script.url).toBeGreaterThan(timing.firstContentfulPaint!);
    }
  });
}

import { expect, test } from '@playwright/test';
import { axe } from './support/axe.ts';
import {
  ISLAND_PAGE_JS_BUDGET_BYTES,
  PLAIN_PAGE_JS_BUDGET_BYTES,
  hasIsland,
  transferSize,
} from './support/budget.ts';
import { E2E_BASE_URL } from './support/env.ts';
import { PAGE_PATHS } from './support/pages.ts';

/**
 * The checks every route gets from one page load, one test per route so each
 * has the whole time limit and a failure names its route: the JavaScript the
 * page fetched by the time it is ready and idle, within its budget
 * (docs/decisions/0002-precompressed-assets-and-a-js-budget.md), then axe at
 * 1280 and 390 px. One load serves both: the suite is CPU-bound on two cores,
 * and a second load and hydration of every route cost about 60 of its 860
 * test-seconds. The HTML checker reads every page in html-validity.spec.ts; axe
 * with a menu open is in layout.spec.ts; when the scripts start is in
 * script-timing.spec.ts.
 */

// One axe run over a long page takes a minute at a load average of 20 on two
// cores: a ceiling with room for that (a quiet machine needs a few seconds).
test.describe.configure({ timeout: 180_000 });

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 390, height: 844 },
];

for (const pagePath of [...PAGE_PATHS, '/no-such-page']) {
  const island = hasIsland(pagePath);
  const budget = island ? ISLAND_PAGE_JS_BUDGET_BYTES : PLAIN_PAGE_JS_BUDGET_BYTES;
  const budgetTitle =
    pagePath === '/no-such-page' ? '' : `, JavaScript within ${budget / 1024} KiB brotli`;

  test(`${pagePath}: no WCAG 2.x A/AA violation at 1280 and 390 px${budgetTitle}`, async ({
    page,
  }) => {
    const scripts = new Set<string>();
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === E2E_BASE_URL && url.pathname.endsWith('.js')) scripts.add(url.pathname);
    });
    await page.setViewportSize(VIEWPORTS[0]!);
    await page.goto(pagePath);
    await expect(page.locator('html[data-ready]')).toBeAttached();
    // Once the page is idle: its islands have hydrated (data-ready), and the
    // browser has run out of work that could still fetch a script.
    await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve())));

    await test.step('JavaScript budget', async () => {
      if (pagePath === '/no-such-page') return;
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
      expect(brotli, 'JavaScript, brotli bytes').toBeLessThanOrEqual(budget);
      // A page without a form or search runs no React at all.
      if (!island) expect(await page.locator('astro-island').count()).toBe(0);
    });

    // After a resize the page's media queries fire their change events and
    // the page settles before the next frames.
    await test.step('axe at 1280 and 390 px', async () => {
      const violations: string[] = [];
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize({ width: viewport.width, height: viewport.height });
        await page.evaluate(
          () =>
            new Promise<void>((resolve) =>
              requestAnimationFrame(() => requestAnimationFrame(() => resolve())),
            ),
        );
        expect(await page.evaluate(() => window.innerWidth)).toBe(viewport.width);
        const results = await axe(page);
        for (const violation of results.violations)
          violations.push(
            `${viewport.name}: ${violation.id} (${violation.impact}) ${violation.nodes
              .slice(0, 3)
              .map((node) => node.target.join(' '))
              .join(', ')}`,
          );
      }
      expect(violations).toEqual([]);
    });
  });
}

import { expect, test, type Page } from '@playwright/test';
import { axe } from './support/axe.ts';
import {
  ISLAND_PAGE_JS_BUDGET_BYTES,
  PLAIN_PAGE_JS_BUDGET_BYTES,
  hasIsland,
  transferSize,
} from './support/budget.ts';
import { E2E_BASE_URL } from './support/env.ts';
import { freePort } from './support/free-port.ts';
import {
  attachServerLogsOnFailure,
  startSiteServer,
  tempDataDir,
  type SiteServer,
} from './support/lead-server.ts';
import { signInAsOwner } from './support/owner-session.ts';
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
 * script-timing.spec.ts. The owner's pages follow, signed in, on a server of
 * their own.
 */

// One axe run over a long page takes a minute at a load average of 20 on two
// cores: a ceiling with room for that (a quiet machine needs a few seconds).
test.describe.configure({ timeout: 180_000 });

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 390, height: 844 },
];

/**
 * axe at 1280 and 390 px. After a resize the page's media queries fire their
 * change events and the page settles before the next frames.
 */
async function expectAxeClean(page: Page): Promise<void> {
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
}

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

    await test.step('no service worker: none registered, none of its code loaded', async () => {
      // The owner's pages alone are an app (docs/operations.md, "Owner's pages").
      expect(await page.evaluate(() => navigator.serviceWorker.getRegistrations())).toHaveLength(0);
      for (const url of scripts) {
        const code = await (await fetch(`${E2E_BASE_URL}${url}`)).text();
        expect(code.includes('serviceWorker'), url).toBe(false);
      }
    });

    await test.step('axe at 1280 and 390 px', () => expectAxeClean(page));
  });
}

/**
 * The owner's pages a phone opens most (docs/operations.md, "Owner's
 * pages"): the sign-in page, then, signed in, the inbox, an enquiry, the
 * site page and an editor, on a server of their own with one owner and one
 * enquiry. Besides the JavaScript budget and axe, their stylesheets are their
 * own and small, and each stands still while its scripts
 * arrive: every script is held back until the page has painted, as on a
 * slow phone, and the layout shifts the page records from its first paint
 * to its load add up to at most 0.02 (the passkey step once appeared above
 * the painted e-mail form and pushed it down: 0.129 in Lighthouse).
 */
test.describe("the owner's pages", () => {
  test.describe.configure({ mode: 'default' });
  // eslint-disable-next-line no-empty-pattern
  test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

  const MAX_LAYOUT_SHIFT = 0.02;
  /**
   * What a page waits for before its first paint: the layout's stylesheet
   * (app/styles/base.css and admin.css) and a page's own (the site page's
   * previews of the home page's cards). They once took the public site's
   * whole app.css too: 7 KiB on the site page, 5 KiB on the others.
   */
  const OWNER_CSS_BUDGET_BYTES = 6 * 1024;
  /** Rules of the public site's header, footer and phone bar, which no owner's page shows. */
  const PUBLIC_ONLY_SELECTORS = ['.site-header', '.site-footer', '.phone-bar'];
  let server: SiteServer;
  let site: string;
  let data: ReturnType<typeof tempDataDir>;
  let leadPath: string;

  test.beforeAll(async () => {
    data = tempDataDir();
    const port = await freePort();
    site = `http://localhost:${port}`;
    server = await startSiteServer({
      PORT: String(port),
      SITE_URL: site,
      DATA_DIR: data.dir,
      LEAD_ACCEPT: 'stored',
    });
    const response = await fetch(`${server.url}/api/leads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Aroha Ngata',
        email: 'aroha@example.nz',
        phone: '021 555 0100',
        service: 'Windows',
        message: 'A cracked pane in the lounge window',
        source: 'contact_form',
      }),
    });
    expect(response.status).toBe(201);
    leadPath = `/admin/leads/${((await response.json()) as { id: string }).id}`;
  });

  test.afterAll(async () => {
    await server?.stop();
    data?.remove();
  });

  const OWNER_PAGES = [
    { name: 'the sign-in page', path: () => '/admin/sign-in', signedIn: false },
    { name: 'the inbox', path: () => '/admin', signedIn: true },
    { name: 'an enquiry', path: () => leadPath, signedIn: true },
    { name: 'the site page', path: () => '/admin/site', signedIn: true },
    { name: 'the notice editor', path: () => '/admin/site/notice', signedIn: true },
    { name: 'the alerts page', path: () => '/admin/notifications', signedIn: true },
    { name: 'the reports page', path: () => '/admin/reports', signedIn: true },
  ];

  for (const ownerPage of OWNER_PAGES) {
    test(`${ownerPage.name}: JavaScript and CSS within budget, still while its scripts arrive, axe clean`, async ({
      page,
    }) => {
      if (ownerPage.signedIn) await signInAsOwner(page.context(), server, 'aroha@glass.example.nz');
      await page.setViewportSize(VIEWPORTS[1]!);
      await page.addInitScript(() => {
        const shifts = { total: 0 };
        (window as unknown as { layoutShift: typeof shifts }).layoutShift = shifts;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number }>)
            shifts.total += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
      });
      let painted!: () => void;
      const firstPaint = new Promise<void>((resolve) => (painted = resolve));
      const scripts = new Set<string>();
      await page.route(
        (url) => url.origin === site && url.pathname.endsWith('.js'),
        async (route) => {
          scripts.add(new URL(route.request().url()).pathname);
          await firstPaint;
          await route.continue();
        },
      );
      await page.goto(`${site}${ownerPage.path()}`, { waitUntil: 'commit' });
      await page.waitForFunction(() =>
        performance
          .getEntriesByType('paint')
          .some((entry) => entry.name === 'first-contentful-paint'),
      );
      expect(new URL(page.url()).pathname, 'no redirect').toBe(ownerPage.path());
      painted();
      await page.waitForLoadState('load');
      await page.evaluate(
        () => new Promise<void>((resolve) => requestIdleCallback(() => resolve())),
      );

      await test.step('JavaScript budget', async () => {
        let brotli = 0;
        for (const url of scripts)
          brotli += (await transferSize(`${server.url}${url}`, 'br')).bytes;
        expect(brotli, 'JavaScript, brotli bytes').toBeLessThanOrEqual(PLAIN_PAGE_JS_BUDGET_BYTES);
      });

      await test.step('stylesheets: the owner pages’ own, not the public site’s', async () => {
        const sheets = await page
          .locator('link[rel="stylesheet"]')
          .evaluateAll((links) => links.map((link) => (link as HTMLLinkElement).href));
        let brotli = 0;
        for (const href of sheets) {
          const url = new URL(href);
          brotli += (await transferSize(`${server.url}${url.pathname}`, 'br')).bytes;
          const css = await (await fetch(`${server.url}${url.pathname}`)).text();
          for (const publicOnly of PUBLIC_ONLY_SELECTORS)
            expect(css.includes(publicOnly), `${url.pathname} holds ${publicOnly}`).toBe(false);
        }
        expect(brotli, 'stylesheets, brotli bytes').toBeLessThanOrEqual(OWNER_CSS_BUDGET_BYTES);
      });

      await test.step('still while its scripts arrive', async () => {
        const shift = await page.evaluate(
          () => (window as unknown as { layoutShift: { total: number } }).layoutShift.total,
        );
        expect(shift, 'layout shift from the first paint to the load').toBeLessThanOrEqual(
          MAX_LAYOUT_SHIFT,
        );
      });

      await test.step('axe at 1280 and 390 px', () => expectAxeClean(page));
    });
  }
});

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_BUILD_DIR } from './support/env.ts';
import { freePort } from './support/free-port.ts';
import {
  attachServerLogsOnFailure,
  startSiteServer,
  tempDataDir,
  type SiteServer,
} from './support/lead-server.ts';
import { signInAsOwner } from './support/owner-session.ts';

/**
 * The owner's pages as an installable app (docs/operations.md, "Owner's
 * pages"), in Chromium: the manifest every owner's page links, Chromium's
 * own verdict that the app installs, the service worker registered for
 * /admin and in charge of its pages, and the public site untouched: no
 * worker of it among its files.
 */

test.describe.configure({ mode: 'default', timeout: 180_000 });
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

let server: SiteServer;
let site: string;
let data: ReturnType<typeof tempDataDir>;

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
});

test.afterAll(async () => {
  await server?.stop();
  data?.remove();
});

test('the owner’s pages install as an app, with a worker for /admin', async ({ page }) => {
  await signInAsOwner(page.context(), server, 'aroha@glass.example.nz');
  await page.goto(`${site}/admin`);
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute(
    'href',
    '/admin/manifest.webmanifest',
  );
  await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute(
    'href',
    '/admin/icons/apple-touch-icon.png',
  );

  // Registered by the page, for the inbox and every page under it.
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(scope).toBe(`${site}/admin`);

  const cdp = await page.context().newCDPSession(page);
  const manifest = await cdp.send('Page.getAppManifest', {});
  expect(manifest.url).toBe(`${site}/admin/manifest.webmanifest`);
  expect(manifest.errors).toEqual([]);
  const parsed = JSON.parse(manifest.data ?? '{}') as Record<string, unknown>;
  expect(parsed).toMatchObject({
    start_url: '/admin',
    scope: '/admin',
    display: 'standalone',
    short_name: 'Enquiries',
    theme_color: '#0f4c63',
    background_color: '#f1f5f9',
  });
  // Chromium's own checks: the icons load, are PNGs of the sizes named, a
  // maskable one among them, the start page is in scope… All but one pass:
  // a Playwright context is a private window, where nothing installs.
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  expect(installabilityErrors.map((error) => error.errorId)).toEqual(['in-incognito']);
  for (const [icon, size] of [
    ['icon-192.png', 192],
    ['icon-512.png', 512],
    ['maskable-512.png', 512],
    ['apple-touch-icon.png', 180],
  ] as const) {
    const response = await page.request.get(`${site}/admin/icons/${icon}`);
    expect(response.headers()['content-type']).toBe('image/png');
    const png = await response.body();
    expect([png.readUInt32BE(16), png.readUInt32BE(20)], icon).toEqual([size, size]);
  }

  // Once active, the worker is in charge of the owner's pages from the
  // inbox down, and of nothing else.
  await page.reload();
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(
    `${site}/admin/sw.js`,
  );
  await page.goto(`${site}/admin/activity`);
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await page.goto(`${site}/about`);
  expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();

  // It caches nothing: the worker answers no request, so each owner's page
  // comes from the server (never stored, `no-store`).
  const worker = await (await page.request.get(`${site}/admin/sw.js`)).text();
  expect(worker).not.toMatch(/addEventListener\(["']fetch["']/);
  expect(worker).not.toMatch(/\bcaches\b/);
});

test('a stranger gets the app’s files and nothing else, and no worker registers', async ({
  page,
}) => {
  for (const file of ['/admin/sw.js', '/admin/manifest.webmanifest', '/admin/icons/icon-192.png']) {
    const response = await page.request.get(`${site}${file}`, { maxRedirects: 0 });
    expect(response.status(), file).toBe(200);
  }
  const worker = await page.request.get(`${site}/admin/sw.js`);
  expect(worker.headers()['content-type']).toBe('text/javascript; charset=utf-8');
  expect(worker.headers()['service-worker-allowed']).toBe('/admin');
  expect(worker.headers()['cache-control']).toBe('no-store');

  // The sign-in page links the manifest (add to the home screen before
  // signing in) but registers no worker for a stranger.
  await page.goto(`${site}/admin/sign-in`);
  await expect(page.locator('link[rel="manifest"]')).toHaveCount(1);
  await page.waitForLoadState('load');
  expect(await page.evaluate(() => navigator.serviceWorker.getRegistrations())).toHaveLength(0);
});

test('no file of the public site holds the worker', () => {
  const client = path.resolve(import.meta.dirname, '..', E2E_BUILD_DIR, 'client');
  const files = readdirSync(client, { recursive: true, encoding: 'utf8' }).filter((file) =>
    /\.(?:js|mjs|html)$/.test(file),
  );
  expect(files.length).toBeGreaterThan(10);
  const holding = files.filter((file) =>
    /notificationclick|showNotification/.test(readFileSync(path.join(client, file), 'utf8')),
  );
  expect(holding).toEqual([]);
});

import { expect, test } from '@playwright/test';
import { E2E_BUILD_ENV } from './support/env.ts';
import { OPEN_REDIRECT_PROBES, rawGet } from './support/open-redirect.ts';
import { allPagePaths } from './support/pages.ts';

const RETIRED_CATEGORIES = [
  'auto-glass',
  'auto',
  'automotive',
  'doors',
  'pool-fences',
  'retrofit',
  'security',
  'shower-installations',
  'insurance-claims',
];

test('the documented redirects are real 301s to /blog', async ({ request }) => {
  const sources = [
    '/blog/2',
    '/blog/3',
    '/blog/no-such-article',
    '/blog?page=2',
    '/blog?page=0',
    '/blog/category/windows?page=3',
    ...RETIRED_CATEGORIES.map((slug) => `/blog/category/${slug}`),
  ];
  for (const source of sources) {
    const response = await request.get(source, { maxRedirects: 0 });
    expect(response.status(), source).toBe(301);
    expect(new URL(response.headers().location!, 'http://x').pathname, source).toBe('/blog');
  }
  const pageOne = await request.get('/blog?page=1', { maxRedirects: 0 });
  expect(pageOne.status()).toBe(200);
});

test('a trailing slash redirects to the one address of the page, without a loop', async ({
  request,
}) => {
  const response = await request.get('/about/?x=1', { maxRedirects: 0 });
  expect(response.status()).toBe(301);
  expect(response.headers().location).toBe('/about?x=1');
  expect((await request.get('/about', { maxRedirects: 0 })).status()).toBe(200);
});

test('no path, in any encoding, redirects off the site (open redirect)', async ({ baseURL }) => {
  const origin = new URL(baseURL!).origin;
  // The probes, and the same tricks in front of the paths the server redirects.
  const targets = [
    ...OPEN_REDIRECT_PROBES,
    '//blog/2',
    '/\\blog/category/auto-glass',
    '//evil.example/blog/2/',
    '//evil.example/blog?page=2',
    '//evil.example/blog.data?page=2',
    '/%2F%2Fevil.example/blog/no-such-article',
  ];
  for (const target of targets) {
    const { status, location } = await rawGet(origin, target);
    if (location !== undefined) {
      expect(location, target).toMatch(/^\/(?![/\\])/);
      expect(new URL(location, `${origin}/a/b`).origin, `${target} → ${location}`).toBe(origin);
    }
    expect(status, target).toBeLessThan(500);
  }
});

test('unknown paths answer a real 404 with a helpful page', async ({ request, page }) => {
  for (const path of [
    '/no-such-page',
    '/services/no-such-service',
    '/glass-types/nope',
    '/a/b/c',
    // Folders of the build are not pages either.
    '/assets',
    '/images',
  ]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(404);
    const html = await response.text();
    for (const text of [
      'We couldn’t find that page',
      'href="/quote"',
      'href="tel:',
      'href="/services/windows"',
      'content="noindex',
    ]) {
      expect(html.includes(text), `${path} shows ${text}`).toBe(true);
    }
  }
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('We couldn’t find that page');
  await expect(page.locator('html[data-ready]')).toBeAttached();
});

test('security headers: CSP without arbitrary inline script, framing denied, nosniff, referrer and permissions policies', async ({
  request,
}) => {
  for (const path of ['/', '/about', '/no-such-page']) {
    const response = await request.get(path);
    const headers = response.headers();
    const csp = headers['content-security-policy']!;
    expect(csp, path).toBeTruthy();
    const scriptSrc = /script-src ([^;]+)/.exec(csp)?.[1] ?? '';
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).not.toContain("'unsafe-eval'");
    // Only the site itself, the hashes of the page's own inline scripts (a
    // page without an island has none) and the configured hosts.
    for (const source of scriptSrc.trim().split(/\s+/)) {
      expect(source, path).toMatch(/^'self'$|^'sha256-[A-Za-z0-9+/]+=*'$|^https:\/\/[a-z.]+$/);
    }
    if (path === '/') expect(scriptSrc).toContain("'sha256-");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    // Analytics is configured for this build, so its host is allowed; the map host too.
    expect(scriptSrc).toContain('https://www.googletagmanager.com');
    expect(csp).toMatch(/frame-src [^;]*https:\/\/www\.google\.com/);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['permissions-policy']).toContain('camera=()');
    expect(headers['x-powered-by']).toBeUndefined();
  }
});

test('the Permissions-Policy header names only features the browser knows, and no page complains about it', async ({
  page,
}) => {
  const complaints: string[] = [];
  page.on('console', (message) => {
    if (/Permissions-Policy|Feature-Policy/i.test(message.text())) complaints.push(message.text());
  });
  for (const path of ['/', '/contact', '/no-such-page']) {
    const response = await page.goto(path);
    const header = (await response!.allHeaders())['permissions-policy'] ?? '';
    const named = header.split(',').map((directive) => directive.trim().split('=')[0]!);
    expect(named.length, path).toBeGreaterThan(0);
    // FLoC's interest-cohort was withdrawn in 2022; other browsers call it unknown.
    expect(named, path).not.toContain('interest-cohort');
    const known = await page.evaluate(
      () =>
        (
          document as Document & { featurePolicy?: { features(): string[] } }
        ).featurePolicy?.features() ?? null,
    );
    if (known)
      expect(
        named.filter((feature) => !known.includes(feature)),
        path,
      ).toEqual([]);
  }
  expect(complaints).toEqual([]);
});

test('every inline script of a page is allowed by its CSP, and runs', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  for (const path of ['/', '/services/windows', '/no-such-page']) {
    await page.goto(path);
    await expect(page.locator('html[data-ready]')).toBeAttached();
  }
  expect(violations).toEqual([]);
});

test('caching: hashed assets immutable for a year, HTML revalidated', async ({ request }) => {
  const html = await (await request.get('/')).text();
  const asset = /(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  expect(asset).toBeTruthy();
  const assetResponse = await request.get(asset!);
  expect(assetResponse.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  const page = await request.get('/');
  expect(page.headers()['cache-control']).toBe('public, max-age=0, must-revalidate');
  expect(page.headers().etag).toBeTruthy();
});

test('responses are compressed with brotli or gzip', async ({ request }) => {
  const brotli = await request.get('/', { headers: { 'Accept-Encoding': 'br' } });
  expect(brotli.headers()['content-encoding']).toBe('br');
  const gzip = await request.get('/no-such-page', { headers: { 'Accept-Encoding': 'gzip' } });
  expect(gzip.headers()['content-encoding']).toBe('gzip');
});

test('/healthz says whether leads can be accepted, with the store state; /livez that it runs', async ({
  request,
}) => {
  const response = await request.get('/healthz');
  expect(response.status()).toBe(200);
  expect(response.headers()['cache-control']).toBe('no-store');
  expect(await response.json()).toEqual({
    ok: true,
    mode: 'stored',
    store: { kind: 'sqlite', state: 'up', writable: true },
    targets: 0,
    failedDeliveries: 0,
    // No BACKUP_URL here: nothing is backed up, so nothing was checked.
    backup: { state: 'off', verifiedAt: null, lagSeconds: null },
  });
  const live = await request.get('/livez');
  expect(live.status()).toBe(200);
  expect(await live.json()).toEqual({ ok: true });
});

test('sitemap.xml and robots.txt come from the route list', async ({ request }) => {
  const paths = await allPagePaths(request);
  for (const path of [
    '/',
    '/services',
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
    expect(paths).toContain(path);
  }
  const xml = await (await request.get('/sitemap.xml')).text();
  expect(xml).toContain(`<loc>${E2E_BUILD_ENV.SITE_URL}/</loc>`);
  expect(xml).not.toContain('/thank-you');
  const robots = await (await request.get('/robots.txt')).text();
  expect(robots).toContain(`Sitemap: ${E2E_BUILD_ENV.SITE_URL}/sitemap.xml`);
});

test('a browser follows the same redirects and gets the same 404', async ({ page }) => {
  for (const source of [
    '/blog/2',
    '/blog/category/automotive',
    '/blog?page=5',
    '/blog/unknown-post',
  ]) {
    await page.goto(source);
    await expect(page, source).toHaveURL(/\/blog$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Shared Resources for Your Home Needs',
    );
  }
  const response = await page.goto('/services/not-a-service');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('We couldn’t find that page');
});

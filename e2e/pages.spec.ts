import { expect, test, type APIRequestContext } from '@playwright/test';
import { E2E_BUILD_ENV } from './support/env.ts';
import { allPagePaths, PAGE_PATHS, UNLISTED_PATHS } from './support/pages.ts';

test('the pages checked one by one are the pages /sitemap.xml lists, and the thank-you pages', async ({
  request,
}) => {
  const listed = await allPagePaths(request);
  expect(listed.length).toBeGreaterThanOrEqual(30);
  expect([...PAGE_PATHS].sort()).toEqual(listed.sort());
});

/** Each page's <title>, for the check that no two pages share one. */
async function titleOf(request: APIRequestContext, path: string) {
  return /<title>([^<]+)<\/title>/.exec(await (await request.get(path)).text())?.[1];
}

for (const path of PAGE_PATHS) {
  test(`${path} is prerendered HTML with its title, description, canonical and share tags`, async ({
    request,
  }) => {
    const response = await request.get(path);
    expect(response.status()).toBe(200);
    const html = await response.text();
    // Prerendered: the content is in the HTML, not rendered later by JavaScript.
    expect(/<h1[^>]*>[^<]+/.test(html), 'an h1 with text').toBe(true);
    expect(/lorem ipsum|coming soon/i.test(html), 'placeholder text').toBe(false);
    expect(await titleOf(request, path)).toBeTruthy();
    const has = (text: string, what: string) => expect(html.includes(text), what).toBe(true);
    expect(/<meta name="description" content="[^"]{50,}"/.test(html), 'description').toBe(true);
    const canonical = `${E2E_BUILD_ENV.SITE_URL}${path}`.replace(/&/g, '&amp;');
    expect(
      new RegExp(`<link rel="canonical" href="${canonical.replace(/[.?]/g, '\\$&')}"/?>`).test(
        html,
      ),
      'canonical link',
    ).toBe(true);
    for (const tag of ['og:title', 'og:description', 'og:url', 'og:image', 'og:type']) {
      has(`property="${tag}"`, tag);
    }
    has('name="twitter:card"', 'twitter card');
    has('"@type":"HomeAndConstructionBusiness"', 'LocalBusiness JSON-LD');
  });
}

test('each page has a title of its own', async ({ request }) => {
  const titles = await Promise.all(PAGE_PATHS.map((path) => titleOf(request, path)));
  expect(new Set(titles).size).toBe(PAGE_PATHS.length);
});

test('a link loads the next prerendered page, which needs no React unless it has a form or search', async ({
  page,
}) => {
  await page.goto('/');
  await expect(page.locator('html[data-ready]')).toBeAttached();
  // The home page's call-back form is an island (React).
  expect(await page.locator('astro-island').count()).toBe(1);
  await page.locator('footer').getByRole('link', { name: 'About Us', exact: true }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/About/);
  await expect(page.locator('html[data-ready]')).toBeAttached();
  expect(await page.locator('astro-island').count()).toBe(0);
});

test('the thank-you pages are kept out of search results, the others are not', async ({
  request,
}) => {
  for (const path of UNLISTED_PATHS) {
    const thankYou = await (await request.get(path)).text();
    expect(thankYou, path).toMatch(/<meta name="robots" content="noindex, follow"\/?>/);
  }
  const about = await (await request.get('/about')).text();
  expect(about).not.toContain('noindex');
});

test('the structured business data is built from the business identity', async ({ request }) => {
  const html = await (await request.get('/contact')).text();
  const blocks = [...html.matchAll(/<script type="application\/ld\+json">([^<]+)<\/script>/g)].map(
    (match) => JSON.parse(match[1]!) as Record<string, unknown>,
  );
  const data = blocks.find((block) => block['@type'] === 'HomeAndConstructionBusiness')!;
  expect(data['@type']).toBe('HomeAndConstructionBusiness');
  expect(data.url).toBe(`${E2E_BUILD_ENV.SITE_URL}/`);
  expect(data.address).toMatchObject({ addressLocality: 'Tauranga', postalCode: '3110' });
  expect(data.areaServed).toEqual(
    ['Tauranga', 'Mount Maunganui', 'Papamoa', 'Te Puke', 'Katikati'].map((name) => ({
      '@type': 'City',
      name,
    })),
  );
  expect(data.aggregateRating).toMatchObject({ reviewCount: 47, ratingValue: 5 });
});

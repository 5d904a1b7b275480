import { expect, test, type Page } from '@playwright/test';
import { E2E_BUILD_ENV } from './support/env.ts';
import { ready } from './support/pages.ts';

/** docs/blog.md: the blog list, its category routes and the articles. */

/** docs/blog.md#articles: list order, with the reading times. */
const ARTICLES = [
  { slug: 'double-pane-window-repair', date: '15 January 2024', minutes: 8 },
  { slug: 'emergency-board-up-weather-preparation', date: '10 January 2024', minutes: 9 },
  { slug: 'replace-entire-window-fact-or-fiction', date: '5 January 2024', minutes: 10 },
  { slug: 'clean-cloudy-glass-windows', date: '28 December 2023', minutes: 12 },
  { slug: 'energy-efficient-glass-benefits', date: '20 December 2023', minutes: 15 },
  { slug: 'remove-scratches-glass-stove-tops', date: '15 December 2023', minutes: 14 },
];
const SHORT_DATES = [
  '15 Jan 2024',
  '10 Jan 2024',
  '5 Jan 2024',
  '28 Dec 2023',
  '20 Dec 2023',
  '15 Dec 2023',
];

const cards = (page: Page) => page.locator('.post-grid article');
const cardTitles = (page: Page) => page.locator('.post-grid article h3');
const chips = (page: Page) => page.getByRole('navigation', { name: 'Filter articles by category' });

test.describe('blog list', () => {
  test('heading, search, chips, sidebar, cards with short dates, and the trust block', async ({
    page,
  }) => {
    await page.goto('/blog');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Shared Resources for Your Home Needs',
    );
    const search = page.getByRole('search');
    await expect(search.getByRole('searchbox')).toHaveAttribute(
      'placeholder',
      'Enter here to search blogs',
    );
    await expect(search.getByRole('button', { name: 'Search' })).toBeVisible();
    await expect(chips(page).getByRole('link')).toHaveText([
      'All',
      'Windows',
      'Energy Efficiency',
      'Emergency Services',
      'Business Glass',
      'Tips & DIY',
      'Kitchen Glass',
    ]);
    await expect(chips(page).getByRole('link', { name: 'All' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(page.getByRole('heading', { level: 2, name: 'Blog Categories' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'All Blogs' })).toBeVisible();

    await expect(cards(page)).toHaveCount(6);
    await expect(page.locator('.post-grid article time')).toHaveText(SHORT_DATES);
    const first = cards(page).first();
    await expect(first.locator('img')).toHaveAttribute(
      'src',
      '/images/blog/double-pane-window-repair.svg',
    );
    await expect(first.locator('img')).toHaveAttribute('width', '1200');
    await expect(first.getByRole('link', { name: 'Windows' })).toHaveAttribute(
      'href',
      '/blog/category/windows',
    );
    await expect(first.getByRole('heading', { level: 3 })).toHaveText(/^Double-Pane Window Repair/);
    await expect(first.getByText(/^Fog between the panes/)).toBeVisible();
    await expect(
      first.getByRole('link', { name: /^Learn more about Double-Pane/ }),
    ).toHaveAttribute('href', '/blog/double-pane-window-repair');
    // docs/blog.md#categories: no automotive category link on any card.
    await expect(page.locator('.post-grid a[href*="auto"]')).toHaveCount(0);

    const trust = page.locator('.cta-banner');
    await expect(trust.getByRole('heading', { name: 'Service You Can Trust!' })).toBeVisible();
    await expect(trust.getByText('Let us know how we can help you today.')).toBeVisible();
    await expect(trust.getByRole('link', { name: 'Request an Estimate' })).toHaveAttribute(
      'href',
      '/quote',
    );
  });

  test('search filters on every keystroke, shows the empty message, and works on submit', async ({
    page,
  }) => {
    await ready(page, '/blog');
    const input = page.getByRole('searchbox', { name: 'Search blog articles' });
    await input.pressSequentially('clou');
    await expect(cardTitles(page)).toHaveText([/^How to Clean Cloudy Glass Windows/]);
    await input.pressSequentially('dx');
    await expect(cards(page)).toHaveCount(0);
    await expect(page.getByText('No articles found matching your criteria.')).toBeVisible();
    await input.fill('');
    await expect(cards(page)).toHaveCount(6);

    // Excerpt matches count too, case-insensitively.
    await input.fill('FINGERNAIL');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(cardTitles(page)).toHaveText([/^How to Remove Scratches/]);
    await expect(page).toHaveURL(/\/blog$/);
    await expect(page.getByRole('status')).toHaveText('1 of 6 articles match “FINGERNAIL”');
  });

  test('chips navigate to the category routes and All goes back to /blog', async ({ page }) => {
    await ready(page, '/blog');
    await chips(page).getByRole('link', { name: 'Tips & DIY' }).click();
    await expect(page).toHaveURL(/\/blog\/category\/tips-&-diy$/);
    await expect(
      page.getByRole('heading', { level: 2, name: 'Tips & DIY Articles' }),
    ).toBeVisible();
    await expect(cards(page)).toHaveCount(3);
    await expect(chips(page).getByRole('link', { name: 'Tips & DIY' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    await chips(page).getByRole('link', { name: 'Kitchen Glass' }).click();
    await expect(page).toHaveURL(/\/blog\/category\/kitchen-glass$/);
    await expect(
      page.getByRole('heading', { level: 2, name: 'Kitchen Glass Articles' }),
    ).toBeVisible();
    await expect(cardTitles(page)).toHaveText([/^How to Remove Scratches/]);

    await chips(page).getByRole('link', { name: 'All' }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(page.getByRole('heading', { level: 2, name: 'All Blogs' })).toBeVisible();
    await expect(cards(page)).toHaveCount(6);

    // The sidebar leads to the same routes.
    await page
      .getByRole('complementary')
      .getByRole('link', { name: /^Emergency Services/ })
      .click();
    await expect(page).toHaveURL(/\/blog\/category\/emergency-services$/);
    await expect(cards(page)).toHaveCount(1);
  });

  test('a search carried to a category keeps filtering there', async ({ page }) => {
    await ready(page, '/blog');
    await page.getByRole('searchbox').fill('glass');
    const matching = await cards(page).count();
    expect(matching).toBeGreaterThan(1);
    await chips(page).getByRole('link', { name: 'Windows' }).click();
    await expect(page).toHaveURL(/\/blog\/category\/windows\?q=glass$/);
    await expect(page.getByRole('searchbox')).toHaveValue('glass');
    await expect(page.getByRole('heading', { level: 2, name: 'Windows Articles' })).toBeVisible();
    // docs/blog.md#search: the search matches the title or the excerpt.
    const texts = await cards(page).evaluateAll((articles) =>
      articles.map((article) =>
        [article.querySelector('h3'), article.querySelector('.post-card__excerpt')]
          .map((element) => element?.textContent ?? '')
          .join(' ')
          .toLowerCase(),
      ),
    );
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) expect(text).toContain('glass');
  });

  test('every category route is prerendered with its heading; an unknown one shows all', async ({
    page,
    request,
  }) => {
    for (const [slug, heading, count] of [
      ['windows', 'Windows Articles', 4],
      ['energy-efficiency', 'Energy Efficiency Articles', 2],
      ['emergency-services', 'Emergency Services Articles', 1],
      ['business-glass', 'Business Glass Articles', 2],
      ['tips-&-diy', 'Tips & DIY Articles', 3],
      ['kitchen-glass', 'Kitchen Glass Articles', 1],
    ] as const) {
      const response = await request.get(`/blog/category/${slug}`);
      expect(response.status(), slug).toBe(200);
      // Prerendered: answered from the file, with its hash-based CSP and revalidation.
      expect(response.headers()['cache-control'], slug).toBe('public, max-age=0, must-revalidate');
      const html = await response.text();
      expect(html, slug).toContain(`>${heading.replace('&', '&amp;')}</h2>`);
      expect(html.match(/<article class="card post-card"/g) ?? [], slug).toHaveLength(count);
    }
    // docs/blog.md#categories: case-insensitive, hyphens read as spaces.
    await page.goto('/blog/category/Energy-Efficiency');
    await expect(
      page.getByRole('heading', { level: 2, name: 'Energy Efficiency Articles' }),
    ).toBeVisible();
    await page.goto('/blog/category/gardening');
    await expect(page.getByRole('heading', { level: 2, name: 'All Blogs' })).toBeVisible();
    await expect(cards(page)).toHaveCount(6);
  });
});

test.describe('blog search without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the form GETs ?q= and the server lists the matching articles', async ({ page }) => {
    await page.goto('/blog');
    await page.getByRole('searchbox').fill('storm');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/\/blog\?q=storm$/);
    await expect(page.getByRole('searchbox')).toHaveValue('storm');
    await expect(cardTitles(page)).toHaveText([/^Emergency Board-Up/]);

    await page.goto('/blog?q=no+such+words');
    await expect(page.getByText('No articles found matching your criteria.')).toBeVisible();

    // On a category page the search stays within the category.
    await page.goto('/blog/category/windows');
    await page.getByRole('searchbox').fill('cloudy');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/\/blog\/category\/windows\?q=cloudy$/);
    await expect(cardTitles(page)).toHaveText([/^How to Clean Cloudy/]);
  });
});

test.describe('article page', () => {
  test('parts in the documented order: breadcrumb, title, author, reading time, date, chips, cover, body, help box, CTA, related, previous/next', async ({
    page,
  }) => {
    await page.goto('/blog/clean-cloudy-glass-windows');
    const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect(breadcrumb.getByRole('listitem')).toHaveText([
      'Home',
      'Blog',
      'Tips & DIY',
      "How to Clean Cloudy Glass Windows (and When Cleaning Won't Work)",
    ]);
    await expect(breadcrumb.getByRole('link', { name: 'Tips & DIY' })).toHaveAttribute(
      'href',
      '/blog/category/tips-&-diy',
    );
    await expect(breadcrumb.locator('[aria-current="page"]')).toHaveText(/^How to Clean Cloudy/);

    const h1 = page.getByRole('heading', { level: 1 });
    await expect(h1).toHaveText("How to Clean Cloudy Glass Windows (and When Cleaning Won't Work)");
    const meta = page.locator('.article-meta');
    await expect(meta).toContainText('By Our glazing team');
    await expect(meta).toContainText('12 min read');
    await expect(meta.locator('time')).toHaveText('28 December 2023');
    await expect(meta.locator('time')).toHaveAttribute('datetime', '2023-12-28');
    await expect(
      page.getByRole('list', { name: 'Article categories' }).getByRole('link'),
    ).toHaveText(['Tips & DIY', 'Windows']);
    const cover = page.locator('img.article-cover');
    await expect(cover).toHaveAttribute('loading', 'eager');
    await expect(cover).toHaveAttribute('width', '1200');
    await expect(cover).toHaveAttribute('height', '630');

    // The page's parts, top to bottom.
    const order = await page.evaluate(() => {
      const parts = [
        'nav[aria-label="Breadcrumb"]',
        'h1',
        '.article-meta',
        '.article-header .chip-list',
        'img.article-cover',
        '.article-body',
        '.help-now',
        '.cta-banner',
        '.related-articles',
        '.article-pager',
      ];
      return parts.map((selector) => {
        const element = document.querySelector(selector);
        return element ? element.getBoundingClientRect().top + window.scrollY : -1;
      });
    });
    expect(order.every((top) => top >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);

    // docs/blog.md#need-help-now-box: the help box follows min(3,
    // floor(paragraphs / 3)) top-level paragraphs.
    const placement = await page.evaluate(() => {
      const box = document.querySelector('.help-now')!;
      const paragraphs = [...document.querySelectorAll('.article-body > p')];
      const before = paragraphs.filter(
        (p) => p.compareDocumentPosition(box) & Node.DOCUMENT_POSITION_FOLLOWING,
      );
      return { total: paragraphs.length, before: before.length };
    });
    expect(placement.before).toBe(Math.min(3, Math.floor(placement.total / 3)));
    const help = page.getByRole('complementary', { name: 'Need help now?' });
    await expect(help.getByRole('link', { name: /quote/i })).toHaveAttribute('href', '/quote');
    await expect(help.getByRole('link', { name: /^Call / })).toHaveAttribute('href', /^tel:\+64/);

    // The body links to /quote.
    await expect(page.locator('.article-body a[href="/quote"]').first()).toBeVisible();
  });

  test('up to three related articles share a category, with at most two categories each', async ({
    page,
  }) => {
    // Every article's categories, from the list (no article has a hidden one).
    await page.goto('/blog');
    const categoriesOf = new Map<string, string[]>();
    for (const card of await cards(page).all()) {
      const path = await card.locator('h3 a').getAttribute('href');
      categoriesOf.set(path!, await card.locator('.chip').allInnerTexts());
    }
    expect(categoriesOf.size).toBe(6);

    for (const { slug } of ARTICLES) {
      const own = categoriesOf.get(`/blog/${slug}`)!;
      await page.goto(`/blog/${slug}`);
      const related = page.locator('.related-articles article');
      const count = await related.count();
      expect(count, slug).toBeGreaterThan(0);
      expect(count, slug).toBeLessThanOrEqual(3);
      for (const card of await related.all()) {
        const path = (await card.locator('h3 a').getAttribute('href'))!;
        expect(path, slug).not.toBe(`/blog/${slug}`);
        const shown = await card.locator('.chip').allInnerTexts();
        expect(shown.length, `${slug} → ${path}`).toBeLessThanOrEqual(2);
        const theirs = categoriesOf.get(path)!;
        expect(
          theirs.some((category) => own.includes(category)),
          `${slug} → ${path}`,
        ).toBe(true);
      }
    }
  });

  test('previous and next follow the list order, and every article shows its reading time and date', async ({
    page,
  }) => {
    await ready(page, `/blog/${ARTICLES[0]!.slug}`);
    for (const [index, article] of ARTICLES.entries()) {
      await expect(page).toHaveURL(new RegExp(`/blog/${article.slug}$`));
      await expect(page.locator('.article-meta')).toContainText(`${article.minutes} min read`);
      await expect(page.locator('.article-meta time')).toHaveText(article.date);
      const pager = page.getByRole('navigation', { name: 'More articles' });
      const previous = pager.getByRole('link', { name: /^Previous article/ });
      const next = pager.getByRole('link', { name: /^Next article/ });
      if (index === 0) await expect(previous).toHaveCount(0);
      else await expect(previous).toHaveAttribute('href', `/blog/${ARTICLES[index - 1]!.slug}`);
      if (index === ARTICLES.length - 1) {
        await expect(next).toHaveCount(0);
      } else {
        const target = `/blog/${ARTICLES[index + 1]!.slug}`;
        await expect(next).toHaveAttribute('href', target);
        // A click that lands while React is still replacing the pager is lost
        // (seen once in a quiet full run): click again until the address
        // changes, never once it has. The link is found by its address, so a
        // click can never land on the next page's pager instead.
        await expect(async () => {
          if (new URL(page.url()).pathname !== target) {
            await pager.locator(`a[href="${target}"]`).click({ timeout: 5_000 });
          }
          await expect(page).toHaveURL(new RegExp(`${target}$`), { timeout: 5_000 });
        }).toPass({ timeout: 60_000 });
      }
    }
    // And back again.
    await page
      .getByRole('navigation', { name: 'More articles' })
      .getByRole('link', { name: /^Previous article/ })
      .click();
    await expect(page).toHaveURL(/\/blog\/energy-efficient-glass-benefits$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^The Benefits of Energy/);
  });

  // Plain links: they work whether or not any script has run.
  test('internal links in the body lead to the page', async ({ page }) => {
    await page.goto('/blog/double-pane-window-repair');
    await page.locator('.article-body a[href="/quote"]').first().click();
    await expect(page).toHaveURL(/\/quote$/);
    await expect(page.locator('#quote-form-section').getByRole('heading', { level: 2 })).toHaveText(
      'Request a Free Quote',
    );
  });

  test('unknown slugs redirect to /blog: 301 on the server and in the browser', async ({
    page,
    request,
  }) => {
    const response = await request.get('/blog/no-such-article', { maxRedirects: 0 });
    expect(response.status()).toBe(301);
    expect(response.headers().location).toBe('/blog');

    await page.goto('/blog/not-an-article');
    await expect(page).toHaveURL(/\/blog$/);
    await expect(page.getByRole('heading', { level: 2, name: 'All Blogs' })).toBeVisible();
  });
});

test.describe('discoverability', () => {
  test('BlogPosting and BreadcrumbList JSON-LD, and Open Graph article tags', async ({ page }) => {
    await page.goto('/blog/emergency-board-up-weather-preparation');
    const blocks = await page
      .locator('script[type="application/ld+json"]')
      .evaluateAll((scripts) => scripts.map((script) => JSON.parse(script.textContent ?? '')));
    const url = `${E2E_BUILD_ENV.SITE_URL}/blog/emergency-board-up-weather-preparation`;
    const posting = blocks.find((block) => block['@type'] === 'BlogPosting');
    expect(posting).toMatchObject({
      '@context': 'https://schema.org',
      headline: 'Emergency Board-Up and Storm Preparation for Homes and Shopfronts',
      datePublished: '2024-01-10',
      url,
      mainEntityOfPage: { '@type': 'WebPage', '@id': url },
      image: {
        url: `${E2E_BUILD_ENV.SITE_URL}/images/blog/emergency-board-up-weather-preparation.svg`,
      },
      author: { '@id': `${E2E_BUILD_ENV.SITE_URL}/#business` },
      publisher: { '@id': `${E2E_BUILD_ENV.SITE_URL}/#business` },
      articleSection: 'Emergency Services',
    });
    expect(posting.description.length).toBeGreaterThan(50);
    expect(posting.wordCount).toBeGreaterThan(1600);
    const breadcrumb = blocks.find((block) => block['@type'] === 'BreadcrumbList');
    expect(
      breadcrumb.itemListElement.map((item: { position: number; name: string; item: string }) => [
        item.position,
        item.name,
        item.item,
      ]),
    ).toEqual([
      [1, 'Home', `${E2E_BUILD_ENV.SITE_URL}/`],
      [2, 'Blog', `${E2E_BUILD_ENV.SITE_URL}/blog`],
      [3, 'Emergency Services', `${E2E_BUILD_ENV.SITE_URL}/blog/category/emergency-services`],
      [4, 'Emergency Board-Up and Storm Preparation for Homes and Shopfronts', url],
    ]);

    const property = (name: string) =>
      page
        .locator(`meta[property="${name}"]`)
        .evaluateAll((metas) => metas.map((meta) => meta.getAttribute('content')));
    expect(await property('og:type')).toEqual(['article']);
    expect(await property('article:published_time')).toEqual(['2024-01-10']);
    expect(await property('article:section')).toEqual(['Emergency Services']);
    expect(await property('article:tag')).toEqual(['Emergency Services', 'Business Glass']);
    expect(await property('og:image')).toEqual([`${E2E_BUILD_ENV.SITE_URL}/og-image.png`]);
  });

  test('the RSS feed is valid XML listing the six articles, and every blog page links to it', async ({
    page,
    request,
  }) => {
    const response = await request.get('/blog/rss.xml');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/xml/);
    const xml = await response.text();
    await page.goto('/blog');
    const feed = await page.evaluate((source) => {
      const doc = new DOMParser().parseFromString(source, 'application/xml');
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        version: doc.documentElement.getAttribute('version'),
        links: [...doc.querySelectorAll('item > link')].map((link) => link.textContent),
        dates: [...doc.querySelectorAll('item > pubDate')].map((date) => date.textContent),
        categories: [...doc.querySelectorAll('item > category')].map((c) => c.textContent),
      };
    }, xml);
    expect(feed.error).toBeNull();
    expect(feed.version).toBe('2.0');
    expect(feed.links).toEqual(
      ARTICLES.map((article) => `${E2E_BUILD_ENV.SITE_URL}/blog/${article.slug}`),
    );
    expect(feed.dates[0]).toBe('Mon, 15 Jan 2024 00:00:00 GMT');
    expect(feed.categories).toContain('Tips & DIY');

    for (const path of [
      '/blog',
      '/blog/category/windows',
      '/blog/category/tips-&-diy',
      '/blog/double-pane-window-repair',
    ]) {
      const html = await (await request.get(path)).text();
      expect(html, path).toMatch(
        /<link rel="alternate" type="application\/rss\+xml" title="[^"]+" href="\/blog\/rss\.xml"\/?>/,
      );
    }
  });

  test('every blog route is in sitemap.xml', async ({ request }) => {
    const xml = await (await request.get('/sitemap.xml')).text();
    const site = E2E_BUILD_ENV.SITE_URL;
    for (const path of [
      '/blog',
      ...ARTICLES.map((article) => `/blog/${article.slug}`),
      '/blog/category/windows',
      '/blog/category/energy-efficiency',
      '/blog/category/emergency-services',
      '/blog/category/business-glass',
      '/blog/category/tips-&amp;-diy',
      '/blog/category/kitchen-glass',
    ]) {
      expect(xml, path).toContain(`<loc>${site}${path}</loc>`);
    }
  });

  test('no Markdown parser and no article text in the browser JavaScript', async ({
    page,
    request,
  }) => {
    const scripts = new Set<string>();
    page.on('response', (response) => {
      if (response.url().endsWith('.js')) scripts.add(response.url());
    });
    await ready(page, '/blog');
    await ready(page, '/blog/double-pane-window-repair');
    await page.getByRole('link', { name: /^Next article/ }).click();
    await expect(page).toHaveURL(/emergency-board-up/);
    expect(scripts.size).toBeGreaterThan(3);
    for (const url of scripts) {
      const source = await (await request.get(url)).text();
      for (const needle of ['micromark', 'mdast', 'remark', 'The proper name for the glass']) {
        expect(source.includes(needle), `${url} contains ${needle}`).toBe(false);
      }
    }
  });
});

import { expect, test } from '@playwright/test';
import { business, telHref } from '../app/content/business.ts';
import { home } from '../app/content/home.ts';
// The suite builds with an empty store: the shipped content.
import { defaultOffers as offers } from '../app/content/offers.ts';
import { services } from '../app/content/services.ts';
import { defaultTestimonials as testimonials } from '../app/content/testimonials.ts';
import { ready } from './support/pages.ts';

/**
 * The home page, docs/screens.md#home-page items 1-12: texts, figures, links
 * and order, the offers and testimonials of docs/business-rules.md, the map, the image
 * fallback, the page without JavaScript and its structured data. The
 * carousels' behaviour is in e2e/carousel.spec.ts.
 */

const REVIEW_LIMIT = 150;

/**
 * The home page as served, read from one load: the order and sections 1 to 7
 * only read what the page shows, so each is a step of one test rather than a
 * test with its own load of the site's heaviest page, with its pictures and
 * scripts. A failure still names its step.
 */
test('the twelve sections in the documented order, then sections 1 to 7, from one load', async ({
  page,
}) => {
  await page.goto('/');

  await test.step('the twelve sections come in the documented order', async () => {
    const order = await page
      .locator('main > :not(script, style)')
      .evaluateAll((sections) =>
        sections.map(
          (section) =>
            (section as HTMLElement).dataset.homeSection ?? section.getAttribute('aria-labelledby'),
        ),
      );
    expect(order).toEqual([
      'hero',
      'call-back',
      'grey',
      'local-experts',
      'trust',
      'banner-emergency',
      'offers',
      'testimonials',
      'banner-quote',
      'glass-types',
      'service-areas',
      'final',
    ]);
    const headings = await page.locator('main h1, main h2').allInnerTexts();
    expect(headings.map((heading) => heading.replace(/\s+/g, ' ').trim())).toEqual([
      'Glass Repairs, Replacement, and Installation',
      'Let Us Call You',
      home.localExperts.heading,
      'Reasons to Trust',
      home.ctaBanners[0].heading,
      'Special Offers',
      home.testimonialsSection.heading,
      home.ctaBanners[1].heading,
      'Premium Glass Types We Install',
      'Serving Tauranga and Surrounding Areas',
      home.finalBanner.heading,
    ]);
  });

  await test.step('1. hero: headline, intro, trust badge (47 reviews, 5/5), Request an Estimate', async () => {
    const hero = page.locator('[data-home-section="hero"]');
    await expect(hero.getByRole('heading', { level: 1 })).toHaveText(
      'Glass Repairs, Replacement, and Installation',
    );
    await expect(hero).toContainText(home.hero.intro);
    await expect(hero.locator('.trust-badge')).toHaveText('5/5 from 47 customer reviews');
    await expect(hero.getByRole('link', { name: 'Request an Estimate' })).toHaveAttribute(
      'href',
      '/quote',
    );
    await expect(hero.locator(`a[href="${telHref}"]`)).toBeVisible();
    // The LCP image loads first, not lazily.
    const image = hero.locator('img');
    await expect(image).toHaveAttribute('src', '/images/hero.svg');
    await expect(image).toHaveAttribute('loading', 'eager');
    await expect(image).toHaveAttribute('fetchpriority', 'high');
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  });

  await test.step('2-3. Let Us Call You, with the phone until the form lands; then the empty grey section', async () => {
    const callBack = page.locator('section#call-back');
    await expect(callBack.getByRole('heading', { level: 2 })).toHaveText('Let Us Call You');
    await expect(callBack).toContainText(home.callBack.intro);
    await expect(callBack.locator(`a[href="${telHref}"]`)).toHaveText(
      `Call ${business.phone.display}`,
    );

    const grey = page.locator('[data-home-section="grey"]');
    await expect(grey).toHaveAttribute('aria-hidden', 'true');
    await expect(grey).toHaveText('');
    expect((await grey.boundingBox())!.height).toBeGreaterThan(10);
    expect(await grey.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(
      'rgb(241, 245, 249)',
    );
  });

  await test.step('4. local experts: doors and windows links, nine service cards with Learn More', async () => {
    const section = page.locator('[data-home-section="local-experts"]');
    await expect(section.locator('p a[href="/services/doors"]')).toBeVisible();
    await expect(section.locator('p a[href="/services/windows"]')).toBeVisible();
    const slides = section.locator('[aria-roledescription="slide"]');
    await expect(slides).toHaveCount(9);
    for (const [index, service] of services.entries()) {
      const slide = slides.nth(index);
      await expect(slide.getByRole('heading', { level: 3 })).toHaveText(service.title);
      await expect(slide).toContainText(service.blurb);
      await expect(slide.locator('img')).toHaveAttribute('src', service.images[0]!.src);
      await expect(slide.locator('a', { hasText: 'Learn More' })).toHaveAttribute(
        'href',
        service.path,
      );
    }
  });

  await test.step('5. Reasons to Trust: four boxes with every documented item', async () => {
    const section = page.locator('[data-home-section="trust"]');
    await expect(section.getByRole('heading', { level: 3 })).toHaveText([
      'The Advantage Plan',
      'Our Workmanship Promise',
      'Help With Insurance Claims',
      'Transparent Pricing',
    ]);
    await expect(section.locator('.trust-box--advantage-plan li')).toHaveText([
      'Priority scheduling',
      '24/7 emergency service',
      '15% discount on future repairs',
      'Breakage guarantee',
      'Transferable agreements',
      'Multi-property coverage',
    ]);
    await expect(section.locator('.trust-box--workmanship')).toContainText('within one year');
    await expect(section.locator('.trust-box--insurance')).toContainText('insurer');
    await expect(section.locator('.trust-box--pricing')).toContainText(
      'Our final estimate is the final price',
    );
    await expect(section.locator('.trust-box--pricing')).toContainText('need your approval');
  });

  await test.step('6, 9, 12. the call-to-action banners lead to /quote and the phone', async () => {
    for (const [id, banner] of [
      ['banner-emergency', home.ctaBanners[0]],
      ['banner-quote', home.ctaBanners[1]],
    ] as const) {
      const section = page.locator(`section[aria-labelledby="${id}"]`);
      await expect(section.getByRole('heading')).toHaveText(banner.heading);
      await expect(section).toContainText(banner.text);
      await expect(section.getByRole('link', { name: banner.buttonText })).toHaveAttribute(
        'href',
        banner.buttonPath,
      );
      await expect(section.locator(`a[href="${telHref}"]`)).toBeVisible();
    }
    const final = page.locator('[data-home-section="final"]');
    await expect(final.getByRole('link', { name: 'Request an Estimate' })).toHaveAttribute(
      'href',
      '/quote',
    );
    await expect(final.locator(`a[href="${telHref}"]`)).toHaveText(home.finalBanner.phoneLinkText);
  });

  await test.step('7. Special Offers: the five offers with all their fields, the featured one ringed', async () => {
    const section = page.locator('[data-home-section="offers"]');
    const cards = section.locator('.offer-card');
    await expect(cards).toHaveCount(5);
    const expected = [
      { date: '30 September 2025', iso: '2025-09-30', href: '/quote' },
      { date: '31 December 2025', iso: '2025-12-31', href: '/quote' },
      { date: '15 November 2025', iso: '2025-11-15', href: '/services/windows' },
      { date: '31 October 2025', iso: '2025-10-31', href: telHref },
      { date: '31 January 2026', iso: '2026-01-31', href: '/services/splashbacks' },
    ];
    for (const [index, offer] of offers.entries()) {
      const card = cards.nth(index);
      await expect(card.getByRole('heading', { level: 3 })).toHaveText(offer.title);
      await expect(card.locator('.offer-card__discount')).toHaveText(offer.discount);
      await expect(card).toContainText(offer.description);
      await expect(card.locator('.offer-card__valid')).toHaveText(
        `Valid until ${expected[index]!.date}`,
      );
      await expect(card.locator('time')).toHaveAttribute('datetime', expected[index]!.iso);
      await expect(card.locator('.offer-card__terms')).toHaveText(`Terms: ${offer.terms}`);
      // Offers past their date stay listed (docs/business-rules.md#offers) but
      // say so, and are not 'claimed'.
      const ended = Date.now() > Date.parse(`${expected[index]!.iso}T23:59:59+13:00`);
      await expect(card.locator('.offer-card__ended')).toHaveCount(ended ? 1 : 0);
      const cta = card.locator('.offer-card__action a');
      await expect(cta).toContainText(
        ended && offer.ctaLink === '/quote' ? 'Ask About Current Pricing' : offer.ctaText,
      );
      await expect(cta).toHaveAttribute('href', expected[index]!.href);
    }
    await expect(cards.nth(1)).toContainText('Minimum order $1,500');
    await expect(cards.nth(2)).toContainText('orders over $3,000');

    // docs/business-rules.md#offers: the featured card gets a highlight ring;
    // only the first is featured.
    await expect(section.locator('.offer-card--featured')).toHaveCount(1);
    await expect(cards.first()).toHaveClass(/offer-card--featured/);
    await expect(cards.first()).toContainText('Featured offer');
    const ring = await cards.first().evaluate((card) => getComputedStyle(card).boxShadow);
    expect(ring).toContain('rgb(194, 65, 12)');
  });
});

test('8. Testimonials: seven, initials and 5 stars, long reviews cut at 150 with Read more / Read less', async ({
  page,
}) => {
  // Keep the first card in view while it is read.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await ready(page, '/');
  const section = page.locator('[data-home-section="testimonials"]');
  const cards = section.locator('.testimonial-card');
  await expect(cards).toHaveCount(7);
  for (const [index, testimonial] of testimonials.entries()) {
    const card = cards.nth(index);
    await expect(card.locator('.testimonial-card__name')).toHaveText(testimonial.name);
    await expect(card).toContainText(`${testimonial.role}, ${testimonial.location}`);
    await expect(card.locator('[role="img"]')).toHaveAttribute('aria-label', 'Rated 5 out of 5');
    await expect(card.locator('.testimonial-card__avatar')).toHaveText(
      testimonial.name
        .split(' ')
        .map((word) => word[0])
        .join(''),
    );
    const quote = card.locator('blockquote');
    if (testimonial.review.length > REVIEW_LIMIT) {
      const cut = `${testimonial.review.slice(0, REVIEW_LIMIT).trimEnd()}…`;
      expect(await quote.innerText()).toBe(cut);
      await expect(card.locator('.testimonial-card__toggle')).toHaveText('Read more');
    } else {
      expect(await quote.innerText()).toBe(testimonial.review);
      await expect(card.locator('.testimonial-card__toggle')).toHaveCount(0);
    }
  }

  const first = cards.first();
  const toggle = first.locator('.testimonial-card__toggle');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(toggle).toHaveText('Read less');
  expect(await first.locator('blockquote').innerText()).toBe(testimonials[0].review);
  await toggle.click();
  await expect(toggle).toHaveText('Read more');
  expect(await first.locator('blockquote').innerText()).toMatch(/…$/);
});

test('10. Premium Glass Types: the two glass types with their figures and links', async ({
  page,
}) => {
  await ready(page, '/');
  const section = page.locator('[data-home-section="glass-types"]');
  const cards = section.locator('.glass-card');
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0).locator('.glass-card__figure')).toHaveText(['70% light transmission']);
  await expect(cards.nth(1).locator('.glass-card__figure')).toHaveText([
    '52% energy savings',
    '81% light transmission',
  ]);
  await expect(cards.nth(1)).toContainText('Low-E');
  await expect(cards.nth(0).getByRole('link')).toHaveAttribute('href', '/glass-types/performatech');
  await expect(cards.nth(1).getByRole('link')).toHaveAttribute('href', '/glass-types/planitherm');
  await cards.nth(1).getByRole('link').click();
  await expect(page).toHaveURL(/\/glass-types\/planitherm$/);
});

test('11. service areas: the five areas, the 200 km radius and the map on request', async ({
  page,
}) => {
  const cspErrors: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspErrors.push(message.text());
  });
  // This machine is offline: make the maps host fail fast, as it would.
  let mapRequests = 0;
  await page.route('https://www.google.com/**', (route) => {
    mapRequests += 1;
    return route.abort();
  });
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await ready(page, '/');

  const section = page.locator('[data-home-section="service-areas"]');
  await expect(section.locator('.service-areas__list li')).toHaveText([
    'Tauranga',
    'Mount Maunganui',
    'Papamoa',
    'Te Puke',
    'Katikati',
  ]);
  await expect(section).toContainText('200km');
  await expect(section.locator('.service-areas__radius')).toHaveText(
    'Service radius: 200km from Tauranga',
  );
  await expect(section.getByRole('link', { name: /Open in Google Maps/ })).toHaveAttribute(
    'href',
    business.mapLinkUrl,
  );

  // A light local preview until asked: nothing is fetched from the maps host.
  await section.scrollIntoViewIfNeeded();
  await expect(section.locator('img[src="/images/map-preview.svg"]')).toBeVisible();
  expect(mapRequests).toBe(0);
  await expect(section.locator('iframe')).toHaveCount(0);

  const box = (await section.locator('.map-embed__frame').boundingBox())!;
  await section.getByRole('button', { name: 'Show interactive map' }).click();
  const frame = section.locator('iframe');
  await expect(frame).toHaveAttribute('src', business.mapEmbedUrl);
  await expect(frame).toHaveAttribute('title', home.serviceArea.mapTitle);
  await expect(frame).toHaveAttribute('loading', 'lazy');
  await expect(frame).toHaveAttribute('referrerpolicy', 'no-referrer-when-downgrade');
  await expect(frame).toBeFocused();
  await expect.poll(() => mapRequests).toBeGreaterThan(0);
  // Same box: the live map takes the preview's place without moving the page.
  const after = (await section.locator('.map-embed__frame').boundingBox())!;
  expect(Math.round(after.height)).toBe(Math.round(box.height));

  // The unreachable host breaks nothing else on the page.
  const toggle = page.locator('.testimonial-card__toggle').first();
  await toggle.click();
  await expect(toggle).toHaveText('Read less');
  expect(pageErrors).toEqual([]);
  expect(cspErrors).toEqual([]);
});

test('a failed image becomes its labelled placeholder', async ({ page }) => {
  await page.route('**/images/services/shower-installations-1.svg', (route) =>
    route.fulfill({ status: 404, body: '' }),
  );
  await page.route('**/images/hero.svg', (route) => route.fulfill({ status: 404, body: '' }));
  await ready(page, '/');
  // The hero image fails before the site's module runs: still replaced.
  const heroFallback = page.locator('[data-home-section="hero"] .illustration--fallback');
  await expect(heroFallback).toHaveText('Image not available');
  await expect(heroFallback).toHaveAttribute('role', 'img');

  const slide = page.locator('[data-home-section="local-experts"] [data-slide-index="0"]');
  await slide.scrollIntoViewIfNeeded();
  const fallback = slide.locator('.illustration--fallback');
  await expect(fallback).toHaveText('Shower Installation');
  await expect(fallback).toHaveAttribute('aria-label', services[0].images[0].alt);
  // The placeholder keeps the image's shape.
  const size = (await fallback.boundingBox())!;
  expect(size.width / size.height).toBeCloseTo(800 / 600, 1);
});

test('the structured business data on the home page is complete', async ({ request }) => {
  const html = await (await request.get('/')).text();
  const blocks = [...html.matchAll(/<script type="application\/ld\+json">([^<]+)<\/script>/g)].map(
    (match) => JSON.parse(match[1]!) as Record<string, unknown>,
  );
  const businessData = blocks.find((block) => block['@type'] === 'HomeAndConstructionBusiness');
  expect(businessData).toBeDefined();
  expect(businessData).toMatchObject({
    name: business.name,
    telephone: business.phone.e164,
    foundingDate: '2008',
    aggregateRating: { ratingValue: 5, bestRating: 5, reviewCount: 47 },
    address: { addressLocality: 'Tauranga', postalCode: '3110' },
  });
  expect(businessData!.areaServed).toEqual(
    ['Tauranga', 'Mount Maunganui', 'Papamoa', 'Te Puke', 'Katikati'].map((name) => ({
      '@type': 'City',
      name,
    })),
  );
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('every slide, offer and whole review is in the page, and the carousels scroll natively', async ({
    page,
  }) => {
    await page.goto('/');
    const main = page.locator('main');
    for (const service of services) await expect(main).toContainText(service.blurb);
    for (const offer of offers) await expect(main).toContainText(offer.terms);
    // The Read more toggle needs JavaScript: the whole review shows instead.
    for (const testimonial of testimonials) {
      await expect(main.getByText(testimonial.review, { exact: true })).toBeVisible();
    }
    await expect(page.locator('.testimonial-card__toggle').first()).toBeHidden();

    for (const name of ['Our glass services', 'Offers', 'Customer testimonials']) {
      const carousel = page.getByRole('region', { name, exact: true });
      await expect(carousel).not.toHaveAttribute('data-carousel-ready', /.*/);
      const viewport = carousel.locator('.carousel__viewport');
      const scroll = await viewport.evaluate((element) => ({
        overflow: getComputedStyle(element).overflowX,
        snap: getComputedStyle(element).scrollSnapType,
        scrollable: element.scrollWidth > element.clientWidth,
      }));
      expect(scroll).toEqual({ overflow: 'auto', snap: 'x mandatory', scrollable: true });
      // The buttons cannot work yet: they keep their room but stay out of sight.
      await expect(carousel.locator('.carousel__controls')).toHaveCSS('visibility', 'hidden');
    }
    // The map link works without JavaScript; the button that needs it is hidden.
    await expect(page.getByRole('link', { name: /Open in Google Maps/ })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Show interactive map' })).toBeHidden();
  });
});

test.describe('on a phone (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the hero text comes first and the page has no horizontal scroll', async ({ page }) => {
    await ready(page, '/');
    const heading = (await page.getByRole('heading', { level: 1 }).boundingBox())!;
    const image = (await page.locator('[data-home-section="hero"] img').boundingBox())!;
    expect(heading.y).toBeLessThan(image.y);
    await expect(page.getByRole('link', { name: 'Request an Estimate' }).first()).toBeVisible();
    // The header shows only the logo mark here: the hero names the business, on the first screen.
    const name = page.locator('[data-home-section="hero"] .eyebrow');
    await expect(name).toContainText(business.name);
    await expect(name).toBeInViewport({ ratio: 1 });
    // Nothing wider than the screen: a phone would otherwise zoom the page out.
    expect(
      await page.evaluate(() => ({
        layoutViewport: window.innerWidth,
        pageWidth: document.documentElement.scrollWidth,
      })),
    ).toEqual({ layoutViewport: 390, pageWidth: 390 });
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('the carousels scroll inside themselves: the page is no wider than the screen', async ({
      page,
    }) => {
      await page.goto('/');
      expect(
        await page.evaluate(() => ({
          layoutViewport: window.innerWidth,
          pageWidth: document.documentElement.scrollWidth,
        })),
      ).toEqual({ layoutViewport: 390, pageWidth: 390 });
    });
  });

  test('a swipe moves the service carousel by one card', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await ready(page, '/');
    const carousel = page.getByRole('region', { name: 'Our glass services', exact: true });
    await carousel.scrollIntoViewIfNeeded();
    await expect(carousel).toHaveAttribute('data-carousel-ready', '');
    await expect(carousel.locator('.carousel__slide:not([inert])')).toHaveAttribute(
      'data-slide-index',
      '0',
    );
    const box = (await carousel.locator('.carousel__viewport').boundingBox())!;
    const y = box.y + 80;
    const x = box.x + box.width - 40;
    // A finger's touch events, through the browser's own input pipeline.
    const cdp = await page.context().newCDPSession(page);
    const touch = (
      type: 'touchStart' | 'touchMove' | 'touchEnd',
      points: { x: number; y: number }[],
    ) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points });
    await touch('touchStart', [{ x, y }]);
    for (let step = 1; step <= 8; step += 1) await touch('touchMove', [{ x: x - step * 25, y }]);
    await touch('touchEnd', []);
    await expect(carousel.locator('.carousel__slide:not([inert])')).toHaveAttribute(
      'data-slide-index',
      '1',
    );
  });
});

import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { business } from '../app/content/business.ts';
import { services, type Service } from '../app/content/services.ts';
import { E2E_BUILD_ENV } from './support/env.ts';
import { ready } from './support/pages.ts';

/**
 * The services overview and the nine service pages of
 * docs/screens.md#service-pages (texts, order, carousel timing, Details, Features, benefits,
 * the quote link, JSON-LD, image fallbacks).
 */

const SITE = E2E_BUILD_ENV.SITE_URL;
const TOWNS = ['Tauranga', 'Mount Maunganui', 'Papamoa', 'Te Puke', 'Katikati'];

/** Every JSON-LD block of the prerendered page, parsed. */
async function jsonLd(request: APIRequestContext, path: string) {
  const html = await (await request.get(path)).text();
  return [...html.matchAll(/<script type="application\/ld\+json">([^<]+)<\/script>/g)].map(
    (match) => JSON.parse(match[1]!) as Record<string, unknown>,
  );
}

/**
 * Stops the slide show (unless it has stopped itself on the last picture),
 * freezes the page's clock, goes back to the first picture and presses Play,
 * so the 4000 ms delay starts at a known moment.
 */
async function restartAutoplayOnFrozenClock(page: Page) {
  const carousel = page.locator('.service-gallery');
  const toggle = carousel.getByRole('button', { name: /slide show/ });
  if ((await toggle.getAttribute('aria-label')) === 'Pause slide show') await toggle.click();
  await expect(toggle).toHaveText(/Play/);
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  const current = carousel.locator('[aria-roledescription="slide"]:not([inert])');
  if ((await current.getAttribute('aria-label')) !== '1 of 2') {
    await carousel.getByRole('button', { name: 'Previous slide' }).click();
  }
  await expect(current).toHaveAttribute('aria-label', '1 of 2');
  await toggle.click();
  await expect(toggle).toHaveText(/Pause/);
  return toggle;
}

test.describe('services overview', () => {
  test('heading, nine cards with image, icon, title, description and Learn More, then Get a Free Quote', async ({
    page,
  }) => {
    await ready(page, '/services');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Our Services');
    const cards = page.locator('.service-card');
    await expect(cards).toHaveCount(9);
    for (const [index, service] of services.entries()) {
      const card = cards.nth(index);
      await expect(card.getByRole('heading', { level: 2 })).toHaveText(service.title);
      await expect(card).toContainText(service.cardDescription);
      await expect(card.locator('img')).toHaveAttribute('src', service.images[0].src);
      await expect(card.locator('img')).toHaveAttribute('width', '800');
      await expect(card.locator('svg.icon').first()).toBeAttached();
      const learnMore = card.getByRole('link', { name: `Learn More about ${service.title}` });
      await expect(learnMore).toHaveAttribute('href', service.path);
    }
    const quote = page.getByRole('link', { name: 'Get a Free Quote' });
    await expect(quote).toHaveAttribute('href', '/quote');
    // The closing call to action comes after the grid.
    const order = await page.evaluate(() => {
      const grid = document.querySelector('.service-grid')!;
      const cta = [...document.querySelectorAll('a[href="/quote"]')].find(
        (link) => link.textContent === 'Get a Free Quote',
      )!;
      return grid.compareDocumentPosition(cta) & Node.DOCUMENT_POSITION_FOLLOWING;
    });
    expect(order).toBeTruthy();

    await cards
      .nth(1)
      .getByRole('link', { name: /Learn More/ })
      .click();
    await expect(page).toHaveURL(/\/services\/windows$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(services[1].title);
  });
});

for (const service of services as readonly Service[]) {
  test.describe(`${service.path}`, () => {
    test('texts in the documented order: title, carousel, intro, Details, Features, benefits, Get a Free Quote', async ({
      page,
    }) => {
      await page.goto(service.path);
      const main = page.locator('main');
      await expect(main.getByRole('heading', { level: 1 })).toHaveText(service.title);
      await expect(main.getByText(service.introText)).toBeVisible();
      for (const paragraph of service.details) {
        await expect(main.getByText(paragraph, { exact: true })).toBeAttached();
      }
      for (const feature of service.features) {
        await expect(main.getByText(feature, { exact: true })).toBeAttached();
      }
      const benefits = main.locator('section', {
        has: page.getByRole('heading', { name: 'Why Choose Our Service?' }),
      });
      await expect(benefits.getByRole('heading', { level: 3 })).toHaveText(
        service.benefits.map((benefit) => benefit.title),
      );
      for (const benefit of service.benefits) {
        await expect(benefits).toContainText(benefit.description);
      }
      const quote = main.getByRole('link', { name: 'Get a Free Quote' });
      expect(await quote.count()).toBeGreaterThanOrEqual(1);
      for (const link of await quote.all()) await expect(link).toHaveAttribute('href', '/quote');
      await expect(main.locator(`a[href="tel:${business.phone.e164}"]`).first()).toBeVisible();

      // Document order of the parts docs/screens.md#service-pages lists.
      const positions = await page.evaluate(() => {
        const find = (selector: string, text?: string) =>
          [...document.querySelectorAll<HTMLElement>(selector)].find(
            (element) => text === undefined || element.textContent?.trim() === text,
          );
        const parts = [
          find('main h1'),
          find('main [aria-roledescription="carousel"]'),
          find('main .service-hero__lead'),
          find('main summary h2', 'Details'),
          find('main summary h2', 'Features'),
          find('main h2', 'Why Choose Our Service?'),
          find('.cta-banner a[href="/quote"]'),
        ];
        const all = [...document.querySelectorAll('*')];
        return parts.map((part) => (part ? all.indexOf(part) : -1));
      });
      expect(positions.every((position) => position >= 0)).toBe(true);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    });

    // One page load serves both autoplay checks: the second restarts the
    // slide show from the first picture on a frozen clock, as the first does.
    test(`the carousel moves after 4000 ms, does not loop and stops on the last slide; hovering ${service.pauseOnHover ? 'pauses' : 'does not pause'} it (content: pauseOnHover ${service.pauseOnHover})`, async ({
      page,
    }) => {
      await page.clock.install();
      await ready(page, service.path);
      const carousel = page.locator('.service-gallery');
      const current = carousel.locator('[aria-roledescription="slide"]:not([inert])');

      await test.step('autoplay moves after 4000 ms, does not loop and stops on the last slide', async () => {
        await expect(carousel).toHaveAttribute('aria-roledescription', 'carousel');
        await expect(carousel).toHaveAttribute('data-carousel-ready', '');
        await expect(carousel).toHaveAttribute('data-playing', 'true');
        const slides = carousel.locator('[aria-roledescription="slide"]');
        await expect(slides).toHaveCount(service.images.length);

        const toggle = await restartAutoplayOnFrozenClock(page);
        await page.mouse.move(0, 0);
        await expect(carousel).toHaveAttribute('data-playing', 'true');

        await page.clock.runFor(3999);
        await expect(current).toHaveAttribute('aria-label', '1 of 2');
        await page.clock.runFor(1);
        await expect(current).toHaveAttribute('aria-label', '2 of 2');

        // No loop: autoplay ends on the last picture and the control offers Play.
        await page.clock.runFor(12_000);
        await expect(current).toHaveAttribute('aria-label', '2 of 2');
        await expect(toggle).toHaveText(/Play/);
        await expect(carousel.getByRole('button', { name: 'Next slide' })).toHaveAttribute(
          'aria-disabled',
          'true',
        );
      });

      await test.step(`hovering ${service.pauseOnHover ? 'pauses' : 'does not pause'} the carousel`, async () => {
        await restartAutoplayOnFrozenClock(page);
        // The pointer stays over the pictures.
        await carousel.locator('.carousel__viewport').hover();
        await page.clock.runFor(4500);
        await expect(current).toHaveAttribute(
          'aria-label',
          service.pauseOnHover ? '1 of 2' : '2 of 2',
        );
        if (service.pauseOnHover) {
          await page.mouse.move(0, 0);
          await page.clock.runFor(4000);
          await expect(current).toHaveAttribute('aria-label', '2 of 2');
        }
      });
    });

    test('Details opens and closes; Features is collapsible at 390 px only', async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await ready(page, service.path);
      const main = page.locator('main');
      const details = main.locator('details', {
        has: page.locator('summary', { hasText: 'Details' }),
      });
      const firstParagraph = details.getByText(service.details[0]!, { exact: true });
      await expect(firstParagraph).toBeHidden();
      await details.locator('summary').click();
      await expect(firstParagraph).toBeVisible();
      await details.locator('summary').click();
      await expect(firstParagraph).toBeHidden();

      const features = main.locator('details', {
        has: page.locator('summary', { hasText: 'Features' }),
      });
      const firstFeature = features.getByText(service.features[0]!, { exact: true });
      await expect(firstFeature).toBeHidden();
      await features.locator('summary').click();
      await expect(firstFeature).toBeVisible();
      await features.locator('summary').click();
      await expect(firstFeature).toBeHidden();

      // At 1280 px the features are always shown and do not collapse.
      await page.setViewportSize({ width: 1280, height: 800 });
      await expect(firstFeature).toBeVisible();
      await expect(features).toHaveAttribute('open', '');
      await features.locator('summary').click({ force: true });
      await expect(firstFeature).toBeVisible();
      for (const feature of service.features) {
        await expect(features.getByText(feature, { exact: true })).toBeVisible();
      }
      // Details stays a disclosure on desktop.
      await expect(firstParagraph).toBeHidden();
    });

    test('a picture that fails shows its placeholder label', async ({ page }) => {
      await page.route(`**${service.images[0]!.src}`, (route) => route.fulfill({ status: 404 }));
      await ready(page, service.path);
      const fallback = page.locator('.service-gallery .illustration--fallback').first();
      await expect(fallback).toBeVisible();
      await expect(fallback).toHaveText(service.placeholderLabel);
      await expect(fallback).toHaveAttribute('role', 'img');
      await expect(fallback).toHaveAttribute('aria-label', service.images[0]!.alt);
      // The second picture is unaffected.
      await expect(page.locator('.service-gallery img')).toHaveAttribute(
        'src',
        service.images[1]!.src,
      );
    });

    test('Service and BreadcrumbList JSON-LD, field by field', async ({ request }) => {
      const blocks = await jsonLd(request, service.path);
      const serviceData = blocks.find((block) => block['@type'] === 'Service');
      expect(serviceData).toBeDefined();
      expect(serviceData).toMatchObject({
        '@context': 'https://schema.org',
        name: service.title,
        description: service.introText,
        serviceType: service.serviceType,
        url: `${SITE}${service.path}`,
        provider: {
          '@type': 'HomeAndConstructionBusiness',
          '@id': `${SITE}/#business`,
          name: business.name,
        },
      });
      expect(serviceData!.areaServed).toEqual(TOWNS.map((name) => ({ '@type': 'City', name })));
      // The provider reference points at the site-wide LocalBusiness block.
      const localBusiness = blocks.find(
        (block) => block['@type'] === 'HomeAndConstructionBusiness',
      );
      expect(localBusiness?.['@id']).toBe(`${SITE}/#business`);

      const breadcrumb = blocks.find((block) => block['@type'] === 'BreadcrumbList');
      expect(breadcrumb?.itemListElement).toEqual([
        { '@type': 'ListItem', position: 1, name: 'Home', item: `${SITE}/` },
        { '@type': 'ListItem', position: 2, name: 'Services', item: `${SITE}/services` },
        { '@type': 'ListItem', position: 3, name: service.title, item: `${SITE}${service.path}` },
      ]);
    });
  });
}

test('service pages link to the glass types their copy recommends', async ({ page }) => {
  await page.goto('/services/windows');
  const aside = page.getByRole('complementary', { name: /related glass/ });
  await expect(aside.getByRole('link', { name: /PerformaTech 206/ })).toHaveAttribute(
    'href',
    '/glass-types/performatech',
  );
  await expect(aside.getByRole('link', { name: /Planitherm XN/ })).toHaveAttribute(
    'href',
    '/glass-types/planitherm',
  );
  await page.goto('/services/pool-fences');
  await expect(page.getByRole('heading', { name: 'Glass we recommend' })).toHaveCount(0);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('both pictures, Details and Features stay readable', async ({ page }) => {
    const service = services[0];
    await page.goto(service.path);
    const main = page.locator('main');
    await expect(main.locator('.service-gallery img')).toHaveCount(2);
    // Features show on desktop with no script at all.
    await expect(main.getByText(service.features[0], { exact: true })).toBeVisible();
    // Details is a native disclosure.
    const details = main.locator('details', {
      has: page.locator('summary', { hasText: 'Details' }),
    });
    await details.locator('summary').click();
    await expect(details.getByText(service.details[0], { exact: true })).toBeVisible();
  });
});

import { expect, test, type Locator, type Page } from '@playwright/test';
import { settled } from './support/settle.ts';

/**
 * The carousel (app/components/carousel/Carousel.tsx) on the home page:
 * docs/interactive-parts.md#carousels (loop, autoplay, pause on hover, keeps
 * going after interaction, delays, slides per view, gaps) and the
 * accessibility additions (Pause/Play, reduced motion, keyboard,
 * announcements).
 *
 * Timing runs on Playwright's clock, installed before navigation and paused
 * once the carousel is ready, so '3999 ms: same slide, 4000 ms: next' is
 * exact. While the clock is paused Embla's animation frames do not run, so
 * the position is read from which slides are in view (the others are inert),
 * which Embla updates as soon as it selects a slide.
 */

const SERVICES = 'Our glass services';
const OFFERS = 'Offers';
const TESTIMONIALS = 'Customer testimonials';

/** The first slide in view (the one after an out-of-view slide, for a looped carousel). */
function firstVisibleSlide(carousel: Locator): Promise<number> {
  return carousel.evaluate((root) => {
    const shown = [...root.querySelectorAll('[data-slide-index]')].map(
      (slide) => !slide.hasAttribute('inert'),
    );
    const count = shown.length;
    for (let index = 0; index < count; index += 1) {
      if (shown[index] && !shown[(index - 1 + count) % count]) return index;
    }
    return shown.indexOf(true);
  });
}

async function expectFirstVisible(carousel: Locator, index: number) {
  await expect.poll(() => firstVisibleSlide(carousel)).toBe(index);
}

/** Opens the home page with a controllable clock and waits for the carousel to be driven by Embla. */
async function openCarousel(page: Page, name: string): Promise<Locator> {
  await page.clock.install();
  await page.goto('/');
  await expect(page.locator('html[data-ready]')).toBeAttached();
  const carousel = page.getByRole('region', { name, exact: true });
  await carousel.scrollIntoViewIfNeeded();
  await expect(carousel).toHaveAttribute('data-carousel-ready', '');
  await page.clock.pauseAt(new Date(Date.now() + 1_000));
  return carousel;
}

/** Restarts autoplay at the paused instant: Pause, Play, then the mouse leaves. */
async function restartAutoplay(page: Page, carousel: Locator) {
  const toggle = carousel.locator('.carousel__toggle');
  if ((await toggle.getAttribute('aria-label')) === 'Pause slide show') await toggle.click();
  await carousel.getByRole('button', { name: 'Play slide show' }).click();
  await page.mouse.move(2, 2);
  await expect(carousel).toHaveAttribute('data-playing', 'true');
}

for (const { name, delay } of [
  { name: SERVICES, delay: 4000 },
  { name: OFFERS, delay: 6000 },
  { name: TESTIMONIALS, delay: 5000 },
]) {
  test(`${name}: autoplay moves one slide every ${delay} ms`, async ({ page }) => {
    const carousel = await openCarousel(page, name);
    await restartAutoplay(page, carousel);
    const start = await firstVisibleSlide(carousel);
    const count = await carousel.locator('[data-slide-index]').count();
    await page.clock.runFor(delay - 1);
    await settled(page);
    expect(await firstVisibleSlide(carousel)).toBe(start);
    await page.clock.runFor(1);
    await expectFirstVisible(carousel, (start + 1) % count);
    await page.clock.runFor(delay);
    await expectFirstVisible(carousel, (start + 2) % count);
  });
}

test('the home carousels loop: after the last slide comes the first', async ({ page }) => {
  const carousel = await openCarousel(page, OFFERS);
  await restartAutoplay(page, carousel);
  const start = await firstVisibleSlide(carousel);
  for (let step = 1; step <= 5; step += 1) {
    await page.clock.runFor(6000);
    await expectFirstVisible(carousel, (start + step) % 5);
  }
  // Three in view from the last slide: 5, 1 and 2 (wrapped round).
  await expect(carousel.locator('.carousel__slide:not([inert])')).toHaveCount(3);
});

test('autoplay pauses while the mouse is over the carousel, and resumes after', async ({
  page,
}) => {
  const carousel = await openCarousel(page, SERVICES);
  await restartAutoplay(page, carousel);
  const start = await firstVisibleSlide(carousel);
  await carousel.locator('.carousel__viewport').hover();
  await page.clock.runFor(12_000);
  await settled(page);
  expect(await firstVisibleSlide(carousel)).toBe(start);
  await page.mouse.move(2, 2);
  await page.clock.runFor(4000);
  await expectFirstVisible(carousel, start + 1);
});

test('autoplay keeps going after the visitor uses the buttons or swipes', async ({ page }) => {
  const carousel = await openCarousel(page, SERVICES);
  await restartAutoplay(page, carousel);
  const start = await firstVisibleSlide(carousel);
  await carousel.getByRole('button', { name: 'Next slide' }).click();
  await expectFirstVisible(carousel, start + 1);
  await page.mouse.move(2, 2);
  await page.clock.runFor(4000);
  await expectFirstVisible(carousel, start + 2);

  // A drag to the left moves on by a slide; autoplay carries on afterwards.
  const box = (await carousel.locator('.carousel__viewport').boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * 0.6, y);
  await page.mouse.down();
  for (let step = 1; step <= 10; step += 1) {
    await page.mouse.move(box.x + box.width * 0.6 - step * 30, y);
    await page.clock.runFor(16);
  }
  await page.mouse.up();
  await page.clock.runFor(1000);
  await expectFirstVisible(carousel, start + 3);
  await page.mouse.move(2, 2);
  await page.clock.runFor(4000);
  await expectFirstVisible(carousel, start + 4);
  await expect(carousel.getByRole('button', { name: 'Pause slide show' })).toBeVisible();
});

test('the Pause control stops autoplay and Play resumes it; the live region speaks only when paused', async ({
  page,
}) => {
  const carousel = await openCarousel(page, TESTIMONIALS);
  await restartAutoplay(page, carousel);
  const live = carousel.locator('[aria-live]');
  await expect(live).toHaveAttribute('aria-live', 'off');
  const pause = carousel.getByRole('button', { name: 'Pause slide show' });
  await expect(pause).toHaveText('Pause');
  await pause.click();
  await page.mouse.move(2, 2);
  await expect(carousel.getByRole('button', { name: 'Play slide show' })).toHaveText('Play');
  await expect(live).toHaveAttribute('aria-live', 'polite');
  const start = await firstVisibleSlide(carousel);
  await page.clock.runFor(30_000);
  await settled(page);
  expect(await firstVisibleSlide(carousel)).toBe(start);

  await carousel.getByRole('button', { name: 'Next slide' }).click();
  await expect(live).toHaveText(`Slides ${start + 2} to ${start + 4} of 7`);

  await carousel.getByRole('button', { name: 'Play slide show' }).click();
  await page.mouse.move(2, 2);
  await page.clock.runFor(5000);
  await expectFirstVisible(carousel, start + 2);
});

test.describe('with prefers-reduced-motion: reduce', () => {
  test.use({ reducedMotion: 'reduce' });

  test('nothing moves by itself; the control offers Play, and Play starts it', async ({ page }) => {
    const carousel = await openCarousel(page, SERVICES);
    const play = carousel.getByRole('button', { name: 'Play slide show' });
    await expect(play).toBeVisible();
    await expect(carousel).not.toHaveAttribute('data-playing', 'true');
    await page.mouse.move(2, 2);
    await page.clock.runFor(20_000);
    await settled(page);
    expect(await firstVisibleSlide(carousel)).toBe(0);
    await play.click();
    await page.mouse.move(2, 2);
    await page.clock.runFor(4000);
    await expectFirstVisible(carousel, 1);
  });
});

test('keyboard: the buttons are tabbable, arrow keys move, focus inside pauses autoplay', async ({
  page,
}) => {
  const carousel = await openCarousel(page, SERVICES);
  await restartAutoplay(page, carousel);
  const toggle = carousel.getByRole('button', { name: 'Pause slide show' });
  const previous = carousel.getByRole('button', { name: 'Previous slide' });
  const next = carousel.getByRole('button', { name: 'Next slide' });

  // Tab order: Pause first (WAI-ARIA carousel pattern), then previous, next, the slides' links.
  await toggle.focus();
  await page.keyboard.press('Tab');
  await expect(previous).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(next).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.locator(':focus')).toHaveText(/Learn More/);

  // Keyboard focus inside: autoplay waits.
  const start = await firstVisibleSlide(carousel);
  await page.clock.runFor(12_000);
  await settled(page);
  expect(await firstVisibleSlide(carousel)).toBe(start);

  await next.focus();
  await page.keyboard.press('Enter');
  await expectFirstVisible(carousel, start + 1);
  await page.keyboard.press('ArrowRight');
  await expectFirstVisible(carousel, start + 2);
  await page.keyboard.press('ArrowLeft');
  await expectFirstVisible(carousel, start + 1);
  await expect(carousel.locator('[aria-live]')).toHaveText(
    `Slides ${start + 2} to ${start + 4} of 9`,
  );

  // Slides out of view are inert: their links cannot take focus.
  const hidden = carousel.locator('.carousel__slide[inert]').first();
  await expect(hidden).toBeAttached();
  await hidden.locator('a').focus();
  await expect(hidden.locator('a')).not.toBeFocused();

  // Focus leaves: autoplay resumes.
  await page.locator('h1').click();
  await page.mouse.move(2, 2);
  await page.clock.runFor(4000);
  await expectFirstVisible(carousel, start + 2);
});

for (const { width, perView, gap } of [
  { width: 390, perView: 1, gap: 16 },
  { width: 800, perView: 2, gap: 24 },
  { width: 1280, perView: 3, gap: 32 },
]) {
  test(`${perView} slide(s) per view ${gap} px apart at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    // Nothing moves by itself, so the slides can be measured at rest.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    await expect(page.locator('html[data-ready]')).toBeAttached();
    const carousel = page.getByRole('region', { name: SERVICES });
    await carousel.scrollIntoViewIfNeeded();
    await expect(carousel).toHaveAttribute('data-carousel-ready', '');
    await expect(carousel.locator('.carousel__slide:not([inert])')).toHaveCount(perView);
    const cards = carousel.locator('.carousel__slide > *');
    const viewport = (await carousel.locator('.carousel__viewport').boundingBox())!;
    const first = (await cards.nth(0).boundingBox())!;
    const second = (await cards.nth(1).boundingBox())!;
    expect(Math.round(second.x - (first.x + first.width))).toBe(gap);
    expect(Math.round(first.x)).toBe(Math.round(viewport.x));
    expect(first.width * perView + gap * (perView - 1)).toBeCloseTo(viewport.width, 0);
  });
}

// The announcements are read first, on this test's page as it loads: reading
// attributes shifts nothing that the layout-shift check counts.
test('slides are announced as groups named "N of M" in a named carousel region; Embla taking over shifts nothing on the page (CLS)', async ({
  page,
}) => {
  await page.goto('/');
  await test.step('slides are announced as groups named "N of M" in a named carousel region', async () => {
    for (const [name, count] of [
      [SERVICES, 9],
      [OFFERS, 5],
      [TESTIMONIALS, 7],
    ] as const) {
      const carousel = page.getByRole('region', { name, exact: true });
      await expect(carousel).toHaveAttribute('aria-roledescription', 'carousel');
      const slides = carousel.locator('[aria-roledescription="slide"]');
      await expect(slides).toHaveCount(count);
      await expect(slides.first()).toHaveAttribute('role', 'group');
      await expect(slides.first()).toHaveAttribute('aria-label', `1 of ${count}`);
      await expect(slides.last()).toHaveAttribute('aria-label', `${count} of ${count}`);
    }
  });
  await expect(page.locator('html[data-ready]')).toBeAttached();
  for (const name of [SERVICES, OFFERS, TESTIMONIALS]) {
    const carousel = page.getByRole('region', { name, exact: true });
    await carousel.scrollIntoViewIfNeeded();
    await expect(carousel).toHaveAttribute('data-carousel-ready', '');
  }
  const shift = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as unknown as {
            value: number;
            hadRecentInput: boolean;
          }[]) {
            if (!entry.hadRecentInput) total += entry.value;
          }
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), 200);
      }),
  );
  expect(shift).toBeLessThanOrEqual(0.01);
});

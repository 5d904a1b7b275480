import { expect, test, type Locator, type Page } from '@playwright/test';
import { ready } from './support/pages.ts';

/**
 * Every link is a page load, so a menu cannot stay open on the next page. It
 * can on the way back: the browser's back-forward cache restores the page
 * as the visitor left it, with the menu they left it through still open
 * (Playwright turns that cache off; these tests turn it on).
 */
test.use({
  launchOptions: async ({ launchOptions }, use) =>
    use({ ...launchOptions, ignoreDefaultArgs: ['--disable-back-forward-cache'] }),
});

test.describe('back on a page left through its menu', () => {
  /** Leaves the page by `link`, goes back, and checks the page came from the cache. */
  async function leaveAndComeBack(page: Page, link: Locator, url: RegExp) {
    await page.evaluate(() => ((window as { leftFrom?: string }).leftFrom = location.pathname));
    await link.click();
    await expect(page).toHaveURL(url);
    // A page restored from the cache fires no load event.
    await page.goBack({ waitUntil: 'commit' });
    // The same document, not a new load: the test can only fail in that case.
    await expect
      .poll(() => page.evaluate(() => (window as { leftFrom?: string }).leftFrom))
      .toBe('/');
  }

  test('at 1280 px the dropdown is closed', async ({ page }) => {
    await ready(page, '/');
    const services = page.getByRole('button', { name: 'Services menu' });
    const servicesMenu = page.locator(`#${await services.getAttribute('aria-controls')}`);
    await services.click();
    await expect(servicesMenu).toBeVisible();
    await leaveAndComeBack(
      page,
      servicesMenu.getByRole('link', { name: 'Pool Fences' }),
      /\/services\/pool-fences$/,
    );
    await expect(servicesMenu).toBeHidden();
    await expect(services).toHaveAttribute('aria-expanded', 'false');
  });

  test.describe('at 390 px', () => {
    test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

    test('the menu is closed and the page neither locked nor inert', async ({ page }) => {
      await ready(page, '/');
      await page.getByRole('button', { name: 'Open menu' }).click();
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('button', { name: 'Services menu' }).click();
      await leaveAndComeBack(
        page,
        nav.getByRole('link', { name: 'Splashbacks' }),
        /\/services\/splashbacks$/,
      );
      await expect(nav).toBeHidden();
      await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute(
        'aria-expanded',
        'false',
      );
      expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe(
        'hidden',
      );
      await expect(page.locator('main')).toHaveJSProperty('inert', false);
    });
  });
});

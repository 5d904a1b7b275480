import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { PAGE_PATHS } from './support/pages.ts';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * An axe run over the page as it is now. Only violations are reported: axe
 * then skips detailing every passing node (these tests took a tenth less
 * time here), and a violation is reported exactly as before.
 *
 * Legacy mode runs axe in the page itself. The default opens a blank page
 * per run to merge the results of cross-origin frames, which these pages do
 * not have (the map's frame loads only on a click, and no test here clicks
 * it): measured on four pages, one run took 1.2-1.9 s that way and 0.4-0.8 s
 * in the page, with the same rules and results.
 */
function axe(page: Page) {
  return new AxeBuilder({ page })
    .withTags(WCAG_TAGS)
    .options({ resultTypes: ['violations'] })
    .setLegacyMode(true)
    .analyze();
}

// One axe run over a long page takes a minute at a load average of 20 on two
// cores: a ceiling with room for that (a quiet machine needs a few seconds).
test.describe.configure({ timeout: 180_000 });

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 390, height: 844 },
];

// One test per page, so each gets the whole time limit and a failure names its
// page; both widths in it, on one page load. After a resize the page's media
// queries fire their change events and React re-renders before the next frames.
for (const path of [...PAGE_PATHS, '/no-such-page']) {
  test(`${path}: no WCAG 2.x A/AA violation at 1280 and 390 px`, async ({ page }) => {
    await page.setViewportSize(VIEWPORTS[0]!);
    await page.goto(path);
    await expect(page.locator('html[data-ready]')).toBeAttached();
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
}

test('an open desktop dropdown passes axe too', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('html[data-ready]')).toBeAttached();
  await page.getByRole('button', { name: 'Services menu' }).click();
  expect((await axe(page)).violations).toEqual([]);
});

test('the open mobile menu passes axe too', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await expect(page.locator('html[data-ready]')).toBeAttached();
  await page.getByRole('button', { name: 'Open menu' }).click();
  expect((await axe(page)).violations).toEqual([]);
});

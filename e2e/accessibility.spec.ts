import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { GTAG_PATTERN, PAGE_PATHS } from './support/pages.ts';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

// One axe run over a long page takes a minute at a load average of 20 on two
// cores: a ceiling with room for that (a quiet machine needs a few seconds).
test.describe.configure({ timeout: 180_000 });

test.beforeEach(async ({ page }) => {
  await page.route(GTAG_PATTERN, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: '' }),
  );
});

// One test per page and width: each gets the whole time limit, and a failure names its page.
for (const viewport of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 390, height: 844 },
]) {
  test.describe(`axe at ${viewport.width} px (${viewport.name})`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    for (const path of [...PAGE_PATHS, '/no-such-page']) {
      test(`${path}: no WCAG 2.x A/AA violation`, async ({ page }) => {
        await page.goto(path);
        await expect(page.locator('html[data-js="on"]')).toBeAttached();
        const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
        const violations = results.violations.map(
          (violation) =>
            `${violation.id} (${violation.impact}) ${violation.nodes
              .slice(0, 3)
              .map((node) => node.target.join(' '))
              .join(', ')}`,
        );
        expect(violations).toEqual([]);
      });
    }
  });
}

test('an open desktop dropdown passes axe too', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('html[data-js="on"]')).toBeAttached();
  await page.getByRole('button', { name: 'Services menu' }).click();
  expect((await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze()).violations).toEqual([]);
});

test('the open mobile menu passes axe too', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await expect(page.locator('html[data-js="on"]')).toBeAttached();
  await page.getByRole('button', { name: 'Open menu' }).click();
  expect((await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze()).violations).toEqual([]);
});

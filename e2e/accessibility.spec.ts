import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { allPagePaths, GTAG_PATTERN } from './support/pages.ts';

test.describe.configure({ timeout: 240_000 });

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

for (const viewport of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 390, height: 844 },
]) {
  test(`axe finds no WCAG 2.x A/AA violation on any page (${viewport.name})`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize(viewport);
    await page.route(GTAG_PATTERN, (route) =>
      route.fulfill({ contentType: 'text/javascript', body: '' }),
    );
    const paths = [...(await allPagePaths(request)), '/no-such-page'];
    const failures: string[] = [];
    for (const path of paths) {
      await page.goto(path);
      await expect(page.locator('html[data-js="on"]')).toBeAttached();
      const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
      for (const violation of results.violations) {
        failures.push(
          `${path}: ${violation.id} (${violation.impact}) ${violation.nodes
            .slice(0, 3)
            .map((node) => node.target.join(' '))
            .join(', ')}`,
        );
      }
    }
    expect(failures).toEqual([]);
  });
}

test('the open mobile menu and desktop dropdowns pass axe too', async ({ page }) => {
  await page.route(GTAG_PATTERN, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: '' }),
  );
  await page.goto('/');
  await expect(page.locator('html[data-js="on"]')).toBeAttached();
  await page.getByRole('button', { name: 'Services menu' }).click();
  expect((await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze()).violations).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Open menu' }).click();
  expect((await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze()).violations).toEqual([]);
});

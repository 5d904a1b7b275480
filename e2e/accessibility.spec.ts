import { expect, test } from '@playwright/test';
import { axe } from './support/axe.ts';

// Each route's own axe run is in routes.spec.ts; these open the menus first.
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

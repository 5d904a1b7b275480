import { expect, test, type Browser, type Page } from '@playwright/test';
import { attachServerLogsOnFailure } from './support/lead-server.ts';
import { startOwnerSite, type OwnerSite } from './support/owner-server.ts';
import { signInAsOwner } from './support/owner-session.ts';

/**
 * The editors of /admin/site on a phone (docs/operations.md, "Owner's
 * pages"): what the owner changes often comes first, what only the launch
 * needs sits in a closed "More" section, and Save stays on the screen while
 * the owner edits, without covering the field they are typing in.
 */

test.describe.configure({ mode: 'serial', timeout: 10 * 60_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

const PHONE = { width: 390, height: 844 };
let site: OwnerSite;

test.beforeAll(async () => {
  site = await startOwnerSite({ SITE_PUBLISH_INTERVAL_S: '3600' });
});

test.afterAll(async () => site?.stop());

async function ownerPage(browser: Browser, javaScript = true): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: javaScript });
  await signInAsOwner(context, site.server, 'mere@glass.example.nz');
  return context.newPage();
}

/** The button is wholly on the screen. */
async function onScreen(page: Page, name: string): Promise<void> {
  const box = await page.getByRole('button', { name }).boundingBox();
  expect(box, name).not.toBeNull();
  expect(box!.y, name).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, name).toBeLessThanOrEqual(PHONE.height);
  expect(box!.height, name).toBeGreaterThanOrEqual(44);
}

test('Save stays on the screen, and never covers the field being typed in', async ({ browser }) => {
  const page = await ownerPage(browser);
  for (const [pathname, save] of [
    ['/admin/site/identity', 'Save business details'],
    ['/admin/site/hours', 'Save hours and facts'],
  ] as const) {
    await page.goto(`${site.url}${pathname}`);
    await onScreen(page, save);
    // Tab through every field: each one focused is above the buttons.
    const bar = page.locator('.admin-form-actions');
    const fields = page.locator('.admin-site-form :is(input, select, textarea):visible');
    const count = await fields.count();
    expect(count).toBeGreaterThan(5);
    for (let index = 0; index < count; index++) {
      const field = fields.nth(index);
      await field.focus();
      const [box, barBox] = [await field.boundingBox(), await bar.boundingBox()];
      expect(box!.y + box!.height, `${pathname}: field ${index}`).toBeLessThanOrEqual(barBox!.y);
      await onScreen(page, save);
    }
  }
});

test('the facts only the launch needs are under a closed “More”, and still saved', async ({
  browser,
}) => {
  const page = await ownerPage(browser, false);
  await page.goto(`${site.url}/admin/site/hours`);
  const more = page.locator('details', { hasText: 'More:' });
  await expect(more).not.toHaveAttribute('open');
  await expect(page.getByLabel('Days the server logs are kept')).toBeHidden();
  await expect(page.getByLabel('Days to pay an invoice')).toBeHidden();
  await expect(page.getByLabel('Emergency badge')).toBeVisible();
  await expect(page.getByLabel('Made-to-measure lead time')).toBeVisible();

  // Without JavaScript: open it, change a fact, save.
  await more.locator('summary').click();
  await page.getByLabel('Days the server logs are kept').fill('45');
  await page.getByRole('button', { name: 'Save hours and facts' }).click();
  await expect(page.getByRole('status')).toContainText('Saved to the draft');
  await expect(page.getByLabel('Days the server logs are kept')).toHaveValue('45');

  // A refusal inside it opens it.
  await more.locator('summary').click();
  await page.getByLabel('Days the server logs are kept').fill('none');
  await page.getByRole('button', { name: 'Save hours and facts' }).click();
  await expect(page.getByTestId('form-errors')).toContainText('Days the server logs are kept');
  await expect(more).toHaveAttribute('open');
  await expect(page.getByLabel('Days the server logs are kept')).toBeVisible();

  // Business details: the legal name and the Privacy Officer under "More", the phone first.
  await page.goto(`${site.url}/admin/site/identity`);
  await expect(page.getByLabel('Phone number', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Legal name')).toBeHidden();
  await expect(page.getByLabel('Privacy Officer’s e-mail address')).toBeHidden();
  // The launch checklist links to a field by its id: "More" opens to show it.
  await page.goto(`${site.url}/admin/site/identity#f-privacyOfficer-email`);
  await expect(page.getByLabel('Privacy Officer’s e-mail address')).toBeVisible();
});

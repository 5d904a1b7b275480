import { mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { E2E_BUILD_DIR } from './support/env.ts';
import { attachServerLogsOnFailure } from './support/lead-server.ts';
import { startOwnerSite, type OwnerSite } from './support/owner-server.ts';
import { signInAsOwner } from './support/owner-session.ts';

/**
 * Save and publish where you edit (docs/operations.md, "Publishing the
 * site"): the changes an owner makes most, each from /admin to live on the
 * public page in at most five taps, counted here tap by tap (a tap on a
 * field counts; typing does not), and the publishing bar turning from
 * "Publishing…" to "Live" without a reload and with no second Publish
 * meanwhile. Without JavaScript, Publish posts, the page says it is
 * publishing, and a reload says it is live. A server of its own with its
 * builder beside it, as e2e/site-admin.spec.ts.
 */

test.describe.configure({ mode: 'serial', timeout: 10 * 60_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

const root = path.resolve(import.meta.dirname, '..');
const PHONE_WIDTH = { width: 390, height: 844 };
/** From a tap on Publish to the change live: a ceiling for a busy machine, not a wait. */
const LIVE_WITHIN_MS = 180_000;
const MOST_TAPS = 5;

let site: OwnerSite;
let scratch: string;

test.beforeAll(async () => {
  scratch = mkdtempSync(path.join(root, 'build-publish-taps-test-'));
  const buildDir = path.join(scratch, 'build');
  symlinkSync(realpathSync(path.resolve(root, E2E_BUILD_DIR)), buildDir);
  site = await startOwnerSite({ BUILD_DIR: buildDir, SITE_PUBLISH_INTERVAL_S: '3600' });
});

test.afterAll(async () => {
  await site?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

async function ownerPage(browser: Browser, email: string, javaScriptEnabled = true): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE_WIDTH, javaScriptEnabled });
  await signInAsOwner(context, site.server, email);
  return context.newPage();
}

async function publicHtml(pathname: string): Promise<string> {
  return (await fetch(`${site.server.url}${pathname}`)).text();
}

/** Taps, counted and named, for the report of each journey. */
function tapper() {
  const taps: string[] = [];
  return {
    taps,
    async tap(name: string, target: Locator) {
      taps.push(name);
      await target.click();
    },
  };
}

/**
 * After the last tap: the bar says "Publishing…" with no Publish in it,
 * then "Live" on the same page (no reload), and the public page shows it.
 */
async function seeItGoLive(page: Page, served: (html: string) => boolean, pathname = '/') {
  const bar = page.getByTestId('publish-bar');
  await expect(bar).toContainText('Publishing…');
  await expect(bar.getByRole('button', { name: 'Publish' })).toBeHidden();
  await page.evaluate(() => {
    (window as unknown as { stillHere: boolean }).stillHere = true;
  });
  await expect(bar).toContainText('Live', { timeout: LIVE_WITHIN_MS });
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(
    true,
  );
  expect(served(await publicHtml(pathname))).toBe(true);
}

test('the phone number: 4 taps from /admin to live', async ({ browser }) => {
  const page = await ownerPage(browser, 'phone@glass.example.nz');
  await page.goto(`${site.url}/admin`);
  const { taps, tap } = tapper();
  await tap('Site', page.getByRole('navigation').getByRole('link', { name: 'Site' }));
  await tap('Change the phone number', page.getByRole('link', { name: 'Change the phone number' }));
  const phone = page.getByLabel('Phone number', { exact: true });
  await tap('the Phone number field', phone);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('07 555 0777');
  await tap('Save and publish', page.getByRole('button', { name: 'Save and publish' }));
  await expect(page.getByRole('status')).toContainText('Saved and publishing');
  await seeItGoLive(
    page,
    (html) => html.includes('tel:+6475550777') && html.includes('07 555 0777'),
  );
  console.log(`phone number, ${taps.length} taps: ${taps.join(' → ')}`);
  expect(taps.length).toBeLessThanOrEqual(MOST_TAPS);
});

test('a notice: 4 taps from /admin to live', async ({ browser }) => {
  const page = await ownerPage(browser, 'notice@glass.example.nz');
  const notice = 'Closed Waitangi Day, Friday 6 February.';
  await page.goto(`${site.url}/admin`);
  const { taps, tap } = tapper();
  await tap('Site', page.getByRole('navigation').getByRole('link', { name: 'Site' }));
  await tap('Put up a notice', page.getByRole('link', { name: /^Put up a notice/ }));
  await tap('the Notice field', page.getByRole('textbox', { name: 'Notice' }));
  await page.keyboard.type(notice);
  await tap('Save and publish', page.getByRole('button', { name: 'Save and publish' }));
  await seeItGoLive(page, (html) => html.includes(notice));
  console.log(`notice, ${taps.length} taps: ${taps.join(' → ')}`);
  expect(taps.length).toBeLessThanOrEqual(MOST_TAPS);
});

test('a job photo: 5 taps from /admin to live', async ({ browser }) => {
  const page = await ownerPage(browser, 'photo@glass.example.nz');
  const alt = 'A new shower screen fitted in Papamoa';
  const photo = await sharp({
    create: { width: 1200, height: 900, channels: 3, background: '#7a8d9c' },
  })
    .jpeg({ quality: 80 })
    .toBuffer();
  await page.goto(`${site.url}/admin`);
  const { taps, tap } = tapper();
  await tap('Site', page.getByRole('navigation').getByRole('link', { name: 'Site' }));
  const form = page.getByRole('form', { name: 'Add a job photo' });
  // The phone's photo picker opens on the tap; choosing the photo is the next tap.
  const chooser = page.waitForEvent('filechooser');
  await tap('Photo', form.getByLabel('Photo', { exact: true }));
  taps.push('the photo, in the phone’s picker');
  await (await chooser).setFiles({ name: 'IMG_3001.JPG', mimeType: 'image/jpeg', buffer: photo });
  await tap('the Description field', form.getByLabel('Description for screen readers'));
  await page.keyboard.type(alt);
  await tap('Upload and publish', form.getByRole('button', { name: 'Upload and publish' }));
  await expect(page.getByRole('status')).toContainText('Photo uploaded and publishing');
  // The service is the first the form offers (shower installations), left as it is.
  await seeItGoLive(page, (html) => html.includes(alt), '/services/shower-installations');
  console.log(`job photo, ${taps.length} taps: ${taps.join(' → ')}`);
  expect(taps.length).toBeLessThanOrEqual(MOST_TAPS);
});

test('without JavaScript: Publish says it is publishing, and a reload says it is live', async ({
  browser,
}) => {
  const page = await ownerPage(browser, 'nojs@glass.example.nz', false);
  const notice = 'Closed for stocktake on Monday.';
  await page.goto(`${site.url}/admin/site/notice`);
  // The notice already live is on the page too, as visitors see it: the field is the textbox.
  await page.getByRole('textbox', { name: 'Notice' }).fill(notice);
  await page.getByRole('button', { name: 'Save the notice' }).click();
  const bar = page.getByTestId('publish-bar');
  await expect(bar).toContainText('1 change not live yet.');
  await bar.getByRole('button', { name: 'Publish' }).click();
  await expect(page).toHaveURL(/\/admin\/site\/notice\?published=\d+$/);
  await expect(bar).toContainText('Publishing…');
  await expect(bar.getByRole('button', { name: 'Publish' })).toBeHidden();
  await expect
    .poll(
      async () => {
        await page.reload();
        return bar.textContent();
      },
      { timeout: LIVE_WITHIN_MS, intervals: [1000] },
    )
    .toContain('Live');
  expect(await publicHtml('/')).toContain(notice);
});

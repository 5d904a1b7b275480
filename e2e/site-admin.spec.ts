import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import { defaultSiteContent } from '../app/content/site-content.ts';
import { openStore } from '../app/db/open-store.server.ts';
import { axe } from './support/axe.ts';
import { E2E_BUILD_DIR } from './support/env.ts';
import { attachServerLogsOnFailure } from './support/lead-server.ts';
import { startOwnerSite, type OwnerSite } from './support/owner-server.ts';
import { signInAsOwner } from './support/owner-session.ts';

/**
 * /admin/site as an owner uses it (docs/operations.md, "Owner's pages" and
 * "Publishing the site"): a server of its own with its builder beside it,
 * and a BUILD_DIR of its own (a link to the suite's build to start from, so
 * publishing never changes what the other tests are served). The periodic
 * check is an hour apart, so only "Publish" waking the builder can make a
 * change appear within the minute. The tests run in order on one server.
 */

test.describe.configure({ mode: 'serial', timeout: 15 * 60_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

const root = path.resolve(import.meta.dirname, '..');
const PHONE_WIDTH = { width: 390, height: 844 };
const SHOTS = '/tmp/site-admin-shots';
/** From "Publish" to the change served: the promise of docs/operations.md. */
const PUBLISH_WITHIN_MS = 60_000;

const OLD_PHONE = '07 577 0000';
const NEW_PHONE = '07 578 2468';
const OFFER = 'Winter double glazing, 10% off installed';
const ALT = 'A new double-glazed lounge window in Bethlehem';

let site: OwnerSite;
let scratch: string;
const published: number[] = [];

test.beforeAll(async () => {
  // Inside the project: the builds' server bundles find their packages in node_modules.
  scratch = mkdtempSync(path.join(root, 'build-site-admin-test-'));
  const buildDir = path.join(scratch, 'build');
  symlinkSync(realpathSync(path.resolve(root, E2E_BUILD_DIR)), buildDir);
  site = await startOwnerSite({ BUILD_DIR: buildDir, SITE_PUBLISH_INTERVAL_S: '3600' });
});

test.afterAll(async () => {
  await site?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  if (published.length > 0) {
    const sorted = [...published].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    console.log(
      `publish to served: ${published.map((ms) => `${ms} ms`).join(', ')}; median of ${published.length}: ${median} ms`,
    );
  }
});

async function ownerPage(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE_WIDTH });
  await signInAsOwner(context, site.server, email);
  return context.newPage();
}

/** The public page's HTML as a visitor gets it now. */
async function publicHtml(pathname: string): Promise<string> {
  const response = await fetch(`${site.server.url}${pathname}`);
  return response.text();
}

/**
 * Clicks "Publish" (or a "Restore") and waits until the public page shows
 * what it should: the time from the click to the change served is recorded.
 */
async function publishAndWait(
  page: Page,
  button: () => Promise<void>,
  served: (html: string) => boolean,
  pathname = '/',
): Promise<number> {
  const started = Date.now();
  await button();
  await expect(page.getByRole('status').first()).toContainText(/Publishing version|Restoring/);
  await expect
    .poll(async () => served(await publicHtml(pathname)), {
      timeout: PUBLISH_WITHIN_MS,
      intervals: [200],
    })
    .toBe(true);
  const ms = Date.now() - started;
  published.push(ms);
  return ms;
}

async function fillIdentityPhone(page: Page, display: string) {
  await page.goto(`${site.url}/admin/site/identity`);
  await page.getByLabel('Phone number', { exact: true }).fill(display);
  await page.getByRole('button', { name: 'Save business details' }).click();
  await expect(page.getByRole('status')).toContainText('Saved to the draft');
}

async function publish(page: Page) {
  await page.goto(`${site.url}/admin/site`);
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
}

test('edit, publish, find it on the public pages, and restore', async ({ browser }) => {
  const page = await ownerPage(browser, 'kiri@glass.example.nz');

  // Version 1: the old phone number, the business's own.
  await fillIdentityPhone(page, OLD_PHONE);
  await page.goto(`${site.url}/admin/site`);
  await expect(page.getByTestId('section-identity')).toContainText('Not live yet');
  await expect(page.getByTestId('preview')).toContainText('Business details: every page');
  await publishAndWait(
    page,
    () => publish(page),
    (html) => html.includes(OLD_PHONE),
  );
  await page.goto(`${site.url}/admin/site`);
  await expect(page.getByTestId('publishing-state')).toContainText('Version 1 is live');
  await expect(page.getByTestId('section-identity')).toContainText('Live');

  // Version 2: a new phone number, an offer and a job photo.
  await fillIdentityPhone(page, NEW_PHONE);

  await page.goto(`${site.url}/admin/site/offers/new`);
  await page.getByLabel('Offer title').fill(OFFER);
  await page.getByLabel('Discount', { exact: true }).fill('10% off');
  await page.getByLabel('Valid until').fill('2099-06-30');
  await page
    .getByLabel('Terms', { exact: true })
    .fill('Orders of double glazing over $3,000, GST inclusive.');
  await page.getByLabel('Button text').fill('Get a quote');
  await page.getByRole('button', { name: 'Add the offer' }).click();
  await expect(page.getByRole('status')).toContainText('Saved to the draft');
  await expect(page.getByTestId('offer-item').filter({ hasText: OFFER })).toBeVisible();

  const photo = await sharp({
    create: { width: 1600, height: 1200, channels: 3, background: '#5a7d8c' },
  })
    .jpeg({ quality: 80 })
    .toBuffer();
  await page.goto(`${site.url}/admin/site/photos`);
  await page.getByLabel('Photo', { exact: true }).setInputFiles({
    name: 'IMG_2041.JPG',
    mimeType: 'image/jpeg',
    buffer: photo,
  });
  await page.getByLabel('Service', { exact: true }).selectOption('windows');
  await page.getByLabel('Description for screen readers').fill(ALT);
  await page.getByRole('button', { name: 'Upload the photo' }).click();
  await expect(page.getByRole('status')).toContainText('Uploaded and added to the draft');
  await expect(page.getByTestId('job-photo').getByRole('img', { name: ALT })).toBeVisible();

  await page.goto(`${site.url}/admin/site`);
  const preview = page.getByTestId('preview');
  await expect(preview).toContainText(
    'Job photos: the Windows & Double Glazing page (Recent work)',
  );
  await expect(preview.getByRole('heading', { name: OFFER })).toBeVisible();
  await publishAndWait(
    page,
    () => publish(page),
    (html) => html.includes(NEW_PHONE) && html.includes(OFFER),
  );

  // The live pages: the phone in the header and footer, the offer, the photo.
  const visitor = await browser.newPage();
  await visitor.goto(`${site.server.url}/`);
  await expect(visitor.locator('.site-header')).toContainText(NEW_PHONE);
  await expect(visitor.locator('footer')).toContainText(NEW_PHONE);
  await expect(visitor.getByRole('heading', { name: OFFER })).toBeAttached();
  await visitor.goto(`${site.server.url}/services/windows`);
  const recent = visitor.getByRole('region', { name: 'Recent work' });
  const image = recent.getByRole('img', { name: ALT });
  await expect(image).toHaveAttribute('width', /^\d+$/);
  await expect(image).toHaveAttribute('height', /^\d+$/);
  await expect(recent.locator('source[type="image/avif"]')).toHaveAttribute('srcset', /\.avif /);
  await expect(recent.locator('source[type="image/webp"]')).toHaveAttribute('srcset', /\.webp /);
  await image.scrollIntoViewIfNeeded();
  await expect
    .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth))
    .toBeGreaterThan(0);

  // Restore version 1: the old phone number comes back, the offer goes.
  await page.goto(`${site.url}/admin/site`);
  await expect(page.getByTestId('publishing-state')).toContainText('Version 2 is live');
  const versionOne = page.getByTestId('version-row').filter({ hasText: 'Version 1:' });
  await publishAndWait(
    page,
    () => versionOne.getByRole('button', { name: 'Restore version 1' }).click(),
    (html) => html.includes(OLD_PHONE) && !html.includes(NEW_PHONE) && !html.includes(OFFER),
  );
  await page.goto(`${site.url}/admin/site`);
  await expect(page.getByTestId('publishing-state')).toContainText('Version 3 is live');
  await expect(page.getByTestId('version-row').first()).toContainText('restores version 1');
  // The draft is version 1 again: nothing to publish.
  await expect(page.getByTestId('preview')).toContainText(
    'Nothing: visitors see everything you saved.',
  );

  // Two more publishes, for the median of five: a notice, then without it.
  const notice = 'Closed Labour Day, Monday 26 October; emergency calls answered as usual.';
  await page.goto(`${site.url}/admin/site/notice`);
  await page.getByLabel('Notice', { exact: true }).fill(notice);
  await page.getByRole('button', { name: 'Save the notice' }).click();
  await expect(page.getByRole('status')).toContainText('Saved to the draft');
  await publishAndWait(
    page,
    () => publish(page),
    (html) => html.includes('Closed Labour Day'),
  );
  await page.goto(`${site.url}/admin/site/notice`);
  await page.getByRole('button', { name: 'Remove the notice' }).click();
  await expect(page.getByRole('status')).toContainText('Removed from the draft');
  await publishAndWait(
    page,
    () => publish(page),
    (html) => !html.includes('Closed Labour Day'),
  );

  // Every step is in the activity list, by section and version only.
  await page.goto(`${site.url}/admin/activity`);
  const activity = page.getByTestId('activity-row');
  await expect(activity.filter({ hasText: 'published the site as version 2' })).toHaveCount(1);
  await expect(
    activity.filter({ hasText: 'brought back version 1 of the site, as version 3' }),
  ).toHaveCount(1);
  await expect(activity.filter({ hasText: 'uploaded a job photo' })).toHaveCount(1);
  await expect(activity.filter({ hasText: 'The site’s version 2 is live' })).toHaveCount(1);
  await expect(
    activity.filter({ hasText: 'saved changes to the offers, not yet published' }),
  ).toHaveCount(1);
  await expect(page.locator('main')).not.toContainText(OFFER);
  await expect(page.locator('main')).not.toContainText(NEW_PHONE);
  expect(published).toHaveLength(5);
  for (const ms of published) expect(ms).toBeLessThan(PUBLISH_WITHIN_MS);
});

test('a save made meanwhile by another owner is refused, and theirs is shown', async ({
  browser,
}) => {
  const first = await ownerPage(browser, 'aroha@glass.example.nz');
  const second = await ownerPage(browser, 'tane@glass.example.nz');
  // Both open the same section.
  await first.goto(`${site.url}/admin/site/identity`);
  await second.goto(`${site.url}/admin/site/identity`);
  await first.getByLabel('Business name').fill('Aroha’s Glass');
  await first.getByRole('button', { name: 'Save business details' }).click();
  await expect(first.getByRole('status')).toContainText('Saved to the draft');

  await second.getByLabel('Business name').fill('Tāne’s Glass');
  await second.getByRole('button', { name: 'Save business details' }).click();
  const conflict = second.getByTestId('conflict');
  await expect(conflict).toContainText(
    'Not saved: aroha@glass.example.nz saved the business details',
  );
  // The form shows what the first owner saved; nothing was overwritten.
  await expect(second.getByLabel('Business name')).toHaveValue('Aroha’s Glass');
  await first.reload();
  await expect(first.getByLabel('Business name')).toHaveValue('Aroha’s Glass');

  // An error names its field, beside it and in the summary.
  await second.getByLabel('Postcode').fill('31');
  await second.getByRole('button', { name: 'Save business details' }).click();
  const postcode = second.getByLabel('Postcode');
  await expect(postcode).toHaveAttribute('aria-invalid', 'true');
  await expect(postcode).toHaveAccessibleDescription(/Postcode: four digits/);
  await expect(second.getByTestId('form-errors').getByRole('link')).toHaveText(
    'Postcode: four digits, such as 3110',
  );
});

test('every /admin/site page at a phone’s width: axe clean, 44 px targets, screenshots', async ({
  browser,
}) => {
  mkdirSync(SHOTS, { recursive: true });
  const page = await ownerPage(browser, 'kiri@glass.example.nz');
  // A draft that differs from what is live, for the preview.
  await page.goto(`${site.url}/admin/site/notice`);
  await page.getByLabel('Notice', { exact: true }).fill('Closed 25 and 26 December.');
  await page.getByRole('button', { name: 'Save the notice' }).click();
  await expect(page.getByRole('status')).toContainText('Saved to the draft');
  const pages = [
    ['site', '/admin/site'],
    ['identity', '/admin/site/identity'],
    ['hours', '/admin/site/hours'],
    ['offers', '/admin/site/offers'],
    ['offer-new', '/admin/site/offers/new'],
    ['testimonials', '/admin/site/testimonials'],
    ['testimonial-1', '/admin/site/testimonials/1'],
    ['notice', '/admin/site/notice'],
    ['photos', '/admin/site/photos'],
  ] as const;
  for (const [name, pathname] of pages) {
    await page.goto(`${site.url}${pathname}`);
    const result = await axe(page);
    expect(result.violations, pathname).toEqual([]);
    const small = await page
      .locator('main :is(a, button, input, select, textarea, summary):visible')
      .evaluateAll((elements) =>
        elements
          .filter((element) => !element.closest('p, .offer-card, .testimonial-card'))
          .map((element) => ({ element, box: element.getBoundingClientRect() }))
          .filter(({ element, box }) =>
            element instanceof HTMLInputElement && element.type === 'checkbox'
              ? (element.closest('label')?.getBoundingClientRect().height ?? 0) < 44
              : box.height < 44,
          )
          .map(({ element }) => element.outerHTML.slice(0, 120)),
      );
    expect(small, pathname).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
    const wide = await page.evaluate((limit) => {
      return [...document.querySelectorAll('main *')]
        .filter((element) => element.getBoundingClientRect().right > limit)
        .map((element) => element.outerHTML.slice(0, 100));
    }, PHONE_WIDTH.width);
    expect(wide, `${pathname} scrolls sideways`).toEqual([]);
  }
});

test('with several hosts, says which serves which version, and names the one that failed', async ({
  browser,
}) => {
  // Two machines on one database: version N live on one, failed on the other.
  const store = await openStore({ dataDir: site.env.DATA_DIR! });
  let version: number;
  try {
    const live = await store.newestLiveSiteContent();
    ({ version } = await store.createSiteContentVersion(live?.content ?? defaultSiteContent, null));
    await store.recordSiteBuild(version, 'glass-web-1', 'live');
    await store.recordSiteBuild(
      version,
      'glass-web-2',
      'failed',
      'ENOSPC: no space left on device',
    );
  } finally {
    await store.close();
  }
  const page = await ownerPage(browser, 'hosts@glass.example.nz');
  mkdirSync(SHOTS, { recursive: true });
  await page.goto(`${site.url}/admin/site`);
  const state = page.getByTestId('publishing-state');
  await expect(state).toContainText(`Version ${version} is live`);
  await expect(state.getByTestId('hosts')).toContainText(
    new RegExp(`Server \\d \\(glass-web-1\\): version ${version}`),
  );
  await expect(state.getByTestId('hosts')).toContainText(
    /Server \d \(glass-web-2\): an earlier version/,
  );
  await expect(state).toContainText(
    /It did not go live on Server \d \(glass-web-2\), which still shows an earlier version and tries again within 10 minutes/,
  );
  await expect(state).toContainText('ENOSPC: no space left on device');
  await expect(page.getByTestId('version-row').first()).toContainText(
    /Live on Server \d \(glass-web-1\); did not go live on Server \d \(glass-web-2\)\./,
  );
  expect((await axe(page)).violations).toEqual([]);
  await page.screenshot({ path: path.join(SHOTS, 'site-hosts.png'), fullPage: true });
});

import { mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { makeLead } from '../app/db/leads/leads.contract.ts';
import { openStore } from '../app/db/open-store.server.ts';
import type { LeadRecord } from '../app/db/store.server.ts';
import { axe } from './support/axe.ts';
import { E2E_BUILD_DIR } from './support/env.ts';
import { attachServerLogsOnFailure } from './support/lead-server.ts';
import { startOwnerSite, type OwnerSite } from './support/owner-server.ts';
import { signInAsOwner } from './support/owner-session.ts';

/**
 * A won customer's review from the owner's ask to the home page
 * (docs/operations.md, "Reviews from customers"), on a server with its
 * builder beside it and a BUILD_DIR of its own, as e2e/site-admin.spec.ts
 * runs: the owner taps "Ask for a review" on a won enquiry, the e-mail
 * reaches the SMTP stand-in, the customer opens its link with JavaScript
 * off and sends a review; the owner publishes one review and declines
 * another, and the published one is on / within the minute, the declined
 * one never. The periodic check is an hour apart, so only the tap can make
 * it appear in time.
 */

test.describe.configure({ mode: 'serial', timeout: 15 * 60_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

const root = path.resolve(import.meta.dirname, '..');
const PHONE_WIDTH = { width: 390, height: 844 };
/** From "Publish" to the review served: the promise of docs/operations.md. */
const PUBLISH_WITHIN_MS = 60_000;

const KEPT =
  'Took a week to hear back, but the new shopfront glass went in on the day they said and looks great.';
const DECLINED =
  'The parking outside was terrible and the café next door was closed, so I am not impressed.';

let site: OwnerSite;
let scratch: string;

test.beforeAll(async () => {
  // Inside the project: the builds' server bundles find their packages in node_modules.
  scratch = mkdtempSync(path.join(root, 'build-reviews-test-'));
  const buildDir = path.join(scratch, 'build');
  symlinkSync(realpathSync(path.resolve(root, E2E_BUILD_DIR)), buildDir);
  site = await startOwnerSite({ BUILD_DIR: buildDir, SITE_PUBLISH_INTERVAL_S: '3600' });
});

test.afterAll(async () => {
  await site?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** A won enquiry in the site's store, as the owner's stage form leaves it. */
async function wonLead(fields: Partial<LeadRecord>): Promise<LeadRecord> {
  const store = await openStore({ dataDir: site.env.DATA_DIR ?? '' });
  try {
    const lead = makeLead(fields);
    await store.insertLead(lead, []);
    await store.saveLeadTracking(lead.id, 0, { stage: 'won' });
    return lead;
  } finally {
    await store.close();
  }
}

/** The public page's HTML as a visitor gets it now. */
async function publicHtml(pathname: string): Promise<string> {
  const response = await fetch(`${site.server.url}${pathname}`);
  return response.text();
}

/** The review link in the e-mail to `to`, once the SMTP stand-in has it. */
async function reviewLinkMailed(to: string, after: number): Promise<string> {
  const pattern = new RegExp(`${site.url}/review/[A-Za-z0-9_-]{43}`);
  for (;;) {
    await site.smtp.waitForMessages(after + 1);
    const mail = site.smtp.messages
      .slice(after)
      .find(
        (message) => message.envelope.to.includes(to) && pattern.test(message.parsed.text ?? ''),
      );
    if (mail) return pattern.exec(mail.parsed.text ?? '')![0];
    after = site.smtp.messages.length;
  }
}

/** The owner taps "Ask for a review" on the won enquiry; the link the customer gets. */
async function askForReview(page: Page, lead: LeadRecord): Promise<string> {
  const mailed = site.smtp.messages.length;
  await page.goto(`${site.url}/admin/leads/${lead.id}`);
  await page.getByRole('button', { name: 'Ask for a review' }).click();
  await page.waitForLoadState('load');
  return reviewLinkMailed(lead.email, mailed);
}

/** The customer opens the link with JavaScript off and sends a review. */
async function sendReview(
  browser: Browser,
  link: string,
  review: { rating: number; text: string; name: string; suburb: string },
): Promise<void> {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE_WIDTH });
  try {
    const page = await context.newPage();
    await page.goto(link);
    await page.locator(`input[name="rating"][value="${review.rating}"]`).check();
    await page.locator('textarea[name="review"]').fill(review.text);
    await page.locator('input[name="name"]').fill(review.name);
    await page.locator('input[name="suburb"]').fill(review.suburb);
    await page.locator('input[name="consent"]').check();
    await page.locator('main form button[type="submit"]').click();
    await page.waitForLoadState('load');
    await expect(page.getByRole('heading', { level: 1 })).toContainText(/thank/i);
  } finally {
    await context.close();
  }
}

test('a won customer’s review: asked, sent without JavaScript, published, declined', async ({
  browser,
}) => {
  const ownerContext = await browser.newContext({ viewport: PHONE_WIDTH });
  await signInAsOwner(ownerContext, site.server, 'kiri@glass.example.nz');
  const owner = await ownerContext.newPage();

  const kept = await wonLead({
    name: 'Tama Rangi',
    email: 'tama@example.co.nz',
    service: 'Business Glass',
  });
  const declined = await wonLead({ name: 'Mere Pōtae', email: 'mere@example.co.nz' });
  await sendReview(browser, await askForReview(owner, kept), {
    rating: 3,
    text: KEPT,
    name: 'Tama R.',
    suburb: 'Mount Maunganui',
  });
  await sendReview(browser, await askForReview(owner, declined), {
    rating: 2,
    text: DECLINED,
    name: 'Mere P.',
    suburb: 'Pāpāmoa',
  });

  // The inbox says two reviews wait, and leads there; the navigation still fits a phone.
  await owner.goto(`${site.url}/admin`);
  await expect(owner.getByTestId('reviews-waiting')).toHaveText('2 reviews waiting');
  const overflow = await owner.evaluate(() => {
    const nav = document.querySelector('.admin-nav')!;
    return {
      page: document.documentElement.scrollWidth,
      nav: nav.scrollWidth - nav.clientWidth,
    };
  });
  expect(overflow).toEqual({ page: 390, nav: 0 });
  await owner.getByTestId('reviews-waiting').click();
  await expect(owner).toHaveURL(`${site.url}/admin/site/testimonials`);

  // Each waiting review: as the home page would show it, when, and its enquiry.
  const waiting = owner.getByTestId('waiting-review');
  await expect(waiting).toHaveCount(2);
  const first = waiting.filter({ hasText: 'Tama R.' });
  await expect(first).toContainText('Business Owner, Mount Maunganui');
  await expect(first.getByRole('img', { name: 'Rated 3 out of 5' })).toBeVisible();
  await expect(first.getByRole('link', { name: 'The enquiry from Tama Rangi' })).toHaveAttribute(
    'href',
    `/admin/leads/${kept.id}`,
  );
  // Its heading under the page's, never larger.
  const headings = await owner.evaluate(() =>
    ['main h1', '#waiting-heading'].map((selector) =>
      parseFloat(getComputedStyle(document.querySelector(selector)!).fontSize),
    ),
  );
  expect(headings[1]).toBeLessThan(headings[0]!);
  await expect(owner.getByTestId('low-rating-rule')).toContainText(
    'A low rating is never a reason to decline',
  );
  await expect(owner.getByTestId('samples-still-shown')).toContainText(
    'A real review you publish joins them',
  );
  expect((await axe(owner)).violations).toEqual([]);
  // Every button and choice at least 44 × 44 px on a phone.
  const small = await owner
    .locator('[data-testid="waiting-review"] :is(button, label.admin-check, a)')
    .evaluateAll((elements) =>
      elements
        .map((element) => element.getBoundingClientRect())
        .filter((box) => box.height < 44 || box.width < 44)
        .map((box) => `${Math.round(box.width)}×${Math.round(box.height)}`),
    );
  expect(small).toEqual([]);

  // Without JavaScript, as plain form posts: decline one with a reason, publish the other.
  const plainContext = await browser.newContext({
    viewport: PHONE_WIDTH,
    javaScriptEnabled: false,
  });
  await signInAsOwner(plainContext, site.server, 'sam@glass.example.nz');
  const plain = await plainContext.newPage();
  await plain.goto(`${site.url}/admin/site/testimonials`);
  const toDecline = plain.getByTestId('waiting-review').filter({ hasText: 'Mere P.' });
  await toDecline.getByLabel('It is not about our work').check();
  await toDecline.getByRole('button', { name: /^Decline/ }).click();
  await expect(
    plain.getByRole('status').filter({ hasText: 'Declined: the review will not be on the site.' }),
  ).toHaveCount(1);
  await expect(plain.getByTestId('waiting-review')).toHaveCount(1);

  const started = Date.now();
  await plain
    .getByTestId('waiting-review')
    .getByRole('button', { name: /^Publish/ })
    .click();
  await expect(plain.getByRole('status').first()).toContainText('Published');
  await expect(plain.getByTestId('waiting-reviews')).toHaveCount(0);
  await expect
    .poll(async () => (await publicHtml('/')).includes(KEPT), {
      timeout: PUBLISH_WITHIN_MS,
      intervals: [200],
    })
    .toBe(true);
  console.log(`review published to served in ${Date.now() - started} ms`);
  const home = await publicHtml('/');
  expect(home).toContain('Tama R.');
  expect(home).not.toContain(DECLINED);
  // Nothing of the enquiry on the public page.
  expect(home).not.toContain(kept.id);
  expect(home).not.toContain('tama@example.co.nz');

  // In the draft's list, the published review names its enquiry.
  await expect(
    plain
      .getByTestId('testimonial-item')
      .filter({ hasText: 'Tama R.' })
      .getByRole('link', { name: 'The enquiry from Tama Rangi' }),
  ).toHaveAttribute('href', `/admin/leads/${kept.id}`);

  // The declined review is in no version and not in the draft.
  const store = await openStore({ dataDir: site.env.DATA_DIR ?? '' });
  try {
    const versions = await store.listSiteContentVersions(10);
    expect(JSON.stringify(versions)).not.toContain(DECLINED);
    expect(JSON.stringify(await store.siteContentDraft())).not.toContain(DECLINED);
    expect(versions[0]!.content.testimonials.at(-1)).toMatchObject({
      name: 'Tama R.',
      role: 'Business Owner',
      permission: true,
      leadId: kept.id,
    });
  } finally {
    await store.close();
  }

  // Both are in the activity list, each linking to its enquiry.
  await owner.goto(`${site.url}/admin/activity`);
  const rows = owner.getByTestId('activity-row');
  await expect(
    rows.filter({ hasText: 'Sam published a customer’s review on the site' }),
  ).toHaveCount(1);
  await expect(
    rows.filter({
      hasText: 'Sam declined a customer’s review, not to be published: it is not about our work.',
    }),
  ).toHaveCount(1);
  // No more reviews wait: the inbox says nothing of them.
  await owner.goto(`${site.url}/admin`);
  await expect(owner.getByTestId('reviews-waiting')).toHaveCount(0);
  await plainContext.close();
  await ownerContext.close();
});

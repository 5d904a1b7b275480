import { randomBytes } from 'node:crypto';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { openStore } from '../app/db/open-store.server.ts';
import {
  startSmtpServer,
  type TestSmtpServer,
} from '../app/leads/testing/smtp-test-support.server.ts';
import { axe } from './support/axe.ts';
import { freePort } from './support/free-port.ts';
import {
  attachServerLogsOnFailure,
  startSiteServer,
  tempDataDir,
  type SiteServer,
} from './support/lead-server.ts';
import { signInAsOwner } from './support/owner-session.ts';

/**
 * Asking a won customer for a review and the customer's review page
 * (docs/operations.md, "Reviews"), both without JavaScript: the owner marks
 * an enquiry won and taps "Ask for a review"; the e-mail reaches a real SMTP
 * server on loopback; the customer opens its link, is told what is wrong
 * with what they typed, sends a review once, and the link then says it was
 * used (410). An unknown link is a 404; neither is ever indexed. The tests
 * run in order on one server.
 */

test.describe.configure({ mode: 'serial', timeout: 240_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

const PHONE_WIDTH = { width: 390, height: 844 };
const CUSTOMER = { name: 'Aroha Ngata', email: 'aroha.reviews@example.nz' };

let server: SiteServer;
let smtp: TestSmtpServer;
let data: ReturnType<typeof tempDataDir>;
let site: string;
let leadId: string;
let link: string;

test.beforeAll(async () => {
  smtp = await startSmtpServer();
  data = tempDataDir();
  const port = await freePort();
  site = `http://localhost:${port}`;
  server = await startSiteServer({
    PORT: String(port),
    SITE_URL: site,
    DATA_DIR: data.dir,
    LEAD_EMAIL_TO: 'office@glass.example.nz',
    LEAD_EMAIL_FROM: 'website@glass.example.nz',
    SMTP_URL: smtp.url,
  });
  const response = await fetch(`${server.url}/api/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      ...CUSTOMER,
      phone: '021 555 0142',
      service: 'Windows',
      message: 'The ranch slider glass is cracked right across',
      source: 'quote_form',
    }),
  });
  expect(response.status).toBe(201);
  leadId = ((await response.json()) as { id: string }).id;
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  data?.remove();
});

async function withoutJavaScript(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE_WIDTH });
  return context.newPage();
}

/**
 * axe at 390 and 1280 px over what `page` shows. axe runs in the page, so in
 * a context of its own with JavaScript, the same cookies, the same address,
 * and `act` done again there for a state a post brought.
 */
async function expectAxeClean(
  page: Page,
  act: (page: Page) => Promise<unknown> = async () => undefined,
): Promise<void> {
  const context = await page
    .context()
    .browser()!
    .newContext({ viewport: PHONE_WIDTH, storageState: await page.context().storageState() });
  try {
    const scripted = await context.newPage();
    await scripted.goto(page.url());
    await act(scripted);
    for (const viewport of [PHONE_WIDTH, { width: 1280, height: 800 }]) {
      await scripted.setViewportSize(viewport);
      const results = await axe(scripted);
      expect(
        results.violations.map(
          (violation) =>
            `${viewport.width}: ${violation.id} ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
        ),
      ).toEqual([]);
    }
  } finally {
    await context.close();
  }
}

test('the owner asks a won customer for a review with one tap, without JavaScript', async ({
  browser,
}) => {
  const page = await withoutJavaScript(browser);
  await signInAsOwner(page.context(), server, 'ana@glass.example.nz');
  const here = `${site}/admin/leads/${leadId}`;
  await page.goto(here);
  // Not won yet: nothing to ask.
  await expect(page.getByTestId('review-ask')).toHaveCount(0);
  await page.getByLabel('Stage', { exact: true }).selectOption('won');
  await page.getByRole('button', { name: 'Save stage and note' }).click();
  const section = page.getByTestId('review-ask');
  await expect(section).toBeVisible();
  const ask = section.getByRole('button', { name: 'Ask for a review' });
  const box = await ask.boundingBox();
  expect(box?.height).toBeGreaterThanOrEqual(44);
  await expectAxeClean(page);

  const before = smtp.messages.length;
  await ask.click();
  await expect(page).toHaveURL(/done=review-asked/);
  await expect(page.getByRole('status')).toHaveText(
    'Review request sent. Their link works for 30 days.',
  );
  await expect(section).toContainText(/Asked on \d{1,2} [A-Z][a-z]+\./);
  await expect(section.getByRole('button', { name: 'Ask again' })).toBeVisible();
  // Asked: asking again is no longer the main thing to do, so not the filled button.
  const filled = await page
    .getByRole('button', { name: 'Save stage and note' })
    .evaluate((button) => getComputedStyle(button).backgroundColor);
  expect(
    await section
      .getByRole('button', { name: 'Ask again' })
      .evaluate((button) => getComputedStyle(button).backgroundColor),
  ).not.toBe(filled);
  await expectAxeClean(page);

  let mail = smtp.messages.slice(before).find((m) => m.envelope.to.includes(CUSTOMER.email));
  while (!mail) {
    await smtp.waitForMessages(smtp.messages.length + 1);
    mail = smtp.messages.slice(before).find((m) => m.envelope.to.includes(CUSTOMER.email));
  }
  expect(mail.parsed.text).toContain('Kia ora Aroha,');
  const found = new RegExp(`${site}/review/[A-Za-z0-9_-]{43}`).exec(mail.parsed.text ?? '');
  expect(found).not.toBeNull();
  link = found![0];

  // The activity list says who asked.
  await page.goto(`${site}/admin/activity`);
  await expect(page.getByText('Ana asked a customer for a review.')).toBeVisible();
  await page.context().close();
});

test('the customer is told what to fix, then sends a review once, without JavaScript', async ({
  browser,
}) => {
  const page = await withoutJavaScript(browser);
  const opened = await page.goto(link);
  expect(opened?.status()).toBe(200);
  expect(opened?.headers()['x-robots-tag']).toBe('noindex');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Your review of');
  await expect(page.getByRole('textbox', { name: 'Name to show' })).toHaveValue('Aroha N.');
  for (const rating of [1, 2, 3, 4, 5]) {
    const radio = page.getByRole('radio', { name: rating === 1 ? '1 star' : `${rating} stars` });
    await expect(radio).not.toBeChecked();
    const label = page.locator(`label[for="review-rating-${rating}"]`);
    expect((await label.boundingBox())?.height).toBeGreaterThanOrEqual(44);
  }
  // One under the other on a phone, all five in one row on a desk: never three and two.
  const ratingRows = async () =>
    new Set(
      await page
        .locator('label[for^="review-rating-"]')
        .evaluateAll((labels) => labels.map((label) => label.getBoundingClientRect().top)),
    ).size;
  expect(await ratingRows()).toBe(5);
  await page.setViewportSize({ width: 1280, height: 800 });
  expect(await ratingRows()).toBe(1);
  // Each in one line, within its box.
  const cramped = await page.locator('label[for^="review-rating-"] span').evaluateAll((spans) =>
    spans
      .filter((span) => {
        const range = document.createRange();
        range.selectNodeContents(span);
        const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
        const label = span.parentElement!;
        return lines.size !== 1 || label.scrollWidth > label.clientWidth;
      })
      .map((span) => span.textContent),
  );
  expect(cramped).toEqual([]);
  await page.setViewportSize(PHONE_WIDTH);
  await expectAxeClean(page);

  // Everything wrong at once: no rating, too short, no name, no suburb, no consent.
  await page.getByRole('textbox', { name: 'Your review' }).fill('Good job.');
  await page.getByRole('textbox', { name: 'Name to show' }).fill('');
  const refused = page.waitForResponse((r) => r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Send my review' }).click();
  expect((await refused).status()).toBe(400);
  await expect(page.getByRole('alert')).toHaveText('Please check the fields marked below.');
  await expect(page.locator('#review-rating-error')).toHaveText(
    'Please choose a rating from 1 to 5 stars',
  );
  await expect(page.getByRole('textbox', { name: 'Your review' })).toHaveAccessibleDescription(
    /Please write at least 20 characters about the job/,
  );
  await expect(page.getByRole('textbox', { name: 'Your review' })).toHaveValue('Good job.');
  await expect(page.getByRole('textbox', { name: 'Name to show' })).toHaveAccessibleDescription(
    /Please enter the name to show/,
  );
  await expect(page.getByRole('textbox', { name: 'Suburb or town' })).toHaveAccessibleDescription(
    'Please enter your suburb or town',
  );
  await expect(page.locator('#review-consent-error')).toHaveText(
    'Please tick the box to let us publish your review',
  );
  // Each message right under its field (or the field's hint), not a line's gap away.
  for (const [above, message] of [
    ['#review-text-hint', '#review-text-error'],
    ['#review-suburb', '#review-suburb-error'],
  ] as const) {
    const upper = (await page.locator(above).boundingBox())!;
    const lower = (await page.locator(message).boundingBox())!;
    expect(lower.y - (upper.y + upper.height), message).toBeLessThanOrEqual(8);
  }
  await expect(page.getByRole('textbox', { name: 'Your review' })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await expectAxeClean(page, async (scripted) => {
    await scripted.goto(link);
    await scripted.getByRole('textbox', { name: 'Your review' }).fill('Good job.');
    await scripted.getByRole('button', { name: 'Send my review' }).click();
    await expect(scripted.getByRole('alert')).toHaveText('Please check the fields marked below.');
  });

  // Corrected: the entered values were kept, so only the rest is filled in.
  await page.getByRole('radio', { name: '2 stars' }).check();
  await page
    .getByRole('textbox', { name: 'Your review' })
    .fill('Good job. They came when they said and the new slider glass fits well.');
  await page.getByRole('textbox', { name: 'Name to show' }).fill('Aroha N.');
  await page.getByRole('textbox', { name: 'Suburb or town' }).fill('Bethlehem');
  await page.getByRole('checkbox').check();
  const sent = page.waitForResponse((r) => r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Send my review' }).click();
  expect((await sent).status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you for your review');
  // No promise the owner may not keep: a review can be declined for a stated reason.
  await expect(page.getByTestId('review-sent')).toContainText(
    'unless it is offensive, gives someone’s personal details or is not about our work',
  );

  const store = await openStore({ dataDir: data.dir, databaseUrl: undefined });
  try {
    const waiting = await store.listWaitingReviews();
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({
      lead_id: leadId,
      review: {
        rating: 2,
        text: 'Good job. They came when they said and the new slider glass fits well.',
        display_name: 'Aroha N.',
        suburb: 'Bethlehem',
        decision: 'waiting',
      },
    });
  } finally {
    await store.close();
  }

  // The same link afterwards: used, kindly, with the phone.
  const again = await page.goto(link);
  expect(again?.status()).toBe(410);
  expect(again?.headers()['x-robots-tag']).toBe('noindex');
  await expect(page.getByTestId('review-used')).toBeVisible();
  await expect(page.getByRole('link', { name: /^0/ }).first()).toHaveAttribute('href', /^tel:/);
  // The phone number is never split over two lines.
  for (const tel of await page.locator('main a[href^="tel:"]').all()) {
    expect(await tel.evaluate((link) => link.getClientRects().length)).toBe(1);
  }
  await expectAxeClean(page);
  await page.context().close();
});

test('"Ask again" sends a new link, and with JavaScript the review carries a proof of work', async ({
  browser,
}) => {
  const owner = await withoutJavaScript(browser);
  await signInAsOwner(owner.context(), server, 'kiri@glass.example.nz');
  await owner.goto(`${site}/admin/leads/${leadId}`);
  const before = smtp.messages.length;
  await owner.getByTestId('review-ask').getByRole('button', { name: 'Ask again' }).click();
  await expect(owner.getByRole('status')).toHaveText(
    'Review request sent. Their link works for 30 days.',
  );
  await owner.context().close();
  const pattern = new RegExp(`${site}/review/[A-Za-z0-9_-]{43}`);
  let mail = smtp.messages.slice(before).find((m) => m.envelope.to.includes(CUSTOMER.email));
  while (!mail) {
    await smtp.waitForMessages(smtp.messages.length + 1);
    mail = smtp.messages.slice(before).find((m) => m.envelope.to.includes(CUSTOMER.email));
  }
  const again = pattern.exec(mail.parsed.text ?? '')![0];
  expect(again).not.toBe(link);

  const context = await browser.newContext({ viewport: PHONE_WIDTH });
  const page = await context.newPage();
  await page.goto(again);
  await page.getByRole('radio', { name: '5 stars' }).check();
  await page
    .getByRole('textbox', { name: 'Your review' })
    .fill('Second job, a new mirror for the hallway, just as good as the first.');
  await page.getByRole('textbox', { name: 'Suburb or town' }).fill('Bethlehem');
  await page.getByRole('checkbox').check();
  const sent = page.waitForRequest((request) => request.method() === 'POST');
  await page.getByRole('button', { name: 'Send my review' }).click();
  const proof = new URLSearchParams((await sent).postData() ?? '').get('altcha');
  expect(proof).toMatch(/^[A-Za-z0-9+/=]{40,}$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you for your review');
  await context.close();
});

test('an unknown link is a kind 404, and no review link is ever indexed', async ({
  browser,
  request,
}) => {
  const page = await withoutJavaScript(browser);
  for (const token of [randomBytes(32).toString('base64url'), 'not-a-token']) {
    const answer = await page.goto(`${site}/review/${token}`);
    expect(answer?.status()).toBe(404);
    expect(answer?.headers()['x-robots-tag']).toBe('noindex');
    await expect(page.getByTestId('review-unknown')).toContainText('call us on');
  }
  await expectAxeClean(page);
  await page.context().close();

  const robots = await (await request.get(`${server.url}/robots.txt`)).text();
  expect(robots).toContain('Disallow: /review/');
  const sitemap = await (await request.get(`${server.url}/sitemap.xml`)).text();
  expect(sitemap).toContain('<loc>');
  expect(sitemap).not.toContain('/review');
});

import { expect, test, type Page } from '@playwright/test';
import { NO_ATTRIBUTION } from '../app/leads/intake/attribution.ts';
import { startReceiver, type Receiver } from '../app/leads/testing/test-support.server.ts';
import {
  attachServerLogsOnFailure,
  exportLeads,
  startSiteServer,
  tempDataDir,
  uniqueToken,
  type SiteServer,
} from './support/lead-server.ts';

/**
 * Where an enquiry came from, in Chromium
 * (docs/operations.md#where-enquiries-come-from): the site module keeps the
 * visit's first page, its referring host and its campaign tags in
 * sessionStorage; the quote form sends them; the lead, its export and the
 * webhook carry them. Without JavaScript only the form's page is known, and
 * a browser that refuses storage still shows every page and sends the form.
 */

let server: SiteServer;
let data: ReturnType<typeof tempDataDir>;
let receiver: Receiver;

test.beforeAll(async () => {
  receiver = await startReceiver('ok');
  data = tempDataDir();
  server = await startSiteServer({
    DATA_DIR: data.dir,
    LEAD_WEBHOOK_URLS: receiver.url,
    LEAD_ACCEPT: 'webhook',
  });
});

test.afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  data?.remove();
});

// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

const GCLID = 'Cj0KCQiA-e2eTestClickId_123';
const AD_LANDING = `/?utm_source=google&utm_medium=cpc&utm_campaign=showers&gclid=${GCLID}`;

async function ready(page: Page) {
  await expect(page.locator('html[data-ready]')).toBeAttached();
}

/** Fills the quote page's form with a token to find its lead by. */
async function fillQuote(page: Page, token: string) {
  const form = page.locator('form[data-quote-form]');
  await form.getByLabel('Name', { exact: true }).fill(`Tama ${token}`);
  await form.getByLabel('Email', { exact: true }).fill(`tama.${token}@example.nz`);
  await form.getByLabel('Phone', { exact: true }).fill('027 555 0199');
  await form.getByLabel('Message', { exact: true }).fill(`Shower screen, ${token}.`);
  await form.getByLabel('Service').selectOption('Shower Installations');
  return form;
}

async function leadWith(token: string) {
  const leads = await exportLeads({ DATA_DIR: data.dir });
  return leads.find((lead) => lead.name.includes(token)) as
    (Record<string, unknown> & { attribution: unknown }) | undefined;
}

test('an ad click: kept for the visit, not overwritten by a second landing, sent with the quote', async ({
  page,
}) => {
  const token = uniqueToken();
  // Landing from Google's results on the home page, with the ad's tags.
  await page.goto(server.url + AD_LANDING, { referer: 'https://www.google.com/' });
  await ready(page);
  // Later in the same tab: another landing, from another site, with other tags.
  await page.goto(`${server.url}/services?utm_source=facebook&gclid=second-click`, {
    referer: 'https://l.facebook.com/',
  });
  await ready(page);
  // Then on to the quote page through the site's own link.
  await page.goto(`${server.url}/quote`, { referer: `${server.url}/services` });
  await ready(page);
  const form = await fillQuote(page, token);
  await form.getByRole('button', { name: 'Request My Free Quote' }).click();
  await expect(page).toHaveURL(/\/thank-you$/);

  const attribution = {
    landing: AD_LANDING,
    referrer: 'www.google.com',
    utm_source: 'google',
    utm_medium: 'cpc',
    utm_campaign: 'showers',
    utm_term: null,
    utm_content: null,
    gclid: GCLID,
  };
  expect((await leadWith(token))?.attribution).toEqual(attribution);
  await expect
    .poll(() => receiver.requests.find((request) => request.body.includes(token))?.json)
    .toMatchObject({ attribution });
  // Kept in this tab's sessionStorage, never as a cookie.
  expect(await page.context().cookies()).toEqual([]);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('only the form’s page is known', async ({ page }) => {
    const token = uniqueToken();
    await page.goto(server.url + AD_LANDING, { referer: 'https://www.google.com/' });
    await page.goto(`${server.url}/quote`);
    const form = await fillQuote(page, token);
    await form.getByRole('button', { name: 'Request My Free Quote' }).click();
    await expect(page).toHaveURL(/\/thank-you$/);
    expect((await leadWith(token))?.attribution).toEqual({ ...NO_ATTRIBUTION, landing: '/quote' });
  });
});

test('a browser that refuses storage: every page works and the form still sends', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // As with storage turned off: touching sessionStorage throws.
  await page.addInitScript(() => {
    Object.defineProperty(window, 'sessionStorage', {
      get() {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    });
  });
  for (const path of ['/', '/about', '/services/windows', '/contact']) {
    await page.goto(server.url + path, { referer: 'https://www.bing.com/' });
    await ready(page);
  }
  const token = uniqueToken();
  await page.goto(`${server.url}/quote?utm_source=newsletter`, {
    referer: 'https://mail.example.com/',
  });
  await ready(page);
  const form = await fillQuote(page, token);
  await form.getByRole('button', { name: 'Request My Free Quote' }).click();
  await expect(page).toHaveURL(/\/thank-you$/);
  // Nothing kept: the form's own page is the best known.
  expect((await leadWith(token))?.attribution).toEqual({
    ...NO_ATTRIBUTION,
    landing: '/quote?utm_source=newsletter',
    referrer: 'mail.example.com',
    utm_source: 'newsletter',
  });
  expect(errors).toEqual([]);
});

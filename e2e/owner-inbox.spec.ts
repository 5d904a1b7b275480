import { readFile } from 'node:fs/promises';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { startReceiver, type Receiver } from '../app/leads/testing/test-support.server.ts';
import { main } from '../server/cli/leads-cli.ts';
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
 * The owner's inbox, a lead's page and the activity list (docs/operations.md
 * "Owner's pages"), as an owner uses them, with JavaScript and without: a
 * server of its own with a webhook stand-in, 55 enquiries sent through
 * POST /api/leads, and owners signed in through the store the server uses
 * (e2e/support/owner-session.ts). The tests run in order on one server.
 */

test.describe.configure({ mode: 'default', timeout: 240_000 });
// Ceilings, so a page that is not there fails a step instead of the test's whole time.
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

const PHONE_WIDTH = { width: 390, height: 844 };
const DESK_WIDTH = { width: 1280, height: 800 };
const VARIANTS = [
  { js: true, label: 'with JavaScript' },
  { js: false, label: 'without JavaScript' },
] as const;

let server: SiteServer;
/** The site as the owner's browser knows it: SITE_URL, http://localhost:PORT. */
let site: string;
let receiver: Receiver;
let data: ReturnType<typeof tempDataDir>;

let posted = 0;

async function postLead(fields: Record<string, string>): Promise<string> {
  posted += 1;
  const response = await fetch(`${server.url}/api/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: 'someone@example.nz',
      phone: '021 555 0100',
      service: 'Windows',
      // Each its own words: the same message twice in a day is spam (docs/operations.md#spam).
      message: `A cracked pane in the lounge, enquiry ${posted}`,
      source: 'contact_form',
      ...fields,
    }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** `npm run leads -- ARGS` against the server's store, its stdout. */
async function leadsCli(args: string[]): Promise<string> {
  let stdout = '';
  const code = await main(args, {
    env: { ...process.env, DATA_DIR: data.dir },
    stdout: (text) => (stdout += text),
    stderr: () => undefined,
  });
  expect(code).toBe(0);
  return stdout;
}

async function ownerPage(browser: Browser, js: boolean, email: string): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: js, viewport: PHONE_WIDTH });
  await signInAsOwner(context, server, email);
  context.on('page', (opened) => scripted.set(opened, js));
  const page = await context.newPage();
  scripted.set(page, js);
  return page;
}

/**
 * axe finds nothing on the page as it is, at a phone's width and a
 * desktop's. axe runs in the page, so only with JavaScript; the pages are the
 * same without it.
 */
/** The lead page's delivery to the webhook (the push to the owners' phones is listed too). */
function webhookDelivery(page: Page) {
  return page.getByTestId('delivery').filter({ hasText: 'connected app 1' });
}

async function expectAxeClean(page: Page): Promise<void> {
  if (!(await javaScriptOn(page))) return;
  for (const size of [PHONE_WIDTH, DESK_WIDTH]) {
    await page.setViewportSize(size);
    const result = await axe(page);
    expect(result.violations, `${page.url()} at ${size.width} px`).toEqual([]);
  }
  await page.setViewportSize(PHONE_WIDTH);
}

const scripted = new WeakMap<Page, boolean>();
const javaScriptOn = async (page: Page) => scripted.get(page) ?? true;

async function search(page: Page, query: string, stage = ''): Promise<void> {
  await page.getByLabel('Search by name, e-mail or phone').fill(query);
  await page.getByLabel('Stage', { exact: true }).selectOption(stage);
  await page.getByRole('button', { name: 'Show' }).click();
  await page.waitForURL(/\/admin\?/);
}

test.beforeAll(async () => {
  data = tempDataDir();
  receiver = await startReceiver('ok');
  const port = await freePort();
  site = `http://localhost:${port}`;
  server = await startSiteServer({
    PORT: String(port),
    SITE_URL: site,
    DATA_DIR: data.dir,
    LEAD_WEBHOOK_URLS: receiver.url,
    LEAD_ACCEPT: 'stored',
  });
  // 55 enquiries, oldest first: 50 of one kind, then the ones the tests look for.
  for (let index = 0; index < 50; index++) {
    await postLead({ name: `Customer ${String(index + 1).padStart(2, '0')}` });
  }
  for (const person of ['Hinemoa Tait', 'Rangi Moana']) {
    const email = `${person.split(' ')[0]?.toLowerCase()}@example.nz`;
    await postLead({ name: person, email, phone: '027 555 0200', service: 'Doors' });
    await postLead({ name: person, email, phone: '027 555 0200', source: 'quote_form' });
  }
  await postLead({
    name: 'Tama Walker',
    email: 'tama@example.nz',
    phone: '027 555 0123',
    source: 'hero_form',
    service: 'Home Glass',
    message: 'Service type: Home Glass. Postal code: 3118',
  });
  await receiver.waitForRequests(55);
});

test.afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  data?.remove();
});

for (const variant of VARIANTS) {
  test(`the inbox ${variant.label}: newest first, cards to sort by, search, filter and pages`, async ({
    browser,
  }) => {
    const page = await ownerPage(browser, variant.js, `inbox-${variant.js}@glass.example.com`);
    await page.goto(`${site}/admin`);
    await expect(page.getByRole('heading', { name: 'Enquiries', level: 1 })).toBeVisible();
    await expect(page.getByTestId('new-since')).toHaveText('55 new enquiries not seen yet.');
    const rows = page.getByTestId('lead-row');
    await expect(rows).toHaveCount(50);
    await expect(page.getByTestId('range')).toHaveText('Showing 1–50 of 55');
    const newest = rows.first();
    await expect(newest.getByRole('link', { name: 'Tama Walker' })).toBeVisible();
    await expect(newest).toContainText('Home Glass · call-back form');
    await expect(newest).toContainText('New');
    await expect(newest.getByTestId('unseen')).toHaveText('Not seen yet');
    await expect(newest).toContainText('Sent to your connected app 1.');
    // What sorting needs without opening it: a call link (a target of its
    // own beside the enquiry's link), the postcode, the message's first line.
    const call = newest.getByRole('link', { name: 'Call 027 555 0123' });
    await expect(call).toHaveAttribute('href', 'tel:0275550123');
    expect((await call.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    await expect(newest.locator('a a, a button, button a')).toHaveCount(0);
    await expect(newest).toContainText('Postcode 3118');
    await expect(newest.getByTestId('first-line')).toHaveCount(0);
    await expect(rows.nth(1).getByTestId('first-line')).toHaveText(
      /^“A cracked pane in the lounge, enquiry \d+”$/,
    );
    await expect(rows.nth(1).getByRole('link', { name: 'Call 027 555 0200' })).toBeVisible();
    // The time received, in New Zealand time (NZDT or NZST: UTC+13 or +12).
    const shown = await newest.locator('time').textContent();
    const at = await newest.locator('time').getAttribute('datetime');
    const nz = new Intl.DateTimeFormat('en-NZ', {
      timeZone: 'Pacific/Auckland',
      hour: 'numeric',
      minute: '2-digit',
    }).format(new Date(at ?? ''));
    expect(shown).toContain(nz);
    await expectAxeClean(page);

    await page.getByRole('link', { name: 'Older enquiries' }).click();
    await expect(page.getByTestId('range')).toHaveText('Showing 51–55 of 55');
    await expect(rows).toHaveCount(5);
    await expect(rows.last()).toContainText('Customer 01');
    await page.getByRole('link', { name: 'Newer enquiries' }).click();
    await expect(rows).toHaveCount(50);

    await search(page, 'HINEMOA');
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toContainText('quote form');
    await search(page, '0275550123');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('Tama Walker');
    await search(page, 'rangi@example', 'won');
    await expect(page.getByText('No enquiry matches.')).toBeVisible();
    await page.getByRole('link', { name: 'Show all' }).click();
    await expect(rows).toHaveCount(50);

    // Looking at the inbox changes nothing.
    await page.reload();
    await expect(page.getByTestId('new-since')).toHaveText('55 new enquiries not seen yet.');
    await page.context().close();
  });
}

test('new since you last looked: opening an enquiry or "Mark all as seen", by either owner', async ({
  browser,
}) => {
  const aroha = await ownerPage(browser, true, 'seen-aroha@glass.example.com');
  const rawiri = await ownerPage(browser, false, 'seen-rawiri@glass.example.com');
  await aroha.goto(`${site}/admin`);
  await expect(aroha.getByTestId('new-since')).toHaveText('55 new enquiries not seen yet.');
  const card = aroha.getByTestId('lead-row').filter({ hasText: 'Customer 50' });
  const href = `${site}${await card.getByRole('link', { name: 'Customer 50' }).getAttribute('href')}`;

  // A HEAD, a browser's prefetch or a link preview is not the owner opening it.
  expect((await aroha.request.head(href)).status()).toBe(200);
  const previews: Array<Record<string, string>> = [
    { 'sec-purpose': 'prefetch' },
    { purpose: 'prefetch' },
    { 'x-purpose': 'preview' },
  ];
  for (const headers of previews) {
    expect((await aroha.request.get(href, { headers })).status()).toBe(200);
  }
  await aroha.reload();
  await expect(aroha.getByTestId('new-since')).toHaveText('55 new enquiries not seen yet.');

  // Opened: seen, for the other owner too.
  await card.getByRole('link', { name: 'Customer 50' }).click();
  await expect(aroha.getByRole('heading', { name: 'Customer 50', level: 1 })).toBeVisible();
  await aroha.goBack();
  await aroha.reload();
  await expect(aroha.getByTestId('new-since')).toHaveText('54 new enquiries not seen yet.');
  await expect(card.getByTestId('unseen')).toHaveCount(0);
  await rawiri.goto(`${site}/admin`);
  await expect(rawiri.getByTestId('new-since')).toHaveText('54 new enquiries not seen yet.');
  await expect(
    rawiri.getByTestId('lead-row').filter({ hasText: 'Customer 49' }).getByTestId('unseen'),
  ).toHaveText('Not seen yet');

  // "Mark all as seen", without JavaScript: a form post.
  await rawiri.getByRole('button', { name: 'Mark all as seen' }).click();
  await expect(rawiri.getByTestId('new-since')).toHaveText(
    'No new enquiries: every one has been seen.',
  );
  await expect(rawiri.getByRole('button', { name: 'Mark all as seen' })).toHaveCount(0);
  await expect(rawiri.getByTestId('unseen')).toHaveCount(0);

  // One more comes in: new to both until one of them marks it.
  await postLead({ name: 'Ana Late', email: 'ana-late@example.nz' });
  await aroha.reload();
  await expect(aroha.getByTestId('new-since')).toHaveText('1 new enquiry not seen yet.');
  await expect(aroha.getByTestId('unseen')).toHaveCount(1);
  await expectAxeClean(aroha);
  await aroha.getByRole('button', { name: 'Mark all as seen' }).click();
  await expect(aroha.getByTestId('new-since')).toHaveText(
    'No new enquiries: every one has been seen.',
  );
  await rawiri.reload();
  await expect(rawiri.getByTestId('new-since')).toHaveText(
    'No new enquiries: every one has been seen.',
  );
  await aroha.context().close();
  await rawiri.context().close();
});

for (const variant of VARIANTS) {
  test(`a lead's page ${variant.label}: every field, stage and note, a save made meanwhile`, async ({
    browser,
  }) => {
    const page = await ownerPage(browser, variant.js, `lead-${variant.js}@glass.example.com`);
    await page.goto(`${site}/admin`);
    await search(page, 'Tama');
    await page.getByRole('link', { name: 'Tama Walker' }).click();
    await expect(page.getByRole('heading', { name: 'Tama Walker', level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Call 027 555 0123' })).toHaveAttribute(
      'href',
      'tel:0275550123',
    );
    await expect(page.getByRole('link', { name: 'E-mail tama@example.nz' })).toHaveAttribute(
      'href',
      'mailto:tama@example.nz',
    );
    const details = page.locator('.admin-details').first();
    for (const text of ['Home Glass', 'Postal code: 3118', 'call-back form', 'New Zealand time']) {
      await expect(details).toContainText(text);
    }
    await expect(webhookDelivery(page)).toContainText('Sent to your connected app 1 at ');
    // What happened, in words: no stored state, no id.
    await expect(page.getByTestId('summary')).toContainText('Sent to your connected app 1 at ');
    const words = (await page.locator('main').textContent()) ?? '';
    const id = page.url().split('/').pop() ?? '';
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    for (const hidden of [id, 'accepted', 'Reference', 'Status', 'webhook']) {
      expect(words).not.toContain(hidden);
    }
    await expectAxeClean(page);

    // Two pages on the same revision: the first save wins, the second is shown it.
    const other = await page.context().newPage();
    await other.goto(page.url());
    const note = `Rang ${variant.label}, quote on Friday`;
    await page.getByLabel('Stage', { exact: true }).selectOption('contacted');
    await page.getByLabel('Private note').fill(note);
    await page.getByRole('button', { name: 'Save stage and note' }).click();
    await expect(page.getByRole('status')).toHaveText('Saved the stage and note.');
    await expect(page.getByLabel('Stage', { exact: true })).toHaveValue('contacted');
    await expect(page.getByLabel('Private note')).toHaveValue(note);

    await other.getByLabel('Stage', { exact: true }).selectOption('quoted');
    await other.getByLabel('Private note').fill('Quoted $480');
    await other.getByRole('button', { name: 'Save stage and note' }).click();
    const alert = other.getByRole('alert');
    await expect(alert).toContainText('Someone else saved this enquiry meanwhile');
    await expect(other.getByTestId('their-save')).toContainText('Contacted');
    await expect(other.getByTestId('their-save')).toContainText(note);
    await expect(other.getByLabel('Private note')).toHaveValue('Quoted $480');
    await expectAxeClean(other);
    await other.getByRole('button', { name: 'Save stage and note' }).click();
    await expect(other.getByRole('status')).toHaveText('Saved the stage and note.');
    await expect(other.getByLabel('Stage', { exact: true })).toHaveValue('quoted');

    await page.goto(`${site}/admin`);
    await search(page, '', 'quoted');
    await expect(page.getByTestId('lead-row')).toHaveCount(1);
    await expect(page.getByTestId('lead-row')).toContainText('Quoted');
    expect(JSON.parse(await leadsCli(['export', '--email', 'tama@example.nz']))).toEqual([
      expect.objectContaining({ stage: 'quoted', note: 'Quoted $480' }),
    ]);
    await page.context().close();
  });
}

test('deliver again: a webhook that refused an enquiry gets it on the next round', async ({
  browser,
}) => {
  receiver.failStatus = 410;
  receiver.mode = 'fail';
  const before = receiver.requests.length;
  const id = await postLead({ name: 'Wiremu Retry', email: 'wiremu@example.nz' });
  await receiver.waitForRequests(before + 1);
  const page = await ownerPage(browser, true, 'retry@glass.example.com');
  await expect(async () => {
    await page.goto(`${site}/admin/leads/${id}`);
    await expect(webhookDelivery(page)).toContainText('Could not be sent', {
      timeout: 1000,
    });
  }).toPass({ timeout: 60_000 });
  await expect(webhookDelivery(page)).toContainText('What went wrong last time: refused: HTTP 410');
  await expectAxeClean(page);

  receiver.mode = 'ok';
  await page.getByRole('button', { name: 'Send again to your connected app 1' }).click();
  await expect(page.getByRole('status')).toContainText('Sending it again to your connected app 1');
  await receiver.waitForRequests(before + 2);
  await expect(async () => {
    await page.reload();
    await expect(webhookDelivery(page)).toContainText('Sent to your connected app 1 at', {
      timeout: 1000,
    });
  }).toPass({ timeout: 60_000 });
  await expect(webhookDelivery(page)).toContainText('Tried 2 times.');
  await expect(page.getByRole('button', { name: /Send again/ })).toHaveCount(0);
  expect((receiver.requests.at(-1)?.json as { id: string }).id).toBe(id);

  await page.getByRole('link', { name: 'Activity' }).click();
  await expect(page.getByTestId('activity-row').first()).toContainText(
    'sent an enquiry again to a service the website passes enquiries to',
  );
  await page.context().close();
});

const PEOPLE = [
  { js: true, name: 'Hinemoa Tait', email: 'hinemoa@example.nz' },
  { js: false, name: 'Rangi Moana', email: 'rangi@example.nz' },
];

for (const person of PEOPLE) {
  test(`a person's data ${person.js ? 'with' : 'without'} JavaScript: the CLI's export, then deleted after a confirmation`, async ({
    browser,
  }) => {
    const owner = `privacy-${person.js}@glass.example.com`;
    const page = await ownerPage(browser, person.js, owner);
    await page.goto(`${site}/admin`);
    await search(page, person.email);
    await expect(page.getByTestId('lead-row')).toHaveCount(2);
    await page.getByRole('link', { name: person.name }).first().click();

    // Only the button's POST downloads, and notes it: a GET (a prefetch, a
    // link followed by a scanner) is refused and writes nothing.
    const got = await page.request.get(`${page.url()}/export.json`);
    expect(got.status()).toBe(405);
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download everything about this person' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^enquiries-[0-9a-f-]{36}\.json$/);
    const file = await readFile((await download.path()) ?? '', 'utf8');
    expect(file).toBe(await leadsCli(['export', '--email', person.email]));
    expect(JSON.parse(file)).toHaveLength(2);

    await page.getByRole('button', { name: "Delete this person's enquiries" }).click();
    await expect(
      page.getByRole('heading', { name: "Delete this person's enquiries?" }),
    ).toBeVisible();
    await expect(page.getByText('This deletes 2 enquiries from')).toBeVisible();
    expect(JSON.parse(await leadsCli(['export', '--email', person.email]))).toHaveLength(2);
    await expectAxeClean(page);
    await page.getByRole('button', { name: 'Delete 2 enquiries' }).click();

    await page.waitForURL(/\/admin\?deleted=2$/);
    await expect(page.getByRole('status')).toHaveText(
      'Deleted 2 enquiries of that person, with their deliveries.',
    );
    await search(page, person.email);
    await expect(page.getByText('No enquiry matches.')).toBeVisible();
    expect(await leadsCli(['export', '--email', person.email])).toBe('[]\n');

    await page.getByRole('link', { name: 'Activity' }).click();
    // The owner by name, from the address's local part (app/owner/activity-words.server.ts).
    const mine = page
      .getByTestId('activity-row')
      .filter({ hasText: `Privacy ${person.js ? 'True' : 'False'} ` });
    await expect(mine.first()).toContainText('deleted one person’s enquiries (2 enquiries)');
    await expect(mine.nth(1)).toContainText('downloaded everything about one person (2 enquiries)');
    await expect(mine.filter({ hasText: 'Downloaded everything' })).toHaveCount(1);
    const text = (await page.locator('main').textContent()) ?? '';
    for (const personal of [person.name, person.email, '027 555 0200', person.name.split(' ')[0]]) {
      expect(text).not.toContain(personal);
    }
    await expectAxeClean(page);
    await page.context().close();
  });
}

for (const variant of VARIANTS) {
  test(`"I'm on it" ${variant.label}: the button, who is on it since when, the card, the activity`, async ({
    browser,
  }) => {
    const customer = variant.js ? 'Customer 01' : 'Customer 02';
    const owner = variant.js ? 'mere@glass.example.com' : 'kasey@glass.example.com';
    const page = await ownerPage(browser, variant.js, owner);
    await page.goto(`${site}/admin`);
    await search(page, customer);
    await page.getByRole('link', { name: customer }).click();
    const lead = page.url();
    const id = lead.split('/').pop() ?? '';
    await expect(page.getByTestId('on-it')).toHaveCount(0);
    await page.getByRole('button', { name: 'I’m on it' }).click();
    // A plain form's post, answered with a redirect back to the page.
    await page.waitForURL(`${lead}?done=ack`);
    await expect(page.getByRole('status')).toHaveText(
      'Done: the other owners can see who is on it.',
    );
    const name = variant.js ? 'Mere' : 'Kasey';
    await expect(page.getByTestId('on-it')).toHaveText(
      new RegExp(`^${name} is on it since \\d{1,2}:\\d\\d [ap]m\\.$`),
    );
    await expect(page.getByRole('button', { name: 'I’m on it' })).toHaveCount(0);
    await expectAxeClean(page);

    // The notification's action asks for JSON: the first owner on it stays.
    const again = await page.request.post(`${lead}/ack`, {
      headers: { Accept: 'application/json', Origin: site },
    });
    expect(again.status()).toBe(200);
    expect(await again.json()).toEqual({
      id,
      first: false,
      acknowledged_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
      acknowledged_by: owner,
    });
    expect((await page.request.get(`${lead}/ack`)).status()).toBe(405);

    await page.goto(`${site}/admin`);
    await search(page, customer);
    await expect(page.getByTestId('lead-row').getByTestId('on-it')).toContainText(
      `${name} is on it since`,
    );
    await page.getByRole('link', { name: 'Activity' }).click();
    await expect(
      page.getByTestId('activity-row').filter({ hasText: `${name} said “I’m on it”` }),
    ).toHaveCount(1);
    const exported = JSON.parse(await leadsCli(['export', '--format', 'json'])) as Array<
      Record<string, unknown>
    >;
    expect(exported.find((record) => record.id === id)).toEqual(
      expect.objectContaining({ acknowledged_by: owner }),
    );
    await page.context().close();
  });
}

for (const variant of VARIANTS) {
  test(`spam ${variant.label}: counted and listed on its own, "Not spam" sends it, "Spam" stops it`, async ({
    browser,
  }) => {
    const tag = variant.js ? 'js' : 'plain';
    receiver.mode = 'ok';
    // A program's lead with a link and no proof-of-work: a success to it, spam here.
    const spamId = await postLead({
      name: `Rank Bot ${tag}`,
      email: `bot-${tag}@example.com`,
      message: `Get more customers at https://rank-${tag}.example today`,
    });
    const before = receiver.requests.length;
    const page = await ownerPage(browser, variant.js, `spam-${tag}@glass.example.com`);
    await page.goto(`${site}/admin`);
    const spamLink = page.getByTestId('spam-link');
    await expect(spamLink).toHaveText(/^Spam \(\d+\)$/);
    expect((await spamLink.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    await expect(page.getByRole('link', { name: `Rank Bot ${tag}` })).toHaveCount(0);
    await expectAxeClean(page);

    await spamLink.click();
    await expect(page.getByRole('heading', { name: 'Spam', level: 1 })).toBeVisible();
    const row = page.getByTestId('lead-row').filter({ hasText: `Rank Bot ${tag}` });
    await expect(row.getByTestId('spam-reason')).toHaveText('Contains a link');
    await expectAxeClean(page);

    await row.getByRole('link', { name: `Rank Bot ${tag}` }).click();
    await expect(page.getByTestId('summary')).toHaveText(
      'Caught as spam (contains a link), so it was not sent on to you.',
    );
    await expect(page.getByTestId('delivery')).toHaveCount(0);
    // Spam is nobody's to be on until it is taken out of spam.
    await expect(page.getByRole('button', { name: 'I’m on it' })).toHaveCount(0);
    await expectAxeClean(page);
    const notSpam = page.getByRole('button', { name: 'Not spam: send it to me' });
    expect((await notSpam.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    await notSpam.click();
    await expect(page.getByRole('status')).toHaveText(
      'Taken out of spam: it is on its way to you now, like a new enquiry.',
    );
    // As if just received: the webhook gets it.
    await receiver.waitForRequests(before + 1);
    expect((receiver.requests.at(-1)?.json as { id: string }).id).toBe(spamId);
    await expect(page.getByLabel('Stage', { exact: true })).toHaveValue('new');
    await expect(page.getByRole('button', { name: 'I’m on it' })).toHaveCount(1);

    // "Spam" on it again: it leaves the inbox, and nothing more is sent.
    const spamButton = page.getByRole('button', { name: 'Spam', exact: true });
    expect((await spamButton.boundingBox())?.height).toBeGreaterThanOrEqual(44);
    await spamButton.click();
    await expect(page.getByRole('status')).toHaveText(
      'Moved to spam. Nothing more of it is sent on to you.',
    );
    await expect(page.getByTestId('spam-reason')).toHaveText('Why: Moved to spam by hand.');
    await expectAxeClean(page);

    await page.getByRole('link', { name: 'Activity' }).click();
    const mine = page
      .getByTestId('activity-row')
      .filter({ hasText: `Spam ${variant.js ? 'Js' : 'Plain'} ` });
    await expect(mine.first()).toContainText('moved an enquiry to spam');
    await expect(mine.nth(1)).toContainText('took an enquiry out of spam');
    await page.context().close();
  });
}

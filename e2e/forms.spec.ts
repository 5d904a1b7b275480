import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  HONEYPOT_FIELD,
  INVALID_EMAIL_MESSAGE,
  REQUIRED_FIELDS_MESSAGE,
  SERVICE_OPTIONS,
  SUBMIT_FAILED_MESSAGE,
} from '../app/leads/intake/form-rules.ts';
import { startReceiver, type Receiver } from '../app/leads/testing/test-support.server.ts';
import { API_ERROR_MESSAGES } from '../app/leads/intake/receive-lead.server.ts';
import { E2E_BUILD_ENV } from './support/env.ts';
import { NO_ATTRIBUTION } from '../app/leads/intake/attribution.ts';
import { recordTag, type TagRecord } from './support/tag-record.ts';
import {
  attachServerLogsOnFailure,
  exportLeads,
  startSiteServer,
  tempDataDir,
  uniqueToken,
  type ExportedLead,
  type SiteServer,
} from './support/lead-server.ts';

/**
 * The three lead forms end to end (docs/forms.md; docs/operations.md#http-api):
 * a server of our own in `webhook` mode with two real local webhook
 * receivers that answer 2xx, 5xx or hang, the analytics tag replaced by a
 * recording stand-in, and the lead looked up with the operator's CLI.
 */

// Long enough for a receiver that answers (even one slowed down on purpose)
// to be heard on a loaded machine; short enough for the hanging-receiver test.
const WEBHOOK_TIMEOUT_MS = 5000;

let server: SiteServer;
let data: ReturnType<typeof tempDataDir>;
let receivers: [Receiver, Receiver];

test.beforeAll(async () => {
  receivers = [await startReceiver('ok'), await startReceiver('ok')];
  data = tempDataDir();
  server = await startSiteServer({
    DATA_DIR: data.dir,
    LEAD_WEBHOOK_URLS: receivers.map((receiver) => receiver.url).join(','),
    LEAD_ACCEPT: 'webhook',
    LEAD_WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
  });
});

test.afterAll(async () => {
  await server?.stop();
  await Promise.all(receivers?.map((receiver) => receiver.close()) ?? []);
  data?.remove();
});

// Playwright reads the fixtures a hook uses from its first parameter's pattern: none here.
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

test.beforeEach(() => {
  for (const receiver of receivers) {
    receiver.mode = 'ok';
    receiver.delayMs = 0;
  }
});

// ---------------------------------------------------------------------------
// Helpers

type FormKind = 'callback' | 'contact' | 'quote';
const PAGES: Record<FormKind, { path: string; source: string; button: string }> = {
  callback: { path: '/', source: 'hero_form', button: 'Call Me Back' },
  contact: { path: '/contact', source: 'contact_form', button: 'Send My Enquiry' },
  quote: { path: '/quote', source: 'quote_form', button: 'Request My Free Quote' },
};

async function openForm(page: Page, kind: FormKind, base = server.url): Promise<Locator> {
  await page.goto(base + PAGES[kind].path);
  await expect(page.locator('html[data-ready]')).toBeAttached();
  const form = page.locator('form[data-quote-form]');
  await formReady(form);
  return form;
}

/** The form's code runs (the key is set on mount); the home form's arrives after the page's. */
async function formReady(form: Locator) {
  await expect(form.locator('input[name="idempotency_key"]')).not.toHaveValue('');
}

async function fillForm(form: Locator, kind: FormKind, token: string, overrides = {}) {
  const values: Record<string, string> =
    kind === 'callback'
      ? {
          'First name': ` Aroha${token} `,
          'Last name': 'Ngata',
          Email: ` Aroha.${token}@Example.CO.NZ `,
          Phone: ' 021 555 0101 ',
          'Postal code': '3110',
          ...overrides,
        }
      : {
          Name: ` Tama ${token} `,
          Email: `Tama.${token}@Example.nz`,
          Phone: '027 555 0199',
          Message: `  Cracked lounge window, ${token}.  `,
          ...overrides,
        };
  for (const [label, value] of Object.entries(values)) {
    await form.getByLabel(label, { exact: true }).fill(value);
  }
  if (kind !== 'callback') await form.getByLabel('Service').selectOption('Balustrades');
}

function submitButton(form: Locator, kind: FormKind) {
  return form.getByRole('button', { name: PAGES[kind].button });
}

/** Sends the form as a plain browser post; the status and the form on the page that comes back. */
async function postPlainly(page: Page, kind: FormKind) {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST'),
    submitButton(page.locator('form[data-quote-form]'), kind).click(),
  ]);
  return { status: response.status(), form: page.locator('form[data-quote-form]') };
}

/**
 * What the site queued for the analytics tag, on every document the page
 * showed (a form moves on to /thank-you with a page load); recorded from
 * each test's start (support/tag-record.ts).
 */
const tagRecords = new WeakMap<Page, TagRecord>();

test.beforeEach(async ({ page, javaScriptEnabled }) => {
  if (javaScriptEnabled) tagRecords.set(page, await recordTag(page));
});

async function events(page: Page) {
  const record = tagRecords.get(page);
  if (!record) throw new Error("the analytics tag is recorded only on the test's own page");
  return record.events();
}

async function leadsWith(token: string): Promise<ExportedLead[]> {
  const leads = await exportLeads({ DATA_DIR: data.dir });
  return leads.filter((lead) => lead.name.includes(token) || lead.message.includes(token));
}

/** The states of a lead's webhook deliveries, in order (not the push to the owners' phones). */
function webhookStates(lead: ExportedLead): string[] {
  return lead.deliveries
    .filter((delivery) => delivery.target !== 'push')
    .map((delivery) => delivery.state);
}

function received(receiver: Receiver, token: string) {
  return receiver.requests.filter((request) => request.body.includes(token));
}

// ---------------------------------------------------------------------------
// With JavaScript

test('home call-back: Submitting..., then /thank-you; payload at both webhooks; analytics events; the CLI finds it', async ({
  page,
}) => {
  const token = uniqueToken();
  const form = await openForm(page, 'callback');
  await expect(form.getByRole('radio', { name: 'Home Glass' })).toBeChecked();
  await fillForm(form, 'callback', token);
  await form.getByRole('radio', { name: 'Business Glass' }).check();
  await form.getByRole('checkbox', { name: /offers/ }).check();
  // Slow receivers keep the submission in flight long enough to see it.
  for (const receiver of receivers) receiver.delayMs = 800;

  await submitButton(form, 'callback').click();
  const busy = form.getByRole('button', { name: 'Submitting...' });
  await expect(busy).toBeDisabled();
  await expect(page).toHaveURL(/\/thank-you$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Thank you, we have your request',
  );

  const payloads = receivers.map((receiver) => received(receiver, token));
  expect(payloads.map((list) => list.length)).toEqual([1, 1]);
  const payload = payloads[0]![0]!.json as Record<string, unknown>;
  expect(payload).toEqual({
    id: expect.any(String),
    name: `Aroha${token} Ngata`,
    email: `aroha.${token}@example.co.nz`,
    phone: '021 555 0101',
    service: 'Business Glass',
    message: 'Service type: Business Glass. Postal code: 3110',
    created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    source: 'hero_form',
    urgent: false,
    // The visit began on the home page, typed in: nothing else is known.
    attribution: { ...NO_ATTRIBUTION, landing: '/' },
    photos: [],
  });
  expect(payloads[1]![0]!.json).toEqual(payload);

  // The thank-you page sends its page view once it has loaded and painted.
  await expect
    .poll(async () =>
      (await events(page)).some(
        (event) => event.name === 'page_view' && event.params.page_path === '/thank-you',
      ),
    )
    .toBe(true);
  const all = await events(page);
  const names = all.map((event) => event.params.page_title ?? event.name);
  const formSubmit = all.findIndex((event) => event.name === 'form_submit');
  const thankYouView = all.findIndex(
    (event) => event.name === 'page_view' && event.params.page_path === '/thank-you',
  );
  expect(formSubmit).toBeGreaterThan(-1);
  // Sent before the move to /thank-you.
  expect(formSubmit).toBeLessThan(thankYouView);
  expect(all[formSubmit]!.params).toEqual({
    event_category: 'engagement',
    event_label: 'hero_form',
    value: 1,
  });
  const conversion = {
    name: 'conversion',
    params: {
      send_to: E2E_BUILD_ENV.ADS_CONVERSION_SEND_TO,
      value: 1,
      currency: 'NZD',
      transaction_id: payload.created_at,
    },
  };
  expect(all[formSubmit + 1]).toEqual(conversion);
  // The thank-you page's own two events, once; its conversion has the form's
  // transaction id, so the platform counts one conversion for this enquiry.
  await expect
    .poll(async () => (await events(page)).filter((e) => e.params.page_title === 'Thank You'))
    .toHaveLength(1);
  expect((await events(page)).filter((event) => event.name === 'conversion')).toEqual([
    conversion,
    conversion,
  ]);
  // Nothing the visitor typed is in the address or in what the page kept.
  expect(page.url()).toMatch(/\/thank-you$/);
  const kept = await page.evaluate(() => JSON.stringify({ ...sessionStorage, ...localStorage }));
  expect(kept.toLowerCase()).not.toContain(token);
  expect(kept).not.toContain('021');
  expect(names.filter((name) => name === 'form_submit')).toHaveLength(1);

  const [lead] = await leadsWith(token);
  expect(lead).toMatchObject({
    id: payload.id,
    created_at: payload.created_at,
    source: 'hero_form',
    status: 'accepted',
  });
  // The webhooks' rows (the push to the owners' phones has its own).
  expect(webhookStates(lead!)).toEqual(['delivered', 'delivered']);
});

for (const kind of ['contact', 'quote'] as const) {
  test(`${kind} form: success with its own source and label`, async ({ page }) => {
    const token = uniqueToken();
    const form = await openForm(page, kind);
    const options = await form.getByLabel('Service').locator('option').allTextContents();
    expect(options.slice(1)).toEqual([...SERVICE_OPTIONS]);
    await fillForm(form, kind, token);
    await submitButton(form, kind).click();
    await expect(page).toHaveURL(/\/thank-you$/);

    const payload = received(receivers[0], token)[0]?.json as Record<string, unknown>;
    expect(payload).toMatchObject({
      name: `Tama ${token}`,
      email: `tama.${token}@example.nz`,
      phone: '027 555 0199',
      service: 'Balustrades',
      message: `Cracked lounge window, ${token}.`,
      source: PAGES[kind].source,
    });
    const submitted = (await events(page)).filter((event) => event.name === 'form_submit');
    expect(submitted.map((event) => event.params.event_label)).toEqual([PAGES[kind].source]);
    expect((await leadsWith(token)).map((lead) => lead.source)).toEqual([PAGES[kind].source]);
  });
}

for (const kind of ['callback', 'contact', 'quote'] as const) {
  test(`${kind} form: the client check shows the documented messages in the red box, nothing sent`, async ({
    page,
  }) => {
    const token = uniqueToken();
    const form = await openForm(page, kind);
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url());
    });
    const alert = form.getByRole('alert');

    // An empty form: the schema's message, not the browser's bubble.
    await submitButton(form, kind).click();
    await expect(alert).toHaveText(REQUIRED_FIELDS_MESSAGE);
    await expect(alert).toHaveCSS('color', 'rgb(185, 28, 28)');

    // Spaces pass `required` but not the client check.
    await fillForm(form, kind, token, { Phone: '          ' });
    await submitButton(form, kind).click();
    await expect(alert).toHaveText(REQUIRED_FIELDS_MESSAGE);
    const phone = form.getByLabel('Phone', { exact: true });
    await expect(phone).toHaveAttribute('aria-invalid', 'true');
    await expect(phone).toBeFocused();

    // No dot after the @: the browser's email type allows it, docs/forms.md#email-pattern does not.
    await phone.fill('021 555 0101');
    const email = form.getByLabel('Email', { exact: true });
    await email.fill('jo@example');
    await submitButton(form, kind).click();
    await expect(alert).toHaveText(INVALID_EMAIL_MESSAGE);
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toBeFocused();
    await expect(phone).not.toHaveAttribute('aria-invalid', 'true');
    await expect(submitButton(form, kind)).toBeEnabled();
    // The phone keyboard the browser shows is kept.
    await expect(email).toHaveAttribute('type', 'email');
    await expect(email).toHaveAttribute('inputmode', 'email');

    expect(posts).toEqual([]);
    expect(received(receivers[0], token)).toEqual([]);
  });
}

test("quote form: a message of only spaces gets 'Please fill in all required fields'", async ({
  page,
}) => {
  const token = uniqueToken();
  const form = await openForm(page, 'quote');
  await fillForm(form, 'quote', token, { Message: '     ' });
  await submitButton(form, 'quote').click();
  await expect(form.getByRole('alert')).toHaveText(REQUIRED_FIELDS_MESSAGE);
  await expect(form.getByLabel('Message')).toHaveAttribute('aria-invalid', 'true');
  expect(await leadsWith(token)).toEqual([]);
});

test('contact form: an earlier error is cleared when the next attempt starts', async ({ page }) => {
  const token = uniqueToken();
  const form = await openForm(page, 'contact');
  await fillForm(form, 'contact', token, { Email: 'jo@example' });
  await submitButton(form, 'contact').click();
  const alert = form.getByRole('alert');
  await expect(alert).toHaveText(INVALID_EMAIL_MESSAGE);

  // Hold the next attempt on its way to the server, to see it start.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  // The form's own post: to /api/leads (submit-lead-form.ts).
  await page.route(`${server.url}/api/leads`, async (route) => {
    if (route.request().method() === 'POST') await held;
    await route.continue();
  });
  await form.getByLabel('Email', { exact: true }).fill(`jo.${token}@example.nz`);
  await submitButton(form, 'contact').click();
  await expect(form.getByRole('button', { name: 'Submitting...' })).toBeDisabled();
  await expect(alert).toHaveCount(0);
  release();
  await expect(page).toHaveURL(/\/thank-you$/);
  expect((await leadsWith(token)).map((lead) => lead.email)).toEqual([`jo.${token}@example.nz`]);
});

test('before the form island hydrates a native post gets the same message from the server', async ({
  page,
}) => {
  const token = uniqueToken();
  // The island hydrates when the browser is idle; keep its scripts away.
  await page.route('**/assets/*.js', (route) => route.abort('blockedbyclient'));
  await page.goto(`${server.url}/quote`);
  await fillForm(page.locator('form[data-quote-form]'), 'quote', token, { Email: 'jo@example' });
  const { status, form } = await postPlainly(page, 'quote');
  expect(status).toBe(400);
  await expect(form.getByRole('alert')).toHaveText(INVALID_EMAIL_MESSAGE);
  await expect(form.getByLabel('Email', { exact: true })).toHaveValue('jo@example');
  expect(await leadsWith(token)).toEqual([]);
});

test('home: what is typed before the form code arrives is kept, and the form then submits with JavaScript', async ({
  page,
}) => {
  const token = uniqueToken();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  // The island's own module (Astro names it after the component).
  await page.route('**/assets/CallbackForm.*.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${server.url}/`);
  // The site's module has run; the form's island has not hydrated.
  await expect(page.locator('html[data-js="on"]')).toBeAttached();
  await expect(page.locator('astro-island[ssr]')).toHaveCount(1);
  const form = page.locator('form[data-quote-form]');
  // The prerendered form is usable at once.
  await expect(form.locator('input[name="idempotency_key"]')).toHaveValue('');
  await fillForm(form, 'callback', token);
  await form.getByRole('radio', { name: 'Business Glass' }).check();
  release();
  await formReady(form);
  await expect(form.getByLabel('First name')).toHaveValue(` Aroha${token} `);
  await expect(form.getByRole('radio', { name: 'Business Glass' })).toBeChecked();
  await submitButton(form, 'callback').click();
  await expect(page).toHaveURL(/\/thank-you$/);
  expect((await events(page)).map((event) => event.name)).toContain('form_submit');
  expect((await leadsWith(token)).map((lead) => lead.service)).toEqual(['Business Glass']);
});

test('the server checks again: what a tampered page sends is refused with the same messages', async ({
  page,
}) => {
  const token = uniqueToken();
  const form = await openForm(page, 'quote');
  await fillForm(form, 'quote', token);
  // Skip the client check by swapping in a value the client would refuse after it ran.
  await page.route(`${server.url}/api/leads`, async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    const body = new URLSearchParams(route.request().postData() ?? '');
    body.set('email', 'not-an-email');
    await route.continue({ postData: body.toString() });
  });
  await submitButton(form, 'quote').click();
  await expect(form.getByRole('alert')).toHaveText(INVALID_EMAIL_MESSAGE);
  await expect(form.getByLabel('Email', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  expect(await leadsWith(token)).toEqual([]);
});

test('one failing webhook is tolerated; both failing shows the documented message, the form stays, a retry works', async ({
  page,
}) => {
  const token = uniqueToken();
  const form = await openForm(page, 'quote');
  await fillForm(form, 'quote', token);

  receivers[0].mode = 'fail';
  receivers[1].mode = 'fail';
  await submitButton(form, 'quote').click();
  await expect(form.getByRole('alert')).toHaveText(SUBMIT_FAILED_MESSAGE);
  await expect(page).toHaveURL(/\/quote$/);
  await expect(submitButton(form, 'quote')).toBeEnabled();
  await expect(form.getByLabel('Name')).toHaveValue(` Tama ${token} `);
  expect((await events(page)).filter((event) => event.name === 'form_submit')).toEqual([]);
  expect((await leadsWith(token)).map((lead) => lead.status)).toEqual(['not_accepted']);

  // One receiver back (the other still answering 500): accepted.
  receivers[1].mode = 'ok';
  await submitButton(form, 'quote').click();
  await expect(form.getByRole('alert')).toHaveCount(0);
  await expect(page).toHaveURL(/\/thank-you$/);
  const leads = await leadsWith(token);
  expect(leads.map((lead) => lead.status)).toEqual(['not_accepted', 'accepted']);
  expect(webhookStates(leads[1]!)).toEqual(['pending', 'delivered']);
});

test('a hanging webhook: the other one decides after the timeout; both hanging fail', async ({
  page,
}) => {
  const token = uniqueToken();
  const form = await openForm(page, 'contact');
  await fillForm(form, 'contact', token);
  receivers[0].mode = 'hang';
  receivers[1].mode = 'hang';
  await submitButton(form, 'contact').click();
  await expect(form.getByRole('button', { name: 'Submitting...' })).toBeDisabled();
  await expect(form.getByRole('alert')).toHaveText(SUBMIT_FAILED_MESSAGE, {
    timeout: WEBHOOK_TIMEOUT_MS + 20_000,
  });

  receivers[1].mode = 'ok';
  await submitButton(form, 'contact').click();
  await expect(page).toHaveURL(/\/thank-you$/, { timeout: WEBHOOK_TIMEOUT_MS + 20_000 });
});

test('a double click stores and delivers one lead', async ({ page }) => {
  const token = uniqueToken();
  const form = await openForm(page, 'quote');
  await fillForm(form, 'quote', token);
  for (const receiver of receivers) receiver.delayMs = 300;
  await submitButton(form, 'quote').dblclick();
  await expect(page).toHaveURL(/\/thank-you$/);
  expect(await leadsWith(token)).toHaveLength(1);
  expect(received(receivers[0], token)).toHaveLength(1);
  expect(received(receivers[1], token)).toHaveLength(1);
});

/** The idempotency keys of the enquiries the page posts, in order. */
function postedKeys(page: Page): string[] {
  const keys: string[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'POST') return;
    keys.push(new URLSearchParams(request.postData() ?? '').get('idempotency_key') ?? '');
  });
  return keys;
}

test('back after a success, a second, different enquiry from the same page is stored too', async ({
  page,
}) => {
  const [first, second] = [uniqueToken(), uniqueToken()];
  const keys = postedKeys(page);
  const form = await openForm(page, 'quote');
  await fillForm(form, 'quote', first);
  await submitButton(form, 'quote').click();
  await expect(page).toHaveURL(/\/thank-you$/);

  await page.goBack();
  await expect(page).toHaveURL(/\/quote$/);
  await formReady(form);
  await fillForm(form, 'quote', second, { Phone: '021 555 0202' });
  await submitButton(form, 'quote').click();
  await expect(page).toHaveURL(/\/thank-you$/);

  expect(keys).toHaveLength(2);
  expect(keys[1]).not.toBe(keys[0]);
  for (const token of [first, second]) {
    const leads = await leadsWith(token);
    expect(leads.map((lead) => lead.status)).toEqual(['accepted']);
    expect(received(receivers[0], token)).toHaveLength(1);
  }
});

test('a page shown again from the back-forward cache takes a new key; its enquiry is stored', async ({
  playwright,
}, testInfo) => {
  // Playwright turns the back-forward cache off; visitors' browsers have it on.
  const browser = await playwright.chromium.launch({
    ...testInfo.project.use.launchOptions,
    ignoreDefaultArgs: ['--disable-back-forward-cache'],
  });
  try {
    const page = await browser.newPage();
    const token = uniqueToken();
    const keys = postedKeys(page);
    const form = await openForm(page, 'contact');
    const key = form.locator('input[name="idempotency_key"]');
    const shownFirst = await key.inputValue();
    await fillForm(form, 'contact', token);
    await page.evaluate(
      () => ((window as unknown as { sameDocument: boolean }).sameDocument = true),
    );

    await page.goto(`${server.url}/about`);
    // A page restored from the cache fires pageshow, not load.
    await page.goBack({ waitUntil: 'commit' });
    await expect(page).toHaveURL(/\/contact$/);
    // The very same document, restored (not loaded again), with what was typed.
    await expect
      .poll(() =>
        page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument),
      )
      .toBe(true);
    await expect(form.getByLabel('Name')).toHaveValue(` Tama ${token} `);
    await expect(key).not.toHaveValue(shownFirst);
    await expect(key).not.toHaveValue('');

    await submitButton(form, 'contact').click();
    await expect(page).toHaveURL(/\/thank-you$/);
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toBe(shownFirst);
    expect((await leadsWith(token)).map((lead) => lead.status)).toEqual(['accepted']);
  } finally {
    await browser.close();
  }
});

test('a retried plain post with the same key stores and delivers once', async ({ request }) => {
  const token = uniqueToken();
  const fields = {
    name: `Tama ${token}`,
    email: 'tama@example.nz',
    phone: '027 555 0199',
    service: 'Doors',
    message: 'Door glass',
    idempotency_key: `retry-${token}`,
  };
  for (let attempt = 0; attempt < 2; attempt++) {
    const response = await request.post(`${server.url}/quote`, { form: fields, maxRedirects: 0 });
    expect(response.status()).toBe(303);
    expect(response.headers().location).toBe('/thank-you');
  }
  expect(await leadsWith(token)).toHaveLength(1);
  expect(received(receivers[0], token)).toHaveLength(1);
});

test('honeypot filled: the visitor sees success, the lead is kept as spam and never delivered', async ({
  page,
}) => {
  const token = uniqueToken();
  const form = await openForm(page, 'callback');
  await fillForm(form, 'callback', token);
  await form
    .locator(`input[name="${HONEYPOT_FIELD}"]`)
    .fill('https://cheap-pills.example', { force: true });
  await submitButton(form, 'callback').click();
  await expect(page).toHaveURL(/\/thank-you$/);
  expect((await leadsWith(token)).map((lead) => lead.status)).toEqual(['spam']);
  expect(received(receivers[0], token)).toEqual([]);
  expect(received(receivers[1], token)).toEqual([]);
});

// ---------------------------------------------------------------------------
// Without JavaScript

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  for (const kind of ['callback', 'quote', 'contact'] as const) {
    test(`${kind} form: a valid post lands on /thank-you and is stored and delivered`, async ({
      page,
    }) => {
      const token = uniqueToken();
      await page.goto(server.url + PAGES[kind].path);
      const form = page.locator('form[data-quote-form]');
      await fillForm(form, kind, token);
      await submitButton(form, kind).click();
      await expect(page).toHaveURL(/\/thank-you$/);
      await expect(page.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
      const [lead] = await leadsWith(token);
      expect(lead).toMatchObject({ source: PAGES[kind].source, status: 'accepted' });
      expect(received(receivers[0], token)).toHaveLength(1);
    });
  }

  test('invalid posts come back with the same messages and the input kept', async ({ page }) => {
    const token = uniqueToken();
    await page.goto(`${server.url}/`);
    let form = page.locator('form[data-quote-form]');
    await fillForm(form, 'callback', token, { 'Last name': '   ' });
    await form.getByRole('radio', { name: 'Business Glass' }).check();
    await submitButton(form, 'callback').click();

    form = page.locator('form[data-quote-form]');
    await expect(form.getByRole('alert')).toHaveText(REQUIRED_FIELDS_MESSAGE);
    await expect(form.getByLabel('First name')).toHaveValue(` Aroha${token} `);
    await expect(form.getByLabel('Last name')).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByRole('radio', { name: 'Business Glass' })).toBeChecked();
    await expect(form.getByRole('checkbox', { name: /offers/ })).not.toBeChecked();

    // No dot after the @: the browser lets it through, the server answers with
    // the text of docs/forms.md#messages.
    await form.getByLabel('Last name').fill('Ngata');
    await form.getByLabel('Email').fill('aroha@example');
    const posted = await postPlainly(page, 'callback');
    expect(posted.status).toBe(400);
    form = posted.form;
    await expect(form.getByRole('alert')).toHaveText(INVALID_EMAIL_MESSAGE);
    await expect(form.getByLabel('Email')).toHaveValue('aroha@example');
    await expect(form.getByLabel('Postal code')).toHaveValue('3110');
    expect(await leadsWith(token)).toEqual([]);

    await page.goto(`${server.url}/quote`);
    form = page.locator('form[data-quote-form]');
    await fillForm(form, 'quote', token, { Message: '    ' });
    await submitButton(form, 'quote').click();
    form = page.locator('form[data-quote-form]');
    await expect(form.getByRole('alert')).toHaveText(REQUIRED_FIELDS_MESSAGE);
    await expect(form.getByLabel('Service')).toHaveValue('Balustrades');
    await expect(form.getByLabel('Name')).toHaveValue(` Tama ${token} `);
  });

  for (const kind of ['contact', 'quote'] as const) {
    test(`${kind} form: 'jo@example' comes back with 'Please enter a valid email address'`, async ({
      page,
    }) => {
      const token = uniqueToken();
      await page.goto(server.url + PAGES[kind].path);
      let form = page.locator('form[data-quote-form]');
      await fillForm(form, kind, token, { Email: 'jo@example' });
      await submitButton(form, kind).click();
      form = page.locator('form[data-quote-form]');
      await expect(form.getByRole('alert')).toHaveText(INVALID_EMAIL_MESSAGE);
      await expect(form.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
      expect(await leadsWith(token)).toEqual([]);
    });
  }

  test('both webhooks failing: the page comes back with the documented message', async ({
    page,
  }) => {
    const token = uniqueToken();
    receivers[0].mode = 'fail';
    receivers[1].mode = 'fail';
    await page.goto(`${server.url}/contact`);
    const form = page.locator('form[data-quote-form]');
    await fillForm(form, 'contact', token);
    await submitButton(form, 'contact').click();
    await expect(page.locator('form[data-quote-form]').getByRole('alert')).toHaveText(
      SUBMIT_FAILED_MESSAGE,
    );
    await expect(page.locator('form[data-quote-form]').getByLabel('Email')).toHaveValue(
      `Tama.${token}@Example.nz`,
    );
  });
});

// ---------------------------------------------------------------------------
// Rate limit (its own server, with a low LEAD_RATE_LIMIT)

test('over LEAD_RATE_LIMIT: the 429 message in the form, with and without JavaScript; the API answers JSON', async ({
  browser,
  request,
}) => {
  const limitedData = tempDataDir();
  const limited = await startSiteServer({ DATA_DIR: limitedData.dir, LEAD_RATE_LIMIT: '2' });
  try {
    const token = uniqueToken();
    const lead = {
      name: `Limit ${token}`,
      email: 'limit@example.nz',
      phone: '027 555 0199',
      service: 'Doors',
      message: 'Door glass',
      source: 'quote_form',
    };
    for (let index = 0; index < 2; index++) {
      expect((await request.post(`${limited.url}/api/leads`, { data: lead })).status()).toBe(201);
    }
    const api = await request.post(`${limited.url}/api/leads`, { data: lead });
    expect(api.status()).toBe(429);
    expect(await api.json()).toEqual({ error: API_ERROR_MESSAGES.tooManyRequests });

    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const plainPage = await noScript.newPage();
    await plainPage.goto(`${limited.url}/quote`);
    let form = plainPage.locator('form[data-quote-form]');
    await fillForm(form, 'quote', token);
    const [response] = await Promise.all([
      plainPage.waitForResponse((r) => r.request().method() === 'POST'),
      submitButton(form, 'quote').click(),
    ]);
    expect(response.status()).toBe(429);
    expect(Number(response.headers()['retry-after'])).toBeGreaterThan(0);
    form = plainPage.locator('form[data-quote-form]');
    await expect(form.getByRole('alert')).toHaveText(API_ERROR_MESSAGES.tooManyRequests);
    await expect(form.getByLabel('Name')).toHaveValue(` Tama ${token} `);
    await noScript.close();

    const scripted = await browser.newContext();
    const page = await scripted.newPage();
    await page.goto(`${limited.url}/`);
    await expect(page.locator('html[data-ready]')).toBeAttached();
    form = page.locator('form[data-quote-form]');
    await fillForm(form, 'callback', token);
    await submitButton(form, 'callback').click();
    await expect(form.getByRole('alert')).toHaveText(API_ERROR_MESSAGES.tooManyRequests);
    await expect(submitButton(form, 'callback')).toBeEnabled();
    await scripted.close();

    expect((await exportLeads({ DATA_DIR: limitedData.dir })).length).toBe(2);
  } finally {
    await limited.stop();
    limitedData.remove();
  }
});

test('a form post from another site is refused (403) and nothing is stored', async ({
  request,
}) => {
  const token = uniqueToken();
  const response = await request.post(`${server.url}/quote`, {
    form: {
      name: `Evil ${token}`,
      email: 'x@y.nz',
      phone: '027 555 0199',
      service: 'Doors',
      message: 'x',
    },
    headers: { Origin: 'https://attacker.example', 'Sec-Fetch-Site': 'cross-site' },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(403);
  expect(await leadsWith(token)).toEqual([]);
});

// ---------------------------------------------------------------------------
// 'Request an Estimate' in the mobile bar (docs/pages-and-routes.md#navigation-bar)

test.describe('mobile (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  for (const kind of ['callback', 'contact', 'quote'] as const) {
    test(`'Request an Estimate' scrolls to the form on ${PAGES[kind].path}`, async ({ page }) => {
      const form = await openForm(page, kind);
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await expect(form).not.toBeInViewport();
      await page.getByRole('link', { name: 'Request an Estimate' }).first().click();
      await expect(page).toHaveURL(new RegExp(`${PAGES[kind].path.replace('/', '\\/')}$`));
      await expect(form).toBeInViewport();
      const first = form.locator('input:not([type=hidden])').first();
      await expect(first).toBeFocused();
      await expect(first).toBeInViewport();
    });
  }

  test("'Request an Estimate' goes to /quote where there is no form", async ({ page }) => {
    await page.goto(`${server.url}/about`);
    await expect(page.locator('html[data-ready]')).toBeAttached();
    await page.getByRole('link', { name: 'Request an Estimate' }).first().click();
    await expect(page).toHaveURL(/\/quote$/);
    await expect(page.locator('form[data-quote-form]')).toBeVisible();
  });
});

import { randomUUID } from 'node:crypto';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { URGENT_LABEL } from '../app/leads/intake/form-rules.ts';
import { business, telHref } from '../app/content/business.ts';
import { attachServerLogsOnFailure } from './support/lead-server.ts';
import { startOwnerSite, type OwnerSite } from './support/owner-server.ts';
import { signInAsOwner } from './support/owner-session.ts';
import { ready } from './support/pages.ts';

/**
 * Urgent enquiries end to end (docs/operations.md#urgent-enquiries): a
 * visitor ticks "Glass broken now" on a form, with JavaScript and without,
 * and lands on /thank-you/urgent; the lead e-mail reaches a real SMTP server
 * on loopback with a subject beginning URGENT; the signed-in owner's inbox
 * lists it first, above a plain enquiry that came in after it. The tests run
 * in order on one server of their own (e2e/support/owner-server.ts).
 */

test.describe.configure({ mode: 'default', timeout: 240_000 });
// Ceilings, so a page that is not there fails a step instead of the test's whole time.
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

const PHONE_WIDTH = { width: 390, height: 844 };
const urgentName = `${URGENT_LABEL} (optional)`;

let site: OwnerSite;

test.beforeAll(async () => {
  site = await startOwnerSite();
});

test.afterAll(async () => {
  await site?.stop();
});

/** A plain (not urgent) enquiry through the API, as a program sends one. */
async function postPlainLead(name: string): Promise<void> {
  const response = await fetch(`${site.server.url}/api/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name,
      email: 'plain@example.nz',
      phone: '021 555 0100',
      service: 'Windows',
      // Each its own words: the same message twice in a day is spam (docs/operations.md#spam).
      message: `A window that sticks, no hurry (${name})`,
      source: 'contact_form',
    }),
  });
  expect(response.status).toBe(201);
}

/** The e-mail for the lead named `name`, once the SMTP stand-in has it. */
async function mailFor(name: string, after: number) {
  for (;;) {
    await site.smtp.waitForMessages(after + 1);
    const mail = site.smtp.messages
      .slice(after)
      .find((message) => message.parsed.text?.includes(name));
    if (mail) return mail;
    after = site.smtp.messages.length;
  }
}

/** The signed-in owner's inbox, on a phone. */
async function inbox(browser: Browser, js: boolean): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: js, viewport: PHONE_WIDTH });
  await signInAsOwner(context, site.server, 'owner@glass.example.nz');
  const page = await context.newPage();
  await page.goto(`${site.url}/admin`);
  return page;
}

async function expectUrgentThankYou(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/thank-you\/urgent$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Call us now to get it made safe',
  );
  const call = page.getByRole('main').getByRole('link').first();
  await expect(call).toHaveAttribute('href', telHref);
  await expect(call).toHaveText(`Call ${business.phone.display}`);
  await expect(page.getByRole('heading', { name: 'Until we get there' })).toBeVisible();
}

async function expectFirstInInbox(page: Page, urgentVisitor: string, plainName: string) {
  const rows = page.getByTestId('lead-row');
  await expect(rows.first()).toContainText(urgentVisitor);
  // Said in words, not by colour alone.
  await expect(rows.first()).toContainText('Urgent: glass broken now');
  const names = await rows.locator('h2').allTextContents();
  expect(names.indexOf(urgentVisitor)).toBe(0);
  // The plain enquiry came in later, yet sorts below it and is not marked.
  expect(names.indexOf(plainName)).toBeGreaterThan(0);
  await expect(rows.filter({ hasText: plainName })).not.toContainText('Urgent');
}

for (const variant of [
  { js: true, path: '/contact', button: 'Send My Enquiry' },
  { js: false, path: '/', button: 'Call Me Back' },
] as const) {
  test(`${variant.js ? 'with' : 'without'} JavaScript (${variant.path}): an urgent enquiry lands on /thank-you/urgent, is e-mailed as URGENT and is first in the inbox`, async ({
    browser,
  }) => {
    const tag = randomUUID().slice(0, 8);
    const context = await browser.newContext({
      javaScriptEnabled: variant.js,
      viewport: PHONE_WIDTH,
    });
    const page = await context.newPage();
    if (variant.js) await ready(page, `${site.url}${variant.path}`);
    else await page.goto(`${site.url}${variant.path}`);
    const form = page.locator('form[data-quote-form]');
    if (variant.js) await expect(form.locator('input[name="idempotency_key"]')).not.toHaveValue('');

    let visitor: string;
    if (variant.path === '/') {
      visitor = `Hemi${tag} Walker`;
      await form.getByLabel('First name').fill(`Hemi${tag}`);
      await form.getByLabel('Last name').fill('Walker');
      await form.getByLabel('Postal code').fill('3110');
    } else {
      visitor = `Hemi ${tag}`;
      await form.getByLabel('Name', { exact: true }).fill(visitor);
      await form.getByLabel('Service').selectOption('All Glass Repairs');
      await form
        .getByLabel('Message', { exact: true })
        .fill(`The lounge window is smashed, ${tag}.`);
    }
    await form.getByLabel('Email', { exact: true }).fill(`hemi.${tag}@example.nz`);
    await form.getByLabel('Phone', { exact: true }).fill('027 555 0111');
    await form.getByRole('checkbox', { name: urgentName }).check();

    const before = site.smtp.messages.length;
    const api = variant.js ? page.waitForRequest(`${site.url}/api/leads`) : undefined;
    await form.getByRole('button', { name: variant.button }).click();
    if (api) expect((await api).postData()).toContain('urgent=yes');
    await expectUrgentThankYou(page);
    await context.close();

    const mail = await mailFor(visitor, before);
    expect(mail.parsed.subject).toMatch(/^URGENT/);
    expect(mail.parsed.subject).toContain(visitor);
    expect(mail.parsed.text?.startsWith('URGENT')).toBe(true);

    const plain = `Plain ${tag}`;
    await postPlainLead(plain);
    const owner = await inbox(browser, variant.js);
    await expectFirstInInbox(owner, visitor, plain);
    await owner.context().close();
  });
}

/** Tab from `from` reaches the urgent choice; Space ticks it. */
async function tickByKeyboard(page: Page, from: Locator): Promise<Locator> {
  const box = page.getByRole('checkbox', { name: urgentName });
  await from.focus();
  await page.keyboard.press('Tab');
  await expect(box).toBeFocused();
  await page.keyboard.press('Space');
  await expect(box).toBeChecked();
  return box;
}

test('the urgent choice: reached with Tab, ticked with Space, a 44 px target at 390 px, on all three forms', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: PHONE_WIDTH });
  const page = await context.newPage();
  for (const path of ['/', '/contact', '/quote']) {
    await ready(page, `${site.url}${path}`);
    const form = page.locator('form[data-quote-form]');
    const before =
      path === '/'
        ? form.getByRole('radio', { name: 'Home Glass' })
        : // The photo picker's file input comes last before the choice.
          form.locator('input[type="file"][name="photos"]');
    const box = await tickByKeyboard(page, before);
    const target = await box.locator('xpath=ancestor::label').boundingBox();
    expect(target?.height, path).toBeGreaterThanOrEqual(44);
    expect(target?.width, path).toBeGreaterThanOrEqual(44);
  }
  await context.close();
});

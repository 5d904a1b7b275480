import { expect, test, type Page } from '@playwright/test';
import { E2E_BUILD_ENV } from './support/env.ts';
import { GTAG_PATTERN } from './support/pages.ts';
import { recordTag, type TagEvent } from './support/tag-record.ts';

/**
 * The real tag host is replaced by a local stand-in that records what the
 * site queues for it: gtag.js reads window.dataLayer, so that is the record.
 */
async function withRecordingTag(page: Page) {
  const tagRequests: string[] = [];
  await page.route(GTAG_PATTERN, (route) => {
    tagRequests.push(route.request().url());
    return route.fulfill({ contentType: 'text/javascript', body: 'window.__tagLoaded = true;' });
  });
  return tagRequests;
}

function events(page: Page) {
  return page.evaluate(() =>
    (window.dataLayer ?? [])
      .map((entry) => Array.from(entry as ArrayLike<unknown>))
      .filter((args) => args[0] === 'event')
      .map((args) => ({ name: args[1] as string, params: args[2] as Record<string, unknown> })),
  );
}

test('the tag loads after the page, configured without its own page views', async ({ page }) => {
  const tagRequests = await withRecordingTag(page);
  await page.goto('/');
  await expect.poll(() => tagRequests.length).toBe(1);
  expect(tagRequests[0]).toContain(`id=${E2E_BUILD_ENV.GTAG_ID}`);
  const html = await (await page.request.get('/')).text();
  // Nothing in the prerendered HTML blocks first paint on the tag.
  expect(html).not.toContain('googletagmanager');
  const configs = await page.evaluate(() =>
    (window.dataLayer ?? [])
      .map((entry) => Array.from(entry as ArrayLike<unknown>))
      .filter((args) => args[0] === 'config'),
  );
  expect(configs).toContainEqual(['config', E2E_BUILD_ENV.GTAG_ID, { send_page_view: false }]);
});

test('a page_view with path and query string on every page load', async ({ page }) => {
  await withRecordingTag(page);
  const pageViews = async () =>
    (await events(page))
      .filter((event) => event.name === 'page_view')
      .map((event) => event.params.page_path);
  await page.goto('/services?from=test');
  await expect.poll(pageViews).toEqual(['/services?from=test']);
  // Every link loads a prerendered page, which sends its own page view once.
  await page.locator('footer').getByRole('link', { name: 'Blog', exact: true }).click();
  await expect(page).toHaveURL(/\/blog$/);
  await expect.poll(pageViews).toEqual(['/blog']);
  await page.locator('footer').getByRole('link', { name: 'Terms' }).click();
  await expect(page).toHaveURL(/\/terms$/);
  await expect.poll(pageViews).toEqual(['/terms']);
});

test('the thank-you page sends the conversion and the Thank You page view', async ({ page }) => {
  await withRecordingTag(page);
  await page.goto('/thank-you');
  await expect
    .poll(async () => (await events(page)).map((event) => event.name))
    .toEqual(expect.arrayContaining(['conversion', 'page_view']));
  const all = await events(page);
  expect(all.find((event) => event.name === 'conversion')?.params).toEqual({
    send_to: E2E_BUILD_ENV.ADS_CONVERSION_SEND_TO,
    value: 1,
    currency: 'NZD',
  });
  expect(all.find((event) => event.params.page_title === 'Thank You')?.params).toMatchObject({
    page_path: '/thank-you',
  });
});

test('an unreachable tag host breaks nothing', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.route(GTAG_PATTERN, (route) => route.abort('internetdisconnected'));
  await page.goto('/');
  await expect(page.locator('html[data-ready]')).toBeAttached();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Contact' })
    .click();
  await expect(page).toHaveURL(/\/contact$/);
  expect(errors).toEqual([]);
});

test("one conversion per enquiry: /thank-you repeats the form's transaction id; a visit no submission led to sends the plain event", async ({
  page,
}) => {
  await withRecordingTag(page);
  // The form moves on to /thank-you with a page load: record across documents.
  const tag = await recordTag(page);
  const conversions = (events: TagEvent[]) =>
    events.filter((event) => event.name === 'conversion').map((e) => e.params);
  await page.goto('/quote');
  const form = page.locator('form[data-quote-form]');
  await expect(form.locator('input[name="idempotency_key"]')).not.toHaveValue('');
  await form.getByLabel('Name').fill('Mere Analytics');
  await form.getByLabel('Email').fill('mere@example.nz');
  await form.getByLabel('Phone').fill('027 555 0303');
  await form.getByLabel('Service').selectOption('Windows');
  await form.getByLabel('Message').fill('A fogged double-glazed unit.');
  await form.getByRole('button', { name: 'Request My Free Quote' }).click();
  await expect(page).toHaveURL(/\/thank-you$/);

  await expect.poll(() => conversions(tag.events())).toHaveLength(2);
  const [fromForm, fromThankYou] = conversions(tag.events());
  expect(fromForm).toEqual({
    send_to: E2E_BUILD_ENV.ADS_CONVERSION_SEND_TO,
    value: 1,
    currency: 'NZD',
    transaction_id: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
  });
  expect(fromThankYou).toEqual(fromForm);

  // A reload of that visit sends the same id again (de-duplicated by the platform).
  const loaded = tag.documents();
  await page.reload();
  await expect.poll(() => tag.documents()).toBe(loaded + 1);
  await expect.poll(() => conversions(tag.eventsOfThisDocument())).toEqual([fromForm]);

  // A later visit that no submission led to: the plain conversion
  // (docs/analytics.md#thank-you-page), without an id.
  await page.getByRole('link', { name: 'Back to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/thank-you');
  await expect
    .poll(() => conversions(tag.eventsOfThisDocument()))
    .toEqual([{ send_to: E2E_BUILD_ENV.ADS_CONVERSION_SEND_TO, value: 1, currency: 'NZD' }]);
});

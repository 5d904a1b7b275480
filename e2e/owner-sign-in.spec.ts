import { expect, test, type Page } from '@playwright/test';
import { axe } from './support/axe.ts';
import { attachServerLogsOnFailure } from './support/lead-server.ts';
import {
  addVirtualAuthenticator,
  signInLinkMailed,
  startOwnerSite,
  type OwnerSite,
} from './support/owner-server.ts';

/**
 * Signing in to the owner's pages as an owner would (docs/operations.md,
 * "Owner's pages"): a set-up link from `npm run owner -- add`, a real
 * passkey made by Chromium's virtual authenticator and checked by the
 * server, a sign-in link that arrives by e-mail (a real SMTP server on
 * loopback), and signing out.
 */

test.describe.configure({ timeout: 150_000 });

let site: OwnerSite;
test.beforeAll(async () => {
  site = await startOwnerSite();
});
test.afterAll(async () => site?.stop());
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

let counter = 0;
const address = () => `owner${++counter}.${Date.now()}@glass.example.nz`;

/** Presses Tab until `name`'s button has the focus: the page works from a keyboard. */
async function tabTo(page: Page, name: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    if (focused === name) return;
  }
  throw new Error(`${name} cannot be reached with Tab`);
}

async function sessionCookie(page: Page) {
  return (await page.context().cookies(site.url)).find((c) => c.name === 'owner_session');
}

test('a set-up link makes a passkey, which signs in again after signing out', async ({ page }) => {
  const email = address();
  const setupLink = await site.addOwner(email);
  await addVirtualAuthenticator(page);

  await page.goto(setupLink);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Set up your sign-in');
  // From the keyboard: the button that creates the passkey.
  await tabTo(page, 'Create a passkey on this device');
  await page.keyboard.press('Enter');
  await page.waitForURL(`${site.url}/admin`);
  const cookie = await sessionCookie(page);
  expect(cookie).toEqual(
    expect.objectContaining({ httpOnly: true, sameSite: 'Lax', path: '/', secure: false }),
  );
  // Signed in: the sign-in page sends the owner on.
  await page.goto(`${site.url}/admin/sign-in`);
  await expect(page).toHaveURL(`${site.url}/admin`);
  // The owner has one passkey, named after the device (the project emulates Chrome on Windows).
  const listed = await site.owner('list');
  expect(listed.stdout).toContain(email);
  const block = listed.stdout.slice(listed.stdout.indexOf(email)).split('\n\n')[0];
  expect(block).toMatch(/passkeys: +Windows computer \(not used yet\)/);

  // The set-up link worked once.
  await page.goto(setupLink);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'This set-up link does not work',
  );

  // Signing out ends the session: the cookie goes, and the old value opens nothing.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${site.url}/admin/sign-in`);
  expect(await sessionCookie(page)).toBeUndefined();
  const reused = await fetch(`${site.server.url}/admin`, {
    headers: { cookie: `owner_session=${cookie?.value}` },
    redirect: 'manual',
  });
  expect(reused.status).toBe(303);

  // The passkey signs in again, from the keyboard.
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
  await tabTo(page, 'Sign in with a passkey');
  await page.keyboard.press('Enter');
  await page.waitForURL(`${site.url}/admin`);
  expect(await sessionCookie(page)).toBeDefined();
});

test('a passkey from another site, or none at all, does not sign in', async ({ page }) => {
  await addVirtualAuthenticator(page);
  await page.goto(`${site.url}/admin/sign-in`);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  // The authenticator holds no passkey for this site: the browser says no.
  await expect(page.getByRole('status')).toContainText(/cancelled|could not|did not/);
  expect(await sessionCookie(page)).toBeUndefined();
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('an e-mailed sign-in link signs in once; the answer is the same for a stranger', async ({
    page,
  }) => {
    const email = address();
    await site.addOwner(email);
    const answerFor = async (typed: string) => {
      await page.goto(`${site.url}/admin/sign-in`);
      await page.getByLabel('Your e-mail address').fill(typed);
      await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
      await page.waitForURL(`${site.url}/admin/sign-in?asked`);
      return page.locator('main').innerText();
    };
    const before = site.smtp.messages.length;
    const forStranger = await answerFor('stranger@glass.example.nz');
    const forOwner = await answerFor(email.toUpperCase());
    expect(forOwner).toContain('If that address belongs to an owner, a link is on its way.');
    expect(forOwner).toBe(forStranger);

    const link = await signInLinkMailed(site, email, before);
    // Opening the link (as a mail scanner would) signs nobody in.
    await page.goto(link);
    expect(await sessionCookie(page)).toBeUndefined();
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${site.url}/admin`);
    expect(await sessionCookie(page)).toBeDefined();
    // Once only.
    await page.context().clearCookies();
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'This sign-in link does not work',
    );
    // The passkey step stays out of the way without JavaScript.
    await page.goto(`${site.url}/admin/sign-in`);
    await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeHidden();
  });
});

test('a removed owner’s session opens nothing', async ({ page }) => {
  const email = address();
  await site.addOwner(email);
  const before = site.smtp.messages.length;
  await page.goto(`${site.url}/admin/sign-in`);
  await page.getByLabel('Your e-mail address').fill(email);
  await page.getByRole('button', { name: 'E-mail me a sign-in link' }).click();
  await page.waitForURL(`${site.url}/admin/sign-in?asked`);
  await page.goto(await signInLinkMailed(site, email, before));
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${site.url}/admin`);
  const cookie = await sessionCookie(page);
  expect((await site.owner('remove', email)).code).toBe(0);
  const response = await fetch(`${site.server.url}/admin`, {
    headers: { cookie: `owner_session=${cookie?.value}` },
    redirect: 'manual',
  });
  expect(response.status).toBe(303);
  expect(response.headers.get('location')).toBe('/admin/sign-in');
});

for (const width of [390, 1280]) {
  test(`the sign-in and set-up pages are accessible at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const setupLink = await site.addOwner(address());
    for (const url of [
      `${site.url}/admin/sign-in`,
      `${site.url}/admin/sign-in?asked`,
      setupLink,
      `${site.url}/admin/setup/${'A'.repeat(43)}`,
      `${site.url}/admin/sign-in/${'A'.repeat(43)}`,
    ]) {
      await page.goto(url);
      await expect(page.locator('h1')).toBeVisible();
      const results = await axe(page);
      expect(results.violations, url).toEqual([]);
      // Nothing wider than the screen.
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, url).toBeLessThanOrEqual(0);
      // Every target at least 44 px tall, but for a link inside a sentence.
      const small = await page
        .locator('main :is(a, button, input, select, textarea, summary):visible')
        .evaluateAll((elements) =>
          elements
            .filter((element) => {
              const paragraph = element.closest('p');
              return !paragraph || paragraph.textContent?.trim() === element.textContent?.trim();
            })
            .filter((element) => element.getBoundingClientRect().height < 44)
            .map((element) => element.outerHTML.slice(0, 120)),
        );
      expect(small, url).toEqual([]);
    }
  });
}

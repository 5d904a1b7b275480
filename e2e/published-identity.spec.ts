import { mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_BUILD_DIR, E2E_BUILD_ENV } from './support/env.ts';
import { attachServerLogsOnFailure, startSiteServer } from './support/lead-server.ts';
import { signInLinkMailed, startOwnerSite, type OwnerSite } from './support/owner-server.ts';
import { signInAsOwner } from './support/owner-session.ts';

/**
 * Content is data (docs/operations.md, "Site content"): what the owner
 * publishes is read by the server's own code too, not only by the pages
 * built from it. After a new business name is published, the next lead
 * e-mail and the next sign-in e-mail carry it, from the same running server.
 * The server has no LEAD_EMAIL_FROM: the sending address is the published
 * business e-mail.
 */

test.describe.configure({ mode: 'serial', timeout: 10 * 60_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

const root = path.resolve(import.meta.dirname, '..');
const NAME = 'Kōwhai Glass Repairs';
const EMAIL = 'kia.ora@kowhai-glass.example.nz';
const OWNER = 'aroha@kowhai-glass.example.nz';
/** Typed once, as visitors read it; every call link dials the number worked out from it. */
const PHONE = { shown: '07 555 0777', tel: 'tel:+6475550777' };
const STREET = '12 Kōwhai Lane';
/** Pasted from Google Maps: the map and the JSON-LD take the place from it, nothing typed. */
const MAP_LINK = 'https://www.google.com/maps/place/K%C5%8Dwhai+Glass/@-37.6869,176.1654,17z';

let site: OwnerSite;
let scratch: string;

test.beforeAll(async () => {
  // A BUILD_DIR of its own, starting from the suite's build (as site-admin.spec.ts).
  scratch = mkdtempSync(path.join(root, 'build-identity-test-'));
  const buildDir = path.join(scratch, 'build');
  symlinkSync(realpathSync(path.resolve(root, E2E_BUILD_DIR)), buildDir);
  site = await startOwnerSite({
    BUILD_DIR: buildDir,
    SITE_PUBLISH_INTERVAL_S: '3600',
    LEAD_EMAIL_FROM: '',
  });
});

test.afterAll(async () => {
  await site?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('a published business name is in the next lead e-mail and sign-in e-mail', async ({
  browser,
}) => {
  const context = await browser.newContext();
  await signInAsOwner(context, site.server, OWNER);
  const page = await context.newPage();

  await page.goto(`${site.url}/admin/site/identity`);
  await page.getByLabel('Business name', { exact: true }).fill(NAME);
  await page.getByLabel('E-mail address', { exact: true }).fill(EMAIL);
  await page.getByLabel('Phone number', { exact: true }).fill(PHONE.shown);
  await page.getByLabel('Street address', { exact: true }).fill(STREET);
  await page.getByLabel('Google Maps link or address').fill(MAP_LINK);
  await page.getByRole('button', { name: 'Save business details' }).click();
  await expect(page.getByRole('status')).toContainText('Saved to the draft');
  await page.goto(`${site.url}/admin/site`);
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect
    .poll(async () => (await fetch(`${site.server.url}/`)).text(), {
      timeout: 60_000,
      intervals: [200],
    })
    .toContain(NAME);

  // The phone, typed once: every call link of the site dials it, and the JSON-LD names it.
  const visitor = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await visitor.goto(`${site.server.url}/contact`);
  await expect(visitor.locator('.site-header a[href^="tel:"]').first()).toHaveAttribute(
    'href',
    PHONE.tel,
  );
  await expect(visitor.locator('.phone-bar a[href^="tel:"]')).toHaveAttribute('href', PHONE.tel);
  await expect(
    visitor.locator('main').getByRole('link', { name: PHONE.shown }).first(),
  ).toHaveAttribute('href', PHONE.tel);
  await visitor.close();
  for (const pathname of ['/', '/contact', '/privacy-policy', '/services']) {
    const html = await (await fetch(`${site.server.url}${pathname}`)).text();
    const links = new Set([...html.matchAll(/href="(tel:[^"]*)"/g)].map((match) => match[1]));
    expect([...links], pathname).toEqual([PHONE.tel]);
    expect(html, pathname).not.toContain('"telephone":"+6475550123"');
  }
  const home = await (await fetch(`${site.server.url}/`)).text();
  expect(home).toContain('"telephone":"+6475550777"');
  // The map from the pasted link: the embed shows its place, the JSON-LD its coordinates.
  expect(home).toContain(
    '"geo":{"@type":"GeoCoordinates","latitude":-37.6869,"longitude":176.1654}',
  );
  expect(home).toContain(`"hasMap":"${MAP_LINK}"`);
  const contact = await (await fetch(`${site.server.url}/contact`)).text();
  expect(contact).toContain(
    'data-map-src="https://www.google.com/maps?q=-37.6869%2C176.1654&amp;output=embed"',
  );

  // The next enquiry's e-mail.
  const before = site.smtp.messages.length;
  const response = await fetch(`${site.server.url}/api/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Hemi Walker',
      email: 'hemi.walker@example.nz',
      phone: '027 555 0199',
      service: 'Windows',
      message: 'A cracked pane in the back door.',
      source: 'quote_form',
    }),
  });
  expect(response.status).toBe(201);
  await site.smtp.waitForMessages(before + 1);
  const leadMail = site.smtp.messages
    .slice(before)
    .find((mail) => mail.parsed.subject?.includes('Hemi Walker'));
  expect(leadMail?.parsed.from?.value).toEqual([{ name: `${NAME} website`, address: EMAIL }]);

  // The next sign-in e-mail, asked for as an owner without a passkey would.
  const beforeLink = site.smtp.messages.length;
  const asked = await fetch(`${site.url}/admin/sign-in`, {
    method: 'POST',
    headers: { origin: site.url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: OWNER }),
  });
  expect(asked.status).toBe(200);
  await signInLinkMailed(site, OWNER, beforeLink);
  const linkMail = site.smtp.messages
    .slice(beforeLink)
    .find((mail) => mail.envelope.to.includes(OWNER));
  expect(linkMail?.parsed.subject).toBe(`Your sign-in link for the ${NAME} website`);
  expect(linkMail?.parsed.from?.value).toEqual([{ name: `${NAME} website`, address: EMAIL }]);
  await context.close();
});

/**
 * A publication changes data, never the running code: the server above
 * switched to the new release without importing its server bundle, so the
 * pages it renders on request state the new content only if they read it
 * as data. They must be the very pages a server started afresh on the new
 * release renders.
 */
test('pages rendered on request after the switch are those of a fresh start', async () => {
  const fresh = await startSiteServer({ ...site.server.env, PORT: '0' });
  try {
    const requests: Array<{ path: string; form?: Record<string, string> }> = [
      { path: '/not-a-page' },
      { path: '/blog?q=glass' },
      { path: '/blog/category/windows?q=double' },
      { path: '/blog/category/not-a-category' },
      // Posted without JavaScript and refused: the whole page again, with the errors.
      { path: '/', form: { name: '', phone: '' } },
      { path: '/quote', form: { name: 'Hemi' } },
      { path: '/contact', form: { email: 'not an address' } },
      { path: '/admin/sign-in' },
    ];
    for (const request of requests) {
      const [switched, started] = await Promise.all(
        [site.server.url, fresh.url].map(async (base) => {
          const response = await fetch(`${base}${request.path}`, {
            ...(request.form
              ? {
                  method: 'POST',
                  headers: {
                    origin: site.url,
                    'content-type': 'application/x-www-form-urlencoded',
                  },
                  body: new URLSearchParams(request.form),
                }
              : {}),
            redirect: 'manual',
          });
          return `${response.status}\n${withoutPerRequestValues(await response.text())}`;
        }),
      );
      expect(started, request.path).toContain(NAME);
      // The server above started on this suite's build, made with other
      // settings (SITE_URL, a code deploy's business): its code writes that
      // address and names its own hashed files. Both aside, the pages are
      // the same, and the server sends each file its pages name.
      const same = (html: string) =>
        withoutHashes(html).replaceAll(E2E_BUILD_ENV.SITE_URL, site.url);
      expect(same(switched!), request.path).toBe(same(started!));
      for (const asset of switched!.matchAll(/"(\/assets\/[^"?#]+)"/g)) {
        const response = await fetch(`${site.server.url}${asset[1]}`);
        expect(response.status, `${request.path} names ${asset[1]}`).toBe(200);
      }
    }
  } finally {
    await fresh.stop();
  }
});

/** `/assets/site.B_x9.js` as `/assets/site.js`. */
function withoutHashes(html: string): string {
  return html.replace(/(\/assets\/[\w.-]*?)\.[\w-]{8}\.(js|css)/g, '$1.$2');
}

/**
 * What differs between any two renders of a page: the forms' one-time keys
 * (in the form and in the island's props) and the island's id made from them.
 */
function withoutPerRequestValues(html: string): string {
  return html
    .replace(/(name="idempotency_key"[^>]*value=")[^"]*/g, '$1…')
    .replace(/(idempotency_key&quot;:\[0,&quot;)[^&]*/g, '$1…')
    .replace(/(<astro-island uid=")[^"]*/g, '$1…');
}

import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import pg from 'pg';
import {
  POSTGRES_SKIP_MESSAGE,
  TEST_DATABASE_URL,
} from '../app/leads/testing/test-support.server.ts';
import { freePort } from './support/free-port.ts';
import {
  attachServerLogsOnFailure,
  startSiteServer,
  type SiteServer,
} from './support/lead-server.ts';
import { addVirtualAuthenticator, startOwnerSite, type OwnerSite } from './support/owner-server.ts';

/**
 * Two server processes on one PostgreSQL, as behind a load balancer, both
 * answering for one SITE_URL: a passkey ceremony begun on one is finished
 * on the other (its challenge is in the store), and a session started on
 * one is recognised by the other.
 */

test.describe.configure({ timeout: 150_000 });
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

/** Sends the browser's requests for `path` to the other process instead (at localhost, where the cookie lives). */
async function sendTo(page: Page, path: string, other: SiteServer): Promise<void> {
  const port = new URL(other.url).port;
  await page.route(`**${path}`, (route) =>
    route.continue({
      url: `http://localhost:${port}${new URL(route.request().url()).pathname}`,
    }),
  );
}

test('a passkey made and used across two processes; each knows the other’s session', async ({
  page,
}) => {
  test.skip(!TEST_DATABASE_URL, POSTGRES_SKIP_MESSAGE);
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  const schema = `owner_two_${randomBytes(6).toString('hex')}`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  const databaseUrl = new URL(TEST_DATABASE_URL!);
  databaseUrl.searchParams.set('options', `-c search_path=${schema}`);
  let a: OwnerSite | undefined;
  let b: SiteServer | undefined;
  try {
    a = await startOwnerSite({ DATABASE_URL: databaseUrl.href });
    b = await startSiteServer({ ...a.env, PORT: String(await freePort()) });
    const setupLink = await a.addOwner('two@glass.example.nz');
    await addVirtualAuthenticator(page);

    // The options come from A; the new passkey is checked and stored by B.
    await sendTo(page, '/verify', b);
    await page.goto(setupLink);
    await page.getByRole('button', { name: 'Create a passkey on this device' }).click();
    await page.waitForURL(`${a.url}/admin`);
    const fromB = (await page.context().cookies(a.url)).find((c) => c.name === 'owner_session');
    expect(fromB).toBeDefined();
    expect(b.output()).toMatch(
      /"method":"POST","path":"\/admin\/setup\/[\w-]+\/verify","status":200/,
    );
    expect(a.server.output()).toMatch(
      /"method":"POST","path":"\/admin\/setup\/[\w-]+\/options","status":200/,
    );
    // B's session is A's too.
    const atA = await fetch(`${a.server.url}/admin/sign-in`, {
      headers: { cookie: `owner_session=${fromB?.value}` },
      redirect: 'manual',
    });
    expect(atA.headers.get('location')).toBe('/admin');

    // Signed out on A; signing in with the passkey: options from B, checked by A.
    await page.unroute('**/verify');
    await page.goto(`${a.url}/admin/sign-in/${'A'.repeat(43)}`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${a.url}/admin/sign-in`);
    await sendTo(page, '/admin/sign-in/options', b);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(`${a.url}/admin`);
    expect(b.output()).toMatch(/"method":"POST","path":"\/admin\/sign-in\/options","status":200/);
    expect(a.server.output()).toMatch(
      /"method":"POST","path":"\/admin\/sign-in\/verify","status":200/,
    );
    const fromA = (await page.context().cookies(a.url)).find((c) => c.name === 'owner_session');
    const atB = await fetch(`${b.url}/admin/sign-in`, {
      headers: { cookie: `owner_session=${fromA?.value}` },
      redirect: 'manual',
    });
    expect(atB.headers.get('location')).toBe('/admin');
    // A new session, not the one signed out.
    expect(fromA?.value).not.toBe(fromB?.value);
  } finally {
    await b?.stop();
    await a?.stop();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
});

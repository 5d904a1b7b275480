import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { openStore } from '../app/db/open-store.server.ts';
import { ownerSessions, SESSION_MAX_MS } from '../app/owner/sessions.server.ts';
import { attachServerLogsOnFailure, exportLeads } from './support/lead-server.ts';
import { startOwnerSite, type OwnerSite } from './support/owner-server.ts';

/**
 * Nothing of the owner's pages reaches a stranger (docs/operations.md,
 * "Owner's pages"): every /admin route, found from the page files under
 * app/pages/admin (so a new page is walked too), with every method, without
 * a session, with an expired session's cookie and with a forged one. No
 * answer holds a lead's name, e-mail, phone or message, nor an owner's
 * address, and every answer is private (no-store, noindex).
 */

test.describe.configure({ timeout: 150_000 });
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

const PAGES_DIR = path.resolve(import.meta.dirname, '../app/pages/admin');
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'] as const;

/** Each page or endpoint file's URL pattern, relative to /admin: `leads/[id]`, `sign-in/[token]`, ''. */
function adminRoutes(): string[] {
  const routes = new Set<string>(['']);
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(astro|ts|tsx|md)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        const route = path
          .relative(PAGES_DIR, full)
          .replace(/\.(astro|ts|tsx|md)$/, '')
          .replace(/(^|\/)index$/, '');
        routes.add(route.split(path.sep).join('/'));
      }
    }
  };
  walk(PAGES_DIR);
  return [...routes].sort();
}

let site: OwnerSite;
test.beforeAll(async () => {
  site = await startOwnerSite();
});
test.afterAll(async () => site?.stop());

test('every /admin route and method, without a valid session, shows no personal data', async () => {
  const tag = randomUUID().slice(0, 8);
  const lead = {
    name: `Walker ${tag}`,
    email: `walker.${tag}@example.nz`,
    phone: '027 555 0123',
    service: 'Windows',
    message: `Secret message ${tag}`,
    source: 'quote_form',
    idempotency_key: `walk-${tag}`,
  };
  const stored = await fetch(`${site.server.url}/api/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(lead),
  });
  expect(stored.status).toBe(201);
  const leadId = (await exportLeads(site.env)).find((l) => l.email === lead.email)?.id;
  expect(leadId).toBeDefined();
  const ownerEmail = `walk.owner.${tag}@glass.example.nz`;
  await site.addOwner(ownerEmail);

  // A session that began 31 days ago: expired, though its cookie is well formed.
  const store = await openStore({ dataDir: site.env.DATA_DIR! });
  let expired: string | null;
  try {
    const owner = await store.findOwnerByEmail(ownerEmail);
    const past = Date.now() - SESSION_MAX_MS - 24 * 60 * 60 * 1000;
    expired = await ownerSessions(store, { now: () => past }).create(owner!.id);
  } finally {
    await store.close();
  }
  expect(expired).not.toBeNull();
  const forged = randomBytes(32).toString('base64url');
  const cookies: Record<string, string | undefined> = {
    anonymous: undefined,
    expired: `owner_session=${expired}`,
    forged: `owner_session=${forged}`,
  };

  const routes = adminRoutes();
  // The pages this walk must at least cover.
  expect(routes).toEqual(
    expect.arrayContaining([
      '',
      'sign-in',
      'sign-in/[token]',
      'sign-out',
      'reports',
      'reports/google-ads.csv',
    ]),
  );
  const secrets = [lead.name, lead.email, lead.phone, lead.message, ownerEmail, leadId!];
  const urlOf = (route: string) =>
    `${site.server.url}/admin${route ? '/' : ''}${route.replace(/\[(\w+)\]/g, (_m, name: string) =>
      name === 'id' ? leadId! : randomBytes(32).toString('base64url'),
    )}`;

  let tried = 0;
  for (const route of routes) {
    for (const method of METHODS) {
      for (const [who, cookie] of Object.entries(cookies)) {
        const url = urlOf(route);
        const headers: Record<string, string> = {};
        if (cookie) headers.cookie = cookie;
        // From the site's own origin, so the request gets past the origin check to the page.
        if (method !== 'GET' && method !== 'HEAD') {
          headers.origin = site.url;
          headers['content-type'] = 'application/x-www-form-urlencoded';
        }
        const response = await fetch(url, {
          method,
          headers,
          body: method === 'GET' || method === 'HEAD' ? undefined : 'email=&response=%7B%7D',
          redirect: 'manual',
        });
        tried += 1;
        const what = `${method} /admin/${route} (${who}) → ${response.status}`;
        expect(response.headers.get('cache-control'), what).toBe('no-store');
        expect(response.headers.get('x-robots-tag'), what).toBe('noindex');
        const body = await response.text();
        const headerText = [...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
        for (const secret of secrets) {
          expect(body.toLowerCase(), what).not.toContain(secret.toLowerCase());
          expect(headerText.toLowerCase(), what).not.toContain(secret.toLowerCase());
        }
        // Without a session, only the sign-in pages and the app's files (to
        // read) answer; the rest lead there.
        const appFile =
          ['sw.js', 'manifest.webmanifest'].includes(route) && ['GET', 'HEAD'].includes(method);
        if (!/^(sign-in|setup)(\/|$)/.test(route) && !appFile) {
          expect(response.status, what).toBe(303);
          expect(response.headers.get('location'), what).toBe('/admin/sign-in');
        }
      }
    }
  }
  expect(tried).toBe(routes.length * METHODS.length * 3);
  test.info().annotations.push({
    type: 'walk',
    description: `${routes.length} routes × ${METHODS.length} methods × 3 cookies = ${tried} requests`,
  });
  console.log(`owner walk: ${routes.length} routes × ${METHODS.length} methods × 3 = ${tried}`);
});

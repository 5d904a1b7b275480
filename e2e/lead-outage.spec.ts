import { expect, test } from '@playwright/test';
import { SUBMIT_FAILED_MESSAGE } from '../app/leads/intake/form-rules.ts';
import { openPostgresStore } from '../app/db/store-postgres.server.ts';
import {
  eventually,
  startReceiver,
  type Receiver,
} from '../app/leads/testing/test-support.server.ts';
import {
  attachServerLogsOnFailure,
  exportLeads,
  startSiteServer,
  type SiteServer,
} from './support/lead-server.ts';
import {
  createPrivatePostgres,
  postgresBinDir,
  POSTGRES_BINARIES_SKIP_MESSAGE,
  type PrivatePostgres,
} from './support/postgres-server.ts';
import { NO_ATTRIBUTION } from '../app/leads/intake/attribution.ts';

/**
 * The store down is an outage, not a crash: a real
 * PostgreSQL of the test's own is stopped and started under running server
 * processes. Pages stay up, /healthz tells the truth, the site reconnects by
 * itself, submissions follow docs/operations.md#delivery step 1, and two processes on one
 * database share the rate limit, deliver each lead once and both purge.
 */

test.describe.configure({ timeout: 150_000 });
test.skip(!postgresBinDir(), POSTGRES_BINARIES_SKIP_MESSAGE);
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

const cleanups: Array<() => Promise<void>> = [];
test.afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function database(): Promise<PrivatePostgres> {
  const postgres = await createPrivatePostgres();
  cleanups.push(() => postgres.remove());
  return postgres;
}

async function server(env: Record<string, string>): Promise<SiteServer> {
  const started = await startSiteServer(env);
  cleanups.push(() => started.stop());
  return started;
}

async function receiver(mode: 'ok' | 'fail'): Promise<Receiver> {
  const started = await startReceiver(mode);
  cleanups.push(() => started.close());
  return started;
}

let counter = 0;
function lead(tag: string) {
  counter += 1;
  return {
    name: `Outage ${tag}`,
    email: 'outage@example.nz',
    phone: '027 555 0199',
    service: 'Windows',
    message: `Outage test ${tag} ${counter}`,
    source: 'quote_form',
  };
}

async function post(url: string, body: unknown) {
  const response = await fetch(`${url}/api/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function health(url: string) {
  const response = await fetch(`${url}/healthz`);
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const NOT_CHECKED = { state: 'not-checked', verifiedAt: null, lagSeconds: null };

test('PostgreSQL stopped and started under a running server: pages stay, leads resume', async () => {
  const postgres = await database();
  await postgres.start();
  const site = await server({ DATABASE_URL: postgres.url, LEAD_ACCEPT: 'stored' });

  expect(await health(site.url)).toEqual({
    status: 200,
    json: {
      ok: true,
      mode: 'stored',
      store: { kind: 'postgres', state: 'up', writable: true },
      targets: 0,
      failedDeliveries: 0,
      // PostgreSQL's backups are its own archiving: the daily check says it cannot check them.
      backup: NOT_CHECKED,
    },
  });
  const before = await post(site.url, lead('before'));
  expect(before.status).toBe(201);

  await postgres.stop();
  expect((await fetch(`${site.url}/livez`)).status).toBe(200);
  for (const page of ['/', '/quote', '/blog']) {
    expect((await fetch(`${site.url}${page}`)).status, page).toBe(200);
  }
  await eventually(async () => {
    expect(await health(site.url)).toEqual({
      status: 503,
      json: {
        ok: false,
        mode: 'stored',
        store: { kind: 'postgres', state: 'down', writable: false },
        targets: 0,
        failedDeliveries: null,
        backup: NOT_CHECKED,
      },
    });
  }, 20_000);
  // docs/operations.md#delivery step 1, stored mode: the message of
  // docs/forms.md#messages, and nothing half-written.
  const during = await post(site.url, lead('during'));
  expect(during).toEqual({ status: 502, json: { error: SUBMIT_FAILED_MESSAGE } });

  await postgres.start();
  // Back by itself, without a restart.
  await eventually(async () => expect((await health(site.url)).status).toBe(200), 30_000);
  const after = await post(site.url, lead('after'));
  expect(after.status).toBe(201);

  const stored = await exportLeads({ DATABASE_URL: postgres.url });
  expect(stored.map((entry) => entry.id)).toEqual([before.json.id, after.json.id]);
  const logs = site.output();
  expect(logs.match(/Lead store unavailable/g)?.length).toBe(1);
  expect(logs).toContain('Lead store available');
});

test('the server starts while PostgreSQL is down, and migrates and accepts once it is up', async () => {
  const postgres = await database();
  const site = await server({ DATABASE_URL: postgres.url, LEAD_ACCEPT: 'stored' });
  expect((await fetch(`${site.url}/`)).status).toBe(200);
  expect((await fetch(`${site.url}/livez`)).status).toBe(200);
  expect((await health(site.url)).status).toBe(503);
  expect((await post(site.url, lead('too-early'))).status).toBe(502);

  await postgres.start();
  await eventually(async () => expect((await health(site.url)).status).toBe(200), 30_000);
  const accepted = await post(site.url, lead('first'));
  expect(accepted.status).toBe(201);
  expect((await exportLeads({ DATABASE_URL: postgres.url })).map((entry) => entry.id)).toEqual([
    accepted.json.id,
  ]);
});

test('delivered mode: with PostgreSQL down a lead still reaches the webhooks', async () => {
  const postgres = await database();
  await postgres.start();
  const hook = await receiver('ok');
  const site = await server({
    DATABASE_URL: postgres.url,
    // The earlier name of `delivered`, still accepted.
    LEAD_ACCEPT: 'webhook',
    LEAD_WEBHOOK_URLS: hook.url,
  });
  await postgres.stop();
  await eventually(async () => {
    expect((await health(site.url)).json).toEqual(
      expect.objectContaining({
        ok: true,
        mode: 'delivered',
        store: { kind: 'postgres', state: 'down', writable: false },
      }),
    );
  }, 20_000);
  expect((await health(site.url)).status).toBe(200);
  const body = lead('webhook-only');
  const result = await post(site.url, body);
  expect(result.status).toBe(201);
  expect(hook.requests.map((request) => (request.json as { message: string }).message)).toEqual([
    body.message,
  ]);
});

test('two server processes on one PostgreSQL: one rate limit, each lead delivered once, both purge', async () => {
  const postgres = await database();
  await postgres.start();
  // Leads past their retention, from long ago.
  const seed = await openPostgresStore({ connectionString: postgres.url });
  const longAgo = Date.now() - 800 * 24 * 60 * 60 * 1000;
  for (let index = 0; index < 5; index++) {
    await seed.insertLead(
      {
        id: crypto.randomUUID(),
        ...lead(`old-${index}`),
        source: 'quote_form',
        created_at: new Date(longAgo + index).toISOString(),
        status: 'accepted',
        idempotency_key: null,
        urgent: false,
        attribution: NO_ATTRIBUTION,
      },
      [],
    );
  }
  await seed.close();

  const hook = await receiver('fail');
  const env = {
    DATABASE_URL: postgres.url,
    LEAD_ACCEPT: 'stored',
    LEAD_WEBHOOK_URLS: hook.url,
    LEAD_RATE_LIMIT: '24',
  };
  const [a, b] = [await server(env), await server(env)];

  // Both processes purge at start, safely: the old leads are gone once.
  await eventually(async () => {
    expect(await exportLeads({ DATABASE_URL: postgres.url })).toEqual([]);
  });

  // 24 submissions from one visitor, alternating processes: all accepted…
  const ids: string[] = [];
  for (let index = 0; index < 24; index++) {
    const result = await post((index % 2 === 0 ? a : b).url, lead(`two-${index}`));
    expect(result.status, `submission ${index + 1}`).toBe(201);
    ids.push(String(result.json.id));
  }
  // …and the 25th is over the limit on either process: one count, not one each.
  expect((await post(a.url, lead('over-a'))).status).toBe(429);
  expect((await post(b.url, lead('over-b'))).status).toBe(429);

  // The webhook comes back; both outboxes retry, each lead arrives once.
  const failedAttempts = hook.requests.length;
  hook.mode = 'ok';
  await eventually(async () => {
    const leads = await exportLeads({ DATABASE_URL: postgres.url });
    expect(leads.map((entry) => entry.deliveries[0]?.state)).toEqual(ids.map(() => 'delivered'));
  }, 90_000);
  const delivered = hook.requests
    .slice(failedAttempts)
    .map((request) => (request.json as { id: string }).id)
    .sort();
  expect(delivered).toEqual([...ids].sort());
  for (const site of [a, b]) {
    expect(site.output()).not.toContain('Retention purge failed');
    // Webhooks are named by label in the logs, never by their address.
    expect(site.output()).not.toContain(new URL(hook.url).pathname);
  }
});

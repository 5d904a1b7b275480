import { randomBytes, randomUUID } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { SUBMIT_FAILED_MESSAGE } from '../app/leads/intake/form-rules.ts';
import { SQLITE_FILE_NAME } from '../app/db/store-sqlite.server.ts';
import {
  eventually,
  POSTGRES_SKIP_MESSAGE,
  startReceiver,
  TEST_DATABASE_URL,
} from '../app/leads/testing/test-support.server.ts';
import {
  attachServerLogsOnFailure,
  exportLeads,
  startSiteServer,
  tempDataDir,
  type ExportedLead,
} from './support/lead-server.ts';

/**
 * Fault tests of the lead pipeline (docs/operations.md#delivery), against real server
 * processes, real webhook receivers and real stores: a crash during a burst,
 * webhooks down then up (across a crash), and a store that stops answering
 * in each LEAD_ACCEPT mode. No browser: the API is the same service the
 * forms use.
 */

// Servers start and stop several times in each test (the slowest also waits
// out a 5 s busy timeout): a ceiling with room for a loaded machine.
test.describe.configure({ timeout: 240_000 });
// Playwright reads the fixtures a hook uses from its first parameter's pattern: none here.
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

function lead(tag: string, extra: Record<string, string> = {}) {
  return {
    name: `Fault ${tag}`,
    email: 'fault@example.nz',
    phone: '027 555 0199',
    service: 'Windows',
    message: `Fault test ${tag}`,
    source: 'quote_form',
    idempotency_key: `fault-${tag}`,
    ...extra,
  };
}

async function postLead(url: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${url}/api/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

const ids = (leads: ExportedLead[]) => new Set(leads.map((entry) => entry.id));

test('SIGKILL during a burst of concurrent submissions: every lead that got 201 is in the export after a restart', async () => {
  const data = tempDataDir();
  const env = { DATA_DIR: data.dir };
  let server = await startSiteServer(env);
  const answered = new Map<string, string>(); // idempotency key → lead id (201 only)
  let failures = 0;
  let stop = false;
  try {
    // 50 clients, each submitting one lead after another until the server dies.
    const clients = Array.from({ length: 50 }, async (_, client) => {
      for (let index = 0; !stop; index++) {
        const key = `burst-${client}-${index}-${randomBytes(3).toString('hex')}`;
        try {
          const response = await postLead(server.url, lead(key, { idempotency_key: key }));
          if (response.status === 201) answered.set(key, (response.json as { id: string }).id);
        } catch {
          failures += 1; // the connection died with the server: no answer, no promise
          return;
        }
      }
    });
    await expect.poll(() => answered.size, { timeout: 120_000 }).toBeGreaterThanOrEqual(100);
    await server.kill();
    stop = true;
    await Promise.all(clients);
    expect(failures, 'requests were in flight when the server died').toBeGreaterThan(0);

    server = await startSiteServer(env);
    const stored = ids(await exportLeads(env));
    const missing = [...answered.values()].filter((id) => !stored.has(id));
    expect(missing, `${answered.size} answered with 201`).toEqual([]);
  } finally {
    stop = true;
    await server.stop();
    data.remove();
  }
});

test('webhooks down, a crash, webhooks up: every accepted lead is delivered by the outbox (stored mode)', async () => {
  const data = tempDataDir();
  const failing = await startReceiver('fail');
  failing.failStatus = 503;
  const dropping = await startReceiver('drop');
  const env = {
    DATA_DIR: data.dir,
    LEAD_ACCEPT: 'stored',
    LEAD_WEBHOOK_URLS: `${failing.url},${dropping.url}`,
    LEAD_WEBHOOK_TIMEOUT_MS: '5000',
  };
  let server = await startSiteServer(env);
  try {
    const accepted: string[] = [];
    for (let index = 0; index < 5; index++) {
      const response = await postLead(server.url, lead(`down-${randomUUID()}`));
      expect(response.status).toBe(201);
      accepted.push((response.json as { id: string }).id);
    }
    // Every first attempt has failed and been recorded (so no lease is held).
    await eventually(async () => {
      const leads = await exportLeads(env);
      for (const entry of leads) {
        // The webhooks' rows (the push to the owners' phones has its own).
        for (const delivery of entry.deliveries.filter((d) => d.target !== 'push')) {
          expect(delivery.attempts).toBeGreaterThanOrEqual(1);
          expect(delivery.state).toBe('pending');
        }
      }
    }, 60_000);

    // A crash while the retries are pending, then everything comes back.
    await server.kill();
    failing.mode = 'ok';
    dropping.mode = 'ok';
    server = await startSiteServer(env);

    await eventually(async () => {
      const leads = await exportLeads(env);
      expect(
        leads.map((entry) =>
          entry.deliveries.filter((d) => d.target !== 'push').map((d) => d.state),
        ),
      ).toEqual(accepted.map(() => ['delivered', 'delivered']));
    }, 120_000);
    for (const receiver of [failing, dropping]) {
      const delivered = receiver.requests
        .map((request) => (request.json as { id?: string } | undefined)?.id)
        .filter((id) => id && accepted.includes(id));
      expect(new Set(delivered)).toEqual(new Set(accepted));
    }
  } finally {
    await server.stop();
    await failing.close();
    await dropping.close();
    data.remove();
  }
});

test('webhook mode: one webhook down is tolerated, and the lead reaches it once it is back', async () => {
  const data = tempDataDir();
  const up = await startReceiver('ok');
  const down = await startReceiver('drop');
  const env = {
    DATA_DIR: data.dir,
    LEAD_ACCEPT: 'webhook',
    LEAD_WEBHOOK_URLS: `${up.url},${down.url}`,
  };
  const server = await startSiteServer(env);
  try {
    const response = await postLead(server.url, lead(randomUUID()));
    expect(response.status).toBe(201);
    const id = (response.json as { id: string }).id;
    down.mode = 'ok';
    // The outbox's first retry comes about 5 s after the failure
    // (docs/operations.md#delivery, step 3).
    await eventually(async () => {
      const [entry] = await exportLeads(env);
      expect(entry?.deliveries.filter((d) => d.target !== 'push').map((d) => d.state)).toEqual([
        'delivered',
        'delivered',
      ]);
    }, 60_000);
    expect(down.requests.filter((r) => (r.json as { id: string }).id === id)).toHaveLength(2);
  } finally {
    await server.stop();
    await up.close();
    await down.close();
    data.remove();
  }
});

// ---------------------------------------------------------------------------
// The store stops answering (docs/operations.md#delivery, step 1): in `webhook` mode the
// failure is logged and the webhooks decide; in `stored` mode it fails the submission.

test('embedded store locked by another process: webhook mode accepts by webhook, stored mode refuses with 502', async () => {
  const receiver = await startReceiver('ok');
  const servers = await Promise.all(
    (['webhook', 'stored'] as const).map(async (mode) => {
      const data = tempDataDir();
      const env = {
        DATA_DIR: data.dir,
        LEAD_ACCEPT: mode,
        LEAD_WEBHOOK_URLS: receiver.url,
      };
      return { mode, data, env, server: await startSiteServer(env) };
    }),
  );
  // Another process holds the write lock: every write waits out the busy timeout, then fails.
  // It waits its turn for the lock like any other process: a server just
  // started may be writing at that moment.
  // Taken inside the `try`, so a lock that cannot be had still stops both servers.
  const locks: DatabaseSync[] = [];
  try {
    for (const { data } of servers) {
      const db = new DatabaseSync(path.join(data.dir, SQLITE_FILE_NAME), { timeout: 10_000 });
      locks.push(db);
      db.exec('BEGIN EXCLUSIVE');
    }
    const [webhook, stored] = await Promise.all(
      servers.map(({ mode, server }) => postLead(server.url, lead(`${mode}-${randomUUID()}`))),
    );
    expect(webhook!.status).toBe(201);
    expect(stored).toEqual({ status: 502, json: { error: SUBMIT_FAILED_MESSAGE } });
    const delivered = receiver.requests.map((r) => (r.json as { message: string }).message);
    expect(delivered.filter((message) => message.includes('webhook-'))).toHaveLength(1);
    expect(delivered.filter((message) => message.includes('stored-'))).toHaveLength(0);
    expect(servers[0]!.server.output()).toContain(
      'Lead store failed; delivering to the targets only',
    );

    // Store back: submissions are stored again.
    for (const db of locks) db.exec('ROLLBACK');
    const again = await postLead(servers[1]!.server.url, lead(`stored-again-${randomUUID()}`));
    expect(again.status).toBe(201);
    expect(await exportLeads(servers[1]!.env)).toHaveLength(1);
  } finally {
    for (const db of locks) {
      if (db.isTransaction) db.exec('ROLLBACK');
      db.close();
    }
    for (const { server, data } of servers) {
      await server.stop();
      data.remove();
    }
    await receiver.close();
  }
});

/** A TCP relay to PostgreSQL that can be cut, like a database host going away. */
async function startDatabaseRelay(target: URL) {
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const port = (relay.address() as net.AddressInfo).port;
  return {
    port,
    /** Refuses new connections and drops the open ones. */
    async cut() {
      await new Promise<void>((resolve) => {
        relay.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}

test('PostgreSQL unreachable: webhook mode accepts by webhook, stored mode refuses with 502', async () => {
  test.skip(!TEST_DATABASE_URL, POSTGRES_SKIP_MESSAGE);
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  const receiver = await startReceiver('ok');
  const target = new URL(TEST_DATABASE_URL!);
  const setups = await Promise.all(
    (['webhook', 'stored'] as const).map(async (mode) => {
      const schema = `leads_faults_${randomBytes(6).toString('hex')}`;
      await admin.query(`CREATE SCHEMA ${schema}`);
      const relay = await startDatabaseRelay(target);
      const url = new URL(TEST_DATABASE_URL!);
      url.host = `127.0.0.1:${relay.port}`;
      url.searchParams.set('options', `-c search_path=${schema}`);
      const env = {
        DATABASE_URL: url.href,
        LEAD_ACCEPT: mode,
        LEAD_WEBHOOK_URLS: receiver.url,
      };
      return { mode, schema, relay, env, server: await startSiteServer(env) };
    }),
  );
  try {
    for (const { server } of setups) {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    }
    await Promise.all(setups.map(({ relay }) => relay.cut()));
    const [webhook, stored] = await Promise.all(
      setups.map(({ mode, server }) => postLead(server.url, lead(`pg-${mode}-${randomUUID()}`))),
    );
    expect(webhook!.status).toBe(201);
    expect(stored).toEqual({ status: 502, json: { error: SUBMIT_FAILED_MESSAGE } });
    const delivered = receiver.requests.map((r) => (r.json as { message: string }).message);
    expect(delivered.filter((message) => message.includes('pg-webhook-'))).toHaveLength(1);
    expect(delivered.filter((message) => message.includes('pg-stored-'))).toHaveLength(0);
    expect((await fetch(`${setups[1]!.server.url}/healthz`)).status).toBe(503);
  } finally {
    for (const { server, schema } of setups) {
      await server.stop();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    }
    await admin.end();
    await receiver.close();
  }
});

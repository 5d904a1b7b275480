import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOutbox, DEFAULT_RETRY_POLICY, nextRetryAt, retryDelayMs } from './outbox.server.ts';
import { openSqliteLeadStore } from './store-sqlite.server.ts';
import type { LeadRecord, LeadStore } from './store.server.ts';
import {
  captureLogger,
  eventually,
  silentLogger,
  startReceiver,
  tempDataDir,
  type Receiver,
} from './test-support.server.ts';

describe('retry schedule (pure)', () => {
  it('waits about 5 s first, then doubles', () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n))).toEqual([
      5000, 10_000, 20_000, 40_000, 80_000,
    ]);
  });

  it('caps each wait at 15 minutes', () => {
    expect(retryDelayMs(8)).toBe(640_000);
    expect(retryDelayMs(9)).toBe(15 * 60_000);
    expect(retryDelayMs(60)).toBe(15 * 60_000);
    expect(retryDelayMs(5000)).toBe(15 * 60_000);
  });

  it('treats nonsense attempt counts as the first', () => {
    expect(retryDelayMs(0)).toBe(5000);
    expect(retryDelayMs(-3)).toBe(5000);
  });

  it('follows a custom policy', () => {
    const policy = { baseDelayMs: 100, maxDelayMs: 350 };
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, policy))).toEqual([100, 200, 350, 350]);
  });

  it('retries for up to 24 hours after the lead was created, then gives up', () => {
    const created = '2025-03-01T00:00:00.000Z';
    const start = Date.parse(created);
    expect(nextRetryAt(created, 1, start)).toBe('2025-03-01T00:00:05.000Z');
    const nearEnd = start + DEFAULT_RETRY_POLICY.maxAgeMs - 15 * 60_000;
    expect(nextRetryAt(created, 20, nearEnd)).toBe('2025-03-02T00:00:00.000Z');
    expect(nextRetryAt(created, 20, nearEnd + 1)).toBeNull();
  });

  it('about 100 attempts fit in the 24-hour window with the defaults', () => {
    const created = '2025-03-01T00:00:00.000Z';
    let now = Date.parse(created);
    let attempts = 1;
    for (;;) {
      const next = nextRetryAt(created, attempts, now);
      if (next === null) break;
      now = Date.parse(next);
      attempts++;
    }
    // 5+10+…+640 s ≈ 21 min, then every 15 min for the rest of the day.
    expect(attempts).toBeGreaterThan(95);
    expect(attempts).toBeLessThan(105);
  });
});

describe('outbox worker', () => {
  let data: ReturnType<typeof tempDataDir>;
  let store: LeadStore;
  let receivers: Receiver[];

  beforeEach(async () => {
    data = tempDataDir('outbox-');
    store = await openSqliteLeadStore({ dataDir: data.dir });
    receivers = [];
  });

  afterEach(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await store.close();
    data.remove();
  });

  async function receiver(mode: 'ok' | 'fail' | 'hang' = 'ok') {
    const r = await startReceiver(mode);
    receivers.push(r);
    return r;
  }

  async function acceptedLead(urls: string[], createdAt = new Date().toISOString()) {
    const lead: LeadRecord = {
      id: randomUUID(),
      name: 'Aroha Ngata',
      email: 'aroha@example.co.nz',
      phone: '021 555 0101',
      service: 'Windows',
      message: 'Cracked pane',
      created_at: createdAt,
      source: 'quote_form',
      status: 'accepted',
      idempotency_key: null,
    };
    await store.insertLead(
      lead,
      urls.map((url) => ({ url, state: 'pending', next_attempt_at: createdAt })),
    );
    return lead;
  }

  it('delivers due deliveries and records them', async () => {
    const hook = await receiver('ok');
    const lead = await acceptedLead([hook.url]);
    const outbox = createOutbox({ store, logger: silentLogger() });
    expect(await outbox.runOnce()).toBe(1);
    expect(hook.requests[0]?.json).toEqual(expect.objectContaining({ id: lead.id }));
    expect(hook.requests[0]?.headers['idempotency-key']).toBe(lead.id);
    const delivery = (await store.getLead(lead.id))?.deliveries[0];
    expect(delivery).toEqual(
      expect.objectContaining({ state: 'delivered', attempts: 1, last_error: null }),
    );
    expect(await outbox.runOnce()).toBe(0);
  });

  it('reschedules a failure with backoff, on the injected clock', async () => {
    const hook = await receiver('fail');
    let clock = Date.now();
    const lead = await acceptedLead([hook.url], new Date(clock).toISOString());
    const outbox = createOutbox({ store, logger: silentLogger(), now: () => clock });
    await outbox.runOnce();
    let delivery = (await store.getLead(lead.id))?.deliveries[0];
    expect(delivery).toEqual(
      expect.objectContaining({
        state: 'pending',
        attempts: 1,
        next_attempt_at: new Date(clock + 5000).toISOString(),
        last_error: 'HTTP 500 receiver is down for maintenance',
      }),
    );
    clock += 4999;
    expect(await outbox.runOnce()).toBe(0);
    clock += 1;
    expect(await outbox.runOnce()).toBe(1);
    delivery = (await store.getLead(lead.id))?.deliveries[0];
    expect(delivery?.attempts).toBe(2);
    expect(delivery?.next_attempt_at).toBe(new Date(clock + 10_000).toISOString());
    hook.mode = 'ok';
    clock += 10_000;
    expect(await outbox.runOnce()).toBe(1);
    delivery = (await store.getLead(lead.id))?.deliveries[0];
    expect(delivery).toEqual(
      expect.objectContaining({ state: 'delivered', attempts: 3, next_attempt_at: null }),
    );
  });

  it('marks a delivery failed, and logs it, once the 24 hours are over', async () => {
    const hook = await receiver('fail');
    const created = Date.parse('2025-03-01T00:00:00.000Z');
    let clock = created + 24 * 3600_000 - 1000;
    const lead = await acceptedLead([hook.url], new Date(created).toISOString());
    const log = captureLogger();
    const outbox = createOutbox({ store, logger: log.logger, now: () => clock });
    await outbox.runOnce();
    const delivery = (await store.getLead(lead.id))?.deliveries[0];
    expect(delivery).toEqual(
      expect.objectContaining({ state: 'failed', attempts: 1, next_attempt_at: null }),
    );
    expect(log.text()).toContain('retries exhausted');
    expect(log.text()).not.toContain('aroha@example.co.nz');
    clock += 3600_000;
    expect(await outbox.runOnce()).toBe(0);
  });

  it('never touches leads that are not accepted', async () => {
    const hook = await receiver('ok');
    for (const status of ['received', 'not_accepted', 'spam'] as const) {
      await store.insertLead(
        {
          id: randomUUID(),
          name: 'N',
          email: 'n@example.com',
          phone: '12345678',
          service: 'Windows',
          message: 'm',
          created_at: new Date().toISOString(),
          source: 'contact_form',
          status,
          idempotency_key: null,
        },
        [{ url: hook.url, state: 'pending', next_attempt_at: new Date(0).toISOString() }],
      );
    }
    const outbox = createOutbox({ store, logger: silentLogger() });
    expect(await outbox.runOnce()).toBe(0);
    expect(hook.requests).toHaveLength(0);
  });

  it('marks leads left "received" by a dead process as not accepted', async () => {
    const id = randomUUID();
    await store.insertLead(
      {
        id,
        name: 'N',
        email: 'n@example.com',
        phone: '12345678',
        service: 'Windows',
        message: 'm',
        created_at: new Date(Date.now() - 600_000).toISOString(),
        source: 'contact_form',
        status: 'received',
        idempotency_key: null,
      },
      [{ url: 'http://127.0.0.1:9/x', state: 'pending', next_attempt_at: null }],
    );
    const outbox = createOutbox({ store, logger: silentLogger(), timeoutMs: 1000 });
    await outbox.runOnce();
    const lead = await store.getLead(id);
    expect(lead?.status).toBe('not_accepted');
    expect(lead?.deliveries[0]?.state).toBe('not_sent');
  });

  it('polls in the background after start(), and kick() runs soon', async () => {
    const hook = await receiver('ok');
    const outbox = createOutbox({ store, logger: silentLogger(), pollIntervalMs: 60_000 });
    outbox.start();
    await eventually(async () => expect(await outbox.runOnce()).toBe(0));
    await acceptedLead([hook.url]);
    outbox.kick();
    await hook.waitForRequests(1);
    await outbox.stop();
  });

  it('stop() waits for in-flight deliveries to be recorded', async () => {
    const hook = await receiver('hang');
    const lead = await acceptedLead([hook.url]);
    const outbox = createOutbox({
      store,
      logger: silentLogger(),
      timeoutMs: 400,
      pollIntervalMs: 10,
    });
    outbox.start();
    await hook.waitForRequests(1);
    await outbox.stop();
    // The attempt timed out during stop() and its result is in the store.
    const delivery = (await store.getLead(lead.id))?.deliveries[0];
    expect(delivery).toEqual(
      expect.objectContaining({
        state: 'pending',
        attempts: 1,
        last_error: 'timed out after 400 ms',
        lease_owner: null,
      }),
    );
  });

  it('a crashed worker’s claims are picked up once the lease expires', async () => {
    const hook = await receiver('ok');
    let clock = Date.now();
    const lead = await acceptedLead([hook.url], new Date(clock).toISOString());
    // A worker that claimed and died: its lease is in the store, no result.
    await store.claimDueDeliveries({
      owner: 'dead-worker',
      now: new Date(clock).toISOString(),
      leaseUntil: new Date(clock + 38_000).toISOString(),
      limit: 10,
    });
    const outbox = createOutbox({ store, logger: silentLogger(), now: () => clock });
    expect(await outbox.runOnce()).toBe(0);
    clock += 38_000;
    expect(await outbox.runOnce()).toBe(1);
    expect((await store.getLead(lead.id))?.deliveries[0]?.state).toBe('delivered');
  });

  it('works through more due deliveries than one batch', async () => {
    const hook = await receiver('ok');
    for (let index = 0; index < 7; index++) await acceptedLead([hook.url]);
    const outbox = createOutbox({ store, logger: silentLogger(), batchSize: 3 });
    expect(await outbox.runOnce()).toBe(7);
    expect(hook.requests).toHaveLength(7);
  });
});

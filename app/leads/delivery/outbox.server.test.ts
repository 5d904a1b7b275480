import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import {
  createOutbox,
  DEFAULT_RETRY_POLICY,
  eventLoopBusy,
  nextRetryAt,
  retryDelayMs,
  type OutboxOptions,
  type RemovedTargetReport,
} from './outbox.server.ts';
import { openSqliteStore } from '../../db/store-sqlite.server.ts';
import type { LeadRecord, AppStore } from '../../db/store.server.ts';
import type { DeliveryTarget } from './targets.server.ts';
import { webhookTargets } from './webhooks.server.ts';
import {
  captureLogger,
  eventually,
  silentLogger,
  startReceiver,
  tempDataDir,
  type Receiver,
} from '../testing/test-support.server.ts';
import { NO_ATTRIBUTION } from '../intake/attribution.ts';

/** The top of each jittered wait: the schedule itself. */
const noJitter = { random: () => 1 };

describe('retry schedule (pure)', () => {
  it('waits up to 5 s first, then up to twice as long each time', () => {
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
    const policy = DEFAULT_RETRY_POLICY;
    expect(nextRetryAt(created, 1, start, policy, noJitter)).toBe('2025-03-01T00:00:05.000Z');
    const nearEnd = start + DEFAULT_RETRY_POLICY.maxAgeMs - 15 * 60_000;
    expect(nextRetryAt(created, 20, nearEnd, policy, noJitter)).toBe('2025-03-02T00:00:00.000Z');
    expect(nextRetryAt(created, 20, nearEnd + 1, policy, noJitter)).toBeNull();
  });

  it('draws each wait at random between 0 and the schedule (full jitter)', () => {
    const created = '2025-03-01T00:00:00.000Z';
    const start = Date.parse(created);
    const policy = DEFAULT_RETRY_POLICY;
    const at = (attempts: number, random: number) =>
      Date.parse(nextRetryAt(created, attempts, start, policy, { random: () => random }) ?? '') -
      start;
    expect(at(1, 0)).toBe(0);
    expect(at(1, 0.5)).toBe(2500);
    expect(at(3, 0.25)).toBe(5000);
    expect(at(12, 0.5)).toBe(450_000);
    // Many leads failing at once come back spread over the whole wait, not in one second.
    const waits = Array.from(
      { length: 200 },
      () => Date.parse(nextRetryAt(created, 6, start) ?? '') - start,
    );
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...waits)).toBeLessThanOrEqual(160_000);
    expect(new Set(waits.map((wait) => Math.floor(wait / 1000))).size).toBeGreaterThan(50);
  });

  it('never retries sooner than the receiver asked (Retry-After)', () => {
    const created = '2025-03-01T00:00:00.000Z';
    const start = Date.parse(created);
    const policy = DEFAULT_RETRY_POLICY;
    const retryAt = (retryAfterMs: number) =>
      nextRetryAt(created, 1, start, policy, { random: () => 0.5, retryAfterMs });
    expect(retryAt(120_000)).toBe('2025-03-01T00:02:00.000Z');
    // A shorter Retry-After than the jittered wait changes nothing.
    expect(retryAt(1000)).toBe('2025-03-01T00:00:02.500Z');
    // Asked to wait past the 24 hours: given up.
    expect(retryAt(25 * 3600_000)).toBeNull();
  });

  it('about 100 attempts fit in the 24-hour window with the defaults', () => {
    const created = '2025-03-01T00:00:00.000Z';
    let now = Date.parse(created);
    let attempts = 1;
    for (;;) {
      const next = nextRetryAt(created, attempts, now, DEFAULT_RETRY_POLICY, noJitter);
      if (next === null) break;
      now = Date.parse(next);
      attempts++;
    }
    // At the top of every wait: 5+10+…+640 s ≈ 21 min, then every 15 min for the rest of the day.
    expect(attempts).toBeGreaterThan(95);
    expect(attempts).toBeLessThan(105);
  });
});

describe('eventLoopBusy', () => {
  it('is true after the loop was kept busy, false after it was idle', async () => {
    const busy = eventLoopBusy(0.9, 100);
    expect(busy()).toBe(false);
    const until = performance.now() + 300;
    while (performance.now() < until) {
      // keep the event loop busy
    }
    expect(busy()).toBe(true);
    // A shorter window than 100 ms keeps the verdict.
    expect(busy()).toBe(true);
    // Idle from here: the verdict turns false once a window has passed with
    // the loop waiting. Waited on, not timed: on a loaded machine other work
    // of this worker (the runner's own messages) may fill the first window.
    await vi.waitFor(() => expect(busy()).toBe(false), { timeout: 10_000, interval: 150 });
  });
});

describe('outbox worker', () => {
  let data: ReturnType<typeof tempDataDir>;
  let store: AppStore;
  let receivers: Receiver[];

  beforeEach(async () => {
    data = tempDataDir('outbox-');
    store = await openSqliteStore({ dataDir: data.dir });
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

  async function acceptedLead(
    targets: readonly DeliveryTarget[],
    createdAt = new Date().toISOString(),
  ) {
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
      urgent: false,
      attribution: NO_ATTRIBUTION,
    };
    await store.insertLead(
      lead,
      targets.map((target) => ({
        target: target.key,
        label: target.label,
        state: 'pending',
        next_attempt_at: createdAt,
      })),
    );
    return lead;
  }

  /** An outbox delivering to these receivers' webhooks, waits at the top of the schedule. */
  function outboxFor(
    hooks: readonly Receiver[],
    options: Partial<OutboxOptions> & { secret?: string } = {},
  ) {
    const { secret, ...rest } = options;
    const targets = webhookTargets(
      hooks.map((hook) => hook.url),
      { timeoutMs: rest.timeoutMs ?? 2000, secret },
    );
    const outbox = createOutbox({
      store,
      logger: silentLogger(),
      targets,
      random: () => 1,
      ...rest,
    });
    return { outbox, targets };
  }

  it('delivers due deliveries and records them', async () => {
    const hook = await receiver('ok');
    const { outbox, targets } = outboxFor([hook]);
    const lead = await acceptedLead(targets);
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
    const { outbox, targets } = outboxFor([hook], { now: () => clock });
    const lead = await acceptedLead(targets, new Date(clock).toISOString());
    await outbox.runOnce();
    let delivery = (await store.getLead(lead.id))?.deliveries[0];
    expect(delivery).toEqual(
      expect.objectContaining({
        state: 'pending',
        attempts: 1,
        next_attempt_at: new Date(clock + 5000).toISOString(),
        last_error: 'HTTP 500 Internal Server Error: receiver is down for maintenance',
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
    const log = captureLogger();
    const { outbox, targets } = outboxFor([hook], { logger: log.logger, now: () => clock });
    const lead = await acceptedLead(targets, new Date(created).toISOString());
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

  for (const status of [400, 401, 403, 404, 410, 422]) {
    it(`a permanent refusal (${status}) is marked failed with its status, not retried`, async () => {
      const hook = await receiver('fail');
      hook.failStatus = status;
      hook.failBody = 'no such hook';
      let clock = Date.now();
      const log = captureLogger();
      const { outbox, targets } = outboxFor([hook], { logger: log.logger, now: () => clock });
      const lead = await acceptedLead(targets, new Date(clock).toISOString());
      expect(await outbox.runOnce()).toBe(1);
      const delivery = (await store.getLead(lead.id))?.deliveries[0];
      expect(delivery).toEqual(
        expect.objectContaining({ state: 'failed', attempts: 1, next_attempt_at: null }),
      );
      expect(delivery?.last_error).toMatch(new RegExp(`^refused: HTTP ${status} .*no such hook$`));
      const errors = log.entries().filter((entry) => entry.level === 50);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toEqual(
        expect.objectContaining({
          target: targets[0]?.label,
          status,
          msg: expect.stringMatching(/refused/),
        }),
      );
      clock += 24 * 3600_000;
      expect(await outbox.runOnce()).toBe(0);
      expect(hook.requests).toHaveLength(1);
    });
  }

  for (const status of [408, 429, 500, 502, 503, 504]) {
    it(`${status} is retried`, async () => {
      const hook = await receiver('fail');
      hook.failStatus = status;
      const clock = Date.now();
      const { outbox, targets } = outboxFor([hook], { now: () => clock });
      const lead = await acceptedLead(targets, new Date(clock).toISOString());
      await outbox.runOnce();
      expect((await store.getLead(lead.id))?.deliveries[0]).toEqual(
        expect.objectContaining({ state: 'pending', attempts: 1 }),
      );
    });
  }

  it('honours Retry-After on a 429', async () => {
    const hook = await receiver('fail');
    hook.failStatus = 429;
    hook.headers = { 'retry-after': '120' };
    const clock = Date.now();
    const { outbox, targets } = outboxFor([hook], { now: () => clock });
    const lead = await acceptedLead(targets, new Date(clock).toISOString());
    await outbox.runOnce();
    expect((await store.getLead(lead.id))?.deliveries[0]?.next_attempt_at).toBe(
      new Date(clock + 120_000).toISOString(),
    );
  });

  it('spreads the retries of many failed leads over the wait (full jitter)', async () => {
    const hook = await receiver('fail');
    const clock = Date.now();
    const targets = webhookTargets([hook.url]);
    const outbox = createOutbox({ store, logger: silentLogger(), targets, now: () => clock });
    const leads = [];
    for (let index = 0; index < 20; index++) {
      leads.push(await acceptedLead(targets, new Date(clock).toISOString()));
    }
    await outbox.runOnce();
    const waits = await Promise.all(
      leads.map(async (lead) => {
        const at = (await store.getLead(lead.id))?.deliveries[0]?.next_attempt_at;
        return Date.parse(at ?? '') - clock;
      }),
    );
    for (const wait of waits) {
      expect(wait).toBeGreaterThanOrEqual(0);
      expect(wait).toBeLessThanOrEqual(5000);
    }
    expect(new Set(waits).size).toBeGreaterThan(10);
  });

  it('signs every attempt the Standard Webhooks way, with the same id on each retry', async () => {
    const hook = await receiver('fail');
    const secret = `whsec_${Buffer.from('a'.repeat(32)).toString('base64')}`;
    let clock = Date.now();
    const { outbox, targets } = outboxFor([hook], { now: () => clock, secret });
    const lead = await acceptedLead(targets, new Date(clock).toISOString());
    await outbox.runOnce();
    hook.mode = 'ok';
    clock += 5000;
    await outbox.runOnce();
    expect(hook.requests).toHaveLength(2);
    const verifier = new Webhook(secret);
    for (const request of hook.requests) {
      const headers = request.headers as Record<string, string>;
      expect(headers['webhook-id']).toBe(`msg_${lead.id}`);
      // Throws unless the signature matches the body, id and (recent) timestamp.
      expect(verifier.verify(request.body, headers)).toEqual(
        expect.objectContaining({ id: lead.id }),
      );
    }
    // A tampered body is refused by the receiver's check.
    const first = hook.requests[0];
    expect(() =>
      verifier.verify(
        (first?.body ?? '').replace('Aroha', 'Mallory'),
        first?.headers as Record<string, string>,
      ),
    ).toThrow();
  });

  it('delivers only to the targets configured now: a removed one is cancelled, reported once', async () => {
    const kept = await receiver('fail');
    const removed = await receiver('fail');
    const before = webhookTargets([kept.url, `${removed.url}/s3cr3t-token?key=abc`]);
    const lead = await acceptedLead(before);
    const older = await acceptedLead(before, new Date(Date.now() - 60_000).toISOString());
    // The next start has only the first address.
    const log = captureLogger();
    const reports: RemovedTargetReport[] = [];
    const outbox = createOutbox({
      store,
      logger: log.logger,
      targets: webhookTargets([kept.url]),
      random: () => 1,
      onRemovedTarget: (report) => reports.push(report),
    });
    kept.mode = 'ok';
    expect(await outbox.runOnce()).toBe(2);
    expect(await outbox.runOnce()).toBe(0);
    expect(removed.requests).toHaveLength(0);
    const states = (await store.getLead(lead.id))?.deliveries.map((d) => [d.label, d.state]);
    expect(states).toEqual([
      ['webhook 1', 'delivered'],
      ['webhook 2', 'cancelled'],
    ]);
    // The owner hears of both leads, oldest first, and the log says it at error level.
    expect(reports).toEqual([
      {
        label: 'webhook 2',
        count: 2,
        leads: [
          expect.objectContaining({ id: older.id, name: 'Aroha Ngata' }),
          expect.objectContaining({ id: lead.id }),
        ],
      },
    ]);
    expect(reports[0]?.leads[0]).not.toHaveProperty('deliveries');
    const notes = log
      .entries()
      .filter((entry) => String(entry.msg).includes('no longer configured'));
    expect(notes).toEqual([
      expect.objectContaining({
        level: 50,
        target: 'webhook 2',
        count: 2,
        leadIds: expect.arrayContaining([lead.id, older.id]),
      }),
    ]);
    // Another worker (or the next start) finds nothing left to cancel or report.
    const second = createOutbox({
      store,
      logger: silentLogger(),
      targets: webhookTargets([kept.url]),
      onRemovedTarget: (report) => reports.push(report),
    });
    await second.runOnce();
    expect(reports).toHaveLength(1);
    expect(log.text()).not.toContain('s3cr3t');
  });

  it('never logs or stores a webhook address or host, only its position', async () => {
    const hook = await receiver('fail');
    // A host that is a token: where *.localhost resolves, the receiver echoes
    // the address; elsewhere the lookup's error names the host.
    const url = `http://s3cr3t-sub.localhost:${hook.port}/t0ken-123?auth=xyz`;
    hook.failBody = `cannot deliver to ${url}`;
    const log = captureLogger();
    const targets = webhookTargets([url], { timeoutMs: 2000 });
    const outbox = createOutbox({ store, logger: log.logger, targets, random: () => 1 });
    const lead = await acceptedLead(targets);
    await outbox.runOnce();
    const stored = await store.getLead(lead.id);
    expect(stored?.deliveries).toEqual([
      expect.objectContaining({ target: 'webhook:1', label: 'webhook 1', state: 'pending' }),
    ]);
    for (const text of [JSON.stringify(stored), log.text()]) {
      expect(text).not.toContain('s3cr3t');
      expect(text).not.toContain('t0ken-123');
      expect(text).not.toContain('auth=xyz');
    }
  });

  it('a changed address takes over the deliveries still waiting at its position', async () => {
    const old = await receiver('fail');
    const replacement = await receiver('ok');
    const other = await receiver('ok');
    const before = webhookTargets([other.url, `${old.url}/old-token`]);
    const lead = await acceptedLead(before);
    // The next start has a new address in second place.
    const log = captureLogger();
    const outbox = createOutbox({
      store,
      logger: log.logger,
      targets: webhookTargets([other.url, `${replacement.url}/new-token`]),
      random: () => 1,
    });
    expect(await outbox.runOnce()).toBe(2);
    expect(old.requests).toHaveLength(0);
    expect(replacement.requests.map((request) => request.url)).toEqual(['/hook/new-token']);
    expect((await store.getLead(lead.id))?.deliveries.map((d) => [d.label, d.state])).toEqual([
      ['webhook 1', 'delivered'],
      ['webhook 2', 'delivered'],
    ]);
    expect(log.entries().filter((entry) => Number(entry.level) >= 40)).toEqual([]);
  });

  it('never touches leads that are not accepted', async () => {
    const hook = await receiver('ok');
    const { outbox, targets } = outboxFor([hook]);
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
          urgent: false,
          attribution: NO_ATTRIBUTION,
        },
        [
          {
            target: targets[0]?.key ?? '',
            label: targets[0]?.label ?? '',
            state: 'pending',
            next_attempt_at: new Date(0).toISOString(),
          },
        ],
      );
    }
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
        urgent: false,
        attribution: NO_ATTRIBUTION,
      },
      [{ target: 'webhook:x', label: 'webhook 1 (x)', state: 'pending', next_attempt_at: null }],
    );
    const outbox = createOutbox({ store, logger: silentLogger(), targets: [], timeoutMs: 1000 });
    await outbox.runOnce();
    const lead = await store.getLead(id);
    expect(lead?.status).toBe('not_accepted');
    expect(lead?.deliveries[0]?.state).toBe('not_sent');
  });

  it('polls in the background after start(), and kick() runs soon', async () => {
    const hook = await receiver('ok');
    const { outbox, targets } = outboxFor([hook], { pollIntervalMs: 60_000 });
    outbox.start();
    await eventually(async () => expect(await outbox.runOnce()).toBe(0));
    await acceptedLead(targets);
    outbox.kick();
    await hook.waitForRequests(1);
    await outbox.stop();
  });

  /**
   * A started outbox whose `busy` answers `isBusy()` and counts the questions,
   * with one accepted lead due for `hook` and the outbox kicked.
   */
  async function busyOutbox(hook: Receiver, maxYieldMs: number, isBusy: () => boolean) {
    let asked = 0;
    const { outbox, targets } = outboxFor([hook], {
      pollIntervalMs: 20,
      maxYieldMs,
      busy: () => {
        asked += 1;
        return isBusy();
      },
    });
    outbox.start();
    await acceptedLead(targets);
    outbox.kick();
    return { outbox, asked: () => asked };
  }

  it('waits while the server is busy, and delivers as soon as it is not', async () => {
    const hook = await receiver('ok');
    let busy = true;
    const { outbox, asked } = await busyOutbox(hook, 600_000, () => busy);
    await eventually(() => expect(asked()).toBeGreaterThanOrEqual(5));
    expect(hook.requests).toHaveLength(0);
    busy = false;
    await hook.waitForRequests(1);
    await outbox.stop();
  });

  it('a load that never passes still gets a round every maxYieldMs', async () => {
    const hook = await receiver('ok');
    const { outbox, asked } = await busyOutbox(hook, 200, () => true);
    await hook.waitForRequests(1);
    expect(asked()).toBeGreaterThan(1);
    await outbox.stop();
  });

  it('stop() does not wait out a busy server', async () => {
    const hook = await receiver('ok');
    const { outbox, asked } = await busyOutbox(hook, 600_000, () => true);
    await eventually(() => expect(asked()).toBeGreaterThanOrEqual(2));
    await outbox.stop();
    expect(hook.requests).toHaveLength(0);
    expect((await store.listLeads())[0]?.deliveries[0]?.state).toBe('pending');
  });

  it('stop() waits for in-flight deliveries to be recorded', async () => {
    const hook = await receiver('hang');
    const { outbox, targets } = outboxFor([hook], { timeoutMs: 400, pollIntervalMs: 10 });
    const lead = await acceptedLead(targets);
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
    const { outbox, targets } = outboxFor([hook], { now: () => clock });
    const lead = await acceptedLead(targets, new Date(clock).toISOString());
    // A worker that claimed and died: its lease is in the store, no result.
    await store.claimDueDeliveries({
      owner: 'dead-worker',
      now: new Date(clock).toISOString(),
      leaseUntil: new Date(clock + 38_000).toISOString(),
      limit: 10,
      targets: targets.map((target) => target.key),
    });
    expect(await outbox.runOnce()).toBe(0);
    clock += 38_000;
    expect(await outbox.runOnce()).toBe(1);
    expect((await store.getLead(lead.id))?.deliveries[0]?.state).toBe('delivered');
  });

  it('works through more due deliveries than one batch', async () => {
    const hook = await receiver('ok');
    const { outbox, targets } = outboxFor([hook], { batchSize: 3 });
    for (let index = 0; index < 7; index++) await acceptedLead(targets);
    expect(await outbox.runOnce()).toBe(7);
    expect(hook.requests).toHaveLength(7);
  });

  it('a store that fails is logged once, not every round, and once when it is back', async () => {
    const log = captureLogger();
    let failing = true;
    let failedRounds = 0;
    const flaky = new Proxy(store, {
      get(target, property, receiverObject) {
        const value = Reflect.get(target, property, receiverObject) as unknown;
        if (property === 'expireReceived' && failing) {
          return () => {
            failedRounds += 1;
            return Promise.reject(new Error('connection refused'));
          };
        }
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const outbox = createOutbox({
      store: flaky,
      logger: log.logger,
      targets: [],
      pollIntervalMs: 5,
    });
    outbox.start();
    const rounds = () =>
      log.entries().filter((entry) => String(entry.msg).includes('cannot reach the lead store'));
    await eventually(() => expect(rounds()).toHaveLength(1));
    // Several more failing rounds, still one line.
    await eventually(() => expect(failedRounds).toBeGreaterThan(5));
    expect(rounds()).toHaveLength(1);
    failing = false;
    await eventually(() => expect(log.text()).toContain('Outbox reaches the lead store again'));
    await outbox.stop();
  });
});

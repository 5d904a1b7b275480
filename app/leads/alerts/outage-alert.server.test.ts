import { afterEach, describe, expect, it } from 'vitest';
import { makeLead, pending } from '../../db/leads/leads.contract.ts';
import type { AppStore, DeliveryUpdate } from '../../db/store.server.ts';
import {
  POSTGRES_SKIP_MESSAGE,
  silentLogger,
  STORE_BACKENDS,
  TEST_DATABASE_URL,
} from '../testing/test-support.server.ts';
import { createOutbox } from '../delivery/outbox.server.ts';
import { createOutageWatch, EMAIL_OUTAGE_PUSH } from './outage-alert.server.ts';
import type { OwnerPushPayload } from './owner-push.server.ts';

/**
 * The lead e-mail failing for an hour is pushed once per outage, on each
 * store: two processes (two stores on one database) and a restart, with a
 * clock of the test's own.
 */

if (!TEST_DATABASE_URL) console.warn(POSTGRES_SKIP_MESSAGE);

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const iso = (ms: number) => new Date(ms).toISOString();

for (const backend of STORE_BACKENDS) {
  describe.skipIf(backend.skip)(`the e-mail outage push: ${backend.label}`, () => {
    it('pushes once an e-mail has failed for an hour, once per outage, across processes and restarts', async () => {
      const harness = await backend.harness();
      cleanups.push(() => harness.cleanup());
      const open = async () => {
        const store = await harness.open();
        cleanups.push(() => store.close());
        return store;
      };
      const pushes: OwnerPushPayload[] = [];
      let clock = Date.parse('2026-03-05T01:00:00.000Z');
      const watch = (store: AppStore) =>
        createOutageWatch({
          store,
          logger: silentLogger(),
          now: () => clock,
          push: async (payload) => {
            pushes.push(payload);
            return { sent: 2, failed: 0 };
          },
        });
      const a = await open();
      const b = await open();
      const [watchA, watchB] = [watch(a), watch(b)];
      const attempt = (at: number, ok: boolean, attempts = 1): DeliveryUpdate => ({
        target: 'email',
        state: ok ? 'delivered' : 'pending',
        attempts,
        next_attempt_at: ok ? null : iso(at + 10 * MINUTE),
        last_error: ok ? null : 'connect ECONNREFUSED 127.0.0.1:465',
        delivered_at: ok ? iso(at) : null,
        attempted_at: iso(at),
      });
      const lead = async (at: number, ok: boolean) => {
        const record = makeLead({ created_at: iso(at) });
        await a.insertLead(record, [pending('email', iso(at))]);
        await a.settleLead(record.id, 'accepted', [attempt(at, ok)]);
        return record;
      };

      const start = clock;
      await lead(start - HOUR, true);
      const failing = await lead(start, false);
      clock = start + HOUR - 1;
      expect(await watchA.runOnce()).toBe('none');
      expect(pushes).toEqual([]);

      clock = start + HOUR;
      const found = await Promise.all([watchA.runOnce(), watchB.runOnce()]);
      expect(found.sort()).toEqual(['alerted', 'outage']);
      expect(pushes).toEqual([EMAIL_OUTAGE_PUSH]);
      clock = start + 3 * HOUR;
      expect(await watchB.runOnce()).toBe('outage');
      // A restarted process finds the outage already told.
      expect(await watch(await open()).runOnce()).toBe('outage');
      expect(pushes).toHaveLength(1);

      // The retried e-mail gets through: the outage is over...
      await a.settleLead(failing.id, 'accepted', [attempt(start + 3 * HOUR, true, 5)]);
      clock = start + 3 * HOUR + MINUTE;
      expect(await watchA.runOnce()).toBe('none');
      // ...and the next one is pushed again, an hour after it began.
      await lead(start + 4 * HOUR, false);
      clock = start + 5 * HOUR;
      expect(await watchB.runOnce()).toBe('alerted');
      expect(pushes).toEqual([EMAIL_OUTAGE_PUSH, EMAIL_OUTAGE_PUSH]);
    });

    it("counts from the outbox's first failed attempt, not the lead's arrival", async () => {
      const harness = await backend.harness();
      cleanups.push(() => harness.cleanup());
      const store = await harness.open();
      cleanups.push(() => store.close());
      let clock = Date.parse('2026-03-05T01:00:00.000Z');
      const outbox = createOutbox({
        store,
        logger: silentLogger(),
        now: () => clock,
        random: () => 0,
        targets: [
          {
            key: 'email',
            label: 'email',
            deliver: async () => ({ ok: false, permanent: false, error: 'connect ECONNREFUSED' }),
          },
        ],
      });
      // The server was down for two hours: the lead's first attempt is only now.
      const lead = makeLead({ created_at: iso(clock - 2 * HOUR) });
      await store.insertLead(lead, [pending('email', lead.created_at)]);
      const pushes: OwnerPushPayload[] = [];
      const watch = createOutageWatch({
        store,
        logger: silentLogger(),
        now: () => clock,
        push: async (payload) => {
          pushes.push(payload);
          return { sent: 1, failed: 0 };
        },
      });
      expect(await outbox.runOnce()).toBe(1);
      clock += 30 * MINUTE;
      expect(await watch.runOnce()).toBe('none');
      await outbox.runOnce();
      clock += 30 * MINUTE;
      expect(await watch.runOnce()).toBe('alerted');
      expect(pushes).toEqual([EMAIL_OUTAGE_PUSH]);
    });
  });
}

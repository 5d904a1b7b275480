import { afterEach, describe, expect, it } from 'vitest';
import { createRetentionPurge } from './retention.server.ts';
import { makeLead } from '../db/leads/leads.contract.ts';
import type { AppStore } from '../db/store.server.ts';
import {
  captureLogger,
  eventually,
  POSTGRES_SKIP_MESSAGE,
  STORE_BACKENDS,
  TEST_DATABASE_URL,
  type StoreHarness,
} from './testing/test-support.server.ts';

if (!TEST_DATABASE_URL) console.warn(`Retention purge on ${POSTGRES_SKIP_MESSAGE}`);

const DAY = 24 * 60 * 60 * 1000;

const lead = (daysAgo: number) =>
  makeLead({ created_at: new Date(Date.now() - daysAgo * DAY).toISOString() });

for (const backend of STORE_BACKENDS) {
  describe.skipIf(backend.skip)(`retention purge on ${backend.label}`, () => {
    let harness: StoreHarness | undefined;
    const stores: AppStore[] = [];

    afterEach(async () => {
      for (const store of stores.splice(0)) await store.close();
      await harness?.cleanup();
    });

    it('deletes leads older than LEAD_RETENTION_DAYS at start, and only those', async () => {
      harness = await backend.harness();
      const store = await harness.open();
      stores.push(store);
      const old = lead(731);
      const kept = lead(729);
      for (const row of [old, kept]) await store.insertLead(row, []);
      const log = captureLogger();
      const purge = createRetentionPurge({ store, days: 730, logger: log.logger });
      purge.start();
      // The delete is visible to another connection a moment before the
      // purge's own continuation logs it: wait for both.
      await eventually(async () => {
        expect((await store.exportLeads()).map((row) => row.id)).toEqual([kept.id]);
        expect(log.entries()).toEqual([
          expect.objectContaining({
            msg: 'Leads past their retention deleted',
            deleted: 1,
            days: 730,
          }),
        ]);
      });
      purge.stop();
      expect(log.text()).not.toContain('aroha');
    });

    it('deletes spam 30 days after it became spam, and other leads only past the retention', async () => {
      harness = await backend.harness();
      const store = await harness.open();
      stores.push(store);
      const oldSpam = makeLead({
        status: 'spam',
        spam_reason: 'link',
        created_at: new Date(Date.now() - 31 * DAY).toISOString(),
      });
      const newSpam = makeLead({
        status: 'spam',
        spam_reason: 'trap',
        created_at: new Date(Date.now() - 29 * DAY).toISOString(),
      });
      const real = lead(31);
      for (const row of [oldSpam, newSpam, real]) await store.insertLead(row, []);
      const log = captureLogger();
      const purge = createRetentionPurge({ store, days: 730, logger: log.logger });
      expect(await purge.runOnce()).toBe(1);
      expect((await store.exportLeads()).map((row) => row.id).sort()).toEqual(
        [newSpam.id, real.id].sort(),
      );
      expect(log.entries()).toEqual([
        expect.objectContaining({ msg: 'Spam past its retention deleted', deleted: 1, days: 30 }),
      ]);
    });

    it("also deletes the owners' expired sessions and links", async () => {
      harness = await backend.harness();
      const store = await harness.open();
      stores.push(store);
      const at = Date.now();
      const { owner } = await store.addOwner('ana@glass.example.nz', new Date(at).toISOString());
      const session = (hash: string, expires: number) => ({
        id_hash: hash.repeat(64),
        owner_id: owner.id,
        created_at: new Date(at - 2 * DAY).toISOString(),
        last_seen_at: new Date(at - 2 * DAY).toISOString(),
        expires_at: new Date(expires).toISOString(),
      });
      await store.createSession(session('a', at - DAY));
      await store.createSession(session('b', at + DAY));
      const purge = createRetentionPurge({ store, days: 730, logger: captureLogger().logger });
      await purge.runOnce();
      // The expired session is gone already: a purge two days on finds only the other one.
      expect(await store.purgeExpiredSignIns(new Date(at + 2 * DAY).toISOString())).toBe(1);
    });

    it('also forgets the spent proofs of work whose challenge has expired', async () => {
      harness = await backend.harness();
      const store = await harness.open();
      stores.push(store);
      const at = Date.now();
      await store.spendProofOfWork('expired', new Date(at - 1000).toISOString());
      await store.spendProofOfWork('current', new Date(at + DAY).toISOString());
      await createRetentionPurge({ store, days: 730, logger: captureLogger().logger }).runOnce();
      // The expired one is gone already; the current one stays spent.
      expect(await store.purgeSpentProofsOfWork()).toBe(0);
      expect(await store.spendProofOfWork('current', new Date(at + DAY).toISOString())).toBe(false);
    });

    it('runs safely in two processes at once', async () => {
      harness = await backend.harness();
      const [a, b] = [await harness.open(), await harness.open()];
      stores.push(a, b);
      for (let index = 0; index < 10; index++) await a.insertLead(lead(800 + index), []);
      await a.insertLead(lead(1), []);
      const log = captureLogger();
      const [first, second] = [a, b].map((store) =>
        createRetentionPurge({ store, days: 730, logger: log.logger }),
      );
      const counts = await Promise.all([first!.runOnce(), second!.runOnce()]);
      expect(counts[0]! + counts[1]!).toBe(10);
      expect(await a.exportLeads()).toHaveLength(1);
    });
  });
}

describe('retention purge with the store away', () => {
  it('logs the failure and tries again later', async () => {
    let calls = 0;
    const store = {
      purgeCreatedBefore: async () => {
        calls += 1;
        if (calls === 1) throw new Error('connect ECONNREFUSED');
        return 0;
      },
      purgeSpamBefore: async () => 0,
      purgeRateLimits: async () => 0,
      purgeSpentProofsOfWork: async () => 0,
      purgeExpiredSignIns: async () => 0,
    } as unknown as AppStore;
    const log = captureLogger();
    const purge = createRetentionPurge({ store, days: 730, logger: log.logger, retryMs: 10 });
    purge.start();
    await eventually(() => expect(calls).toBe(2));
    purge.stop();
    expect(log.text()).toContain('Retention purge failed; trying again later');
  });
});

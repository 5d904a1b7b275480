import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AppStore, DeliveryUpdate } from '../store.server.ts';
import { iso, nextTime, openStorePerTest, type StoreHarness } from '../store.contract.ts';
import { makeLead, pending } from './leads.contract.ts';

/**
 * "I'm on it", the escalation of an urgent lead nobody took, and the mark
 * of an e-mail outage (leads.server.ts; docs/operations.md, "I'm on it" and
 * escalation), against each store: what several processes on one database
 * must agree on.
 */

const MINUTE = 60_000;

export function runLeadsAlertsContract(
  label: string,
  makeHarness: () => Promise<StoreHarness>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`Acknowledgement and escalation: ${label}`, () => {
    let store: AppStore;
    const open = openStorePerTest(makeHarness, (first) => {
      store = first;
    });

    it('keeps the first acknowledgement, and says which call made it', async () => {
      const lead = makeLead();
      await store.insertLead(lead, []);
      expect(await store.getLead(lead.id)).toEqual(
        expect.objectContaining({ acknowledged_at: null, acknowledged_by: null }),
      );
      const at = nextTime();
      expect(await store.acknowledgeLead(lead.id, 'kasey@example.nz', at)).toEqual({
        first: true,
        acknowledged_at: at,
        acknowledged_by: 'kasey@example.nz',
      });
      expect(await store.acknowledgeLead(lead.id, 'aroha@example.nz', nextTime())).toEqual({
        first: false,
        acknowledged_at: at,
        acknowledged_by: 'kasey@example.nz',
      });
      const stored = await store.getLead(lead.id);
      expect(stored).toEqual(
        expect.objectContaining({ acknowledged_at: at, acknowledged_by: 'kasey@example.nz' }),
      );
      expect((await store.exportLeads())[0]).toEqual(
        expect.objectContaining({ acknowledged_at: at, acknowledged_by: 'kasey@example.nz' }),
      );
      expect(await store.acknowledgeLead(randomUUID(), 'kasey@example.nz', at)).toBeNull();
      expect(await store.acknowledgeLead('not-a-uuid', 'kasey@example.nz', at)).toBeNull();
    });

    it('of two instances acknowledging at once, one is first', async () => {
      const b = await open();
      const lead = makeLead();
      await store.insertLead(lead, []);
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          (index % 2 === 0 ? store : b).acknowledgeLead(
            lead.id,
            `owner${index}@example.nz`,
            nextTime(),
          ),
        ),
      );
      const first = results.filter((result) => result?.first);
      expect(first).toHaveLength(1);
      for (const result of results) {
        expect(result?.acknowledged_by).toBe(first[0]?.acknowledged_by);
      }
    });

    it('claims an urgent lead for escalation once it is due, and never again once done', async () => {
      const created = Date.parse(nextTime());
      const urgent = makeLead({ urgent: true, created_at: iso(created) });
      const calm = makeLead({ created_at: iso(created) });
      await store.insertLead(urgent, []);
      await store.insertLead(calm, []);
      const claim = (now: number) =>
        store.claimEscalations({
          dueBefore: iso(now - 10 * MINUTE),
          now: iso(now),
          leaseUntil: iso(now + MINUTE),
          limit: 10,
        });
      expect(await claim(created + 9 * MINUTE)).toEqual([]);
      const claimed = await claim(created + 10 * MINUTE);
      expect(claimed.map((lead) => lead.id)).toEqual([urgent.id]);
      expect(claimed[0]).toEqual(expect.objectContaining({ name: urgent.name, urgent: true }));
      // Claimed: nobody else takes it while the claim holds.
      expect(await claim(created + 10 * MINUTE + 30_000)).toEqual([]);
      await store.finishEscalation(urgent.id, iso(created + 10 * MINUTE + 1000));
      expect(await claim(created + 60 * MINUTE)).toEqual([]);
    });

    it('claims again a lead whose claim expired before it was escalated', async () => {
      const created = Date.parse(nextTime());
      const urgent = makeLead({ urgent: true, created_at: iso(created) });
      await store.insertLead(urgent, []);
      const claim = (now: number) =>
        store.claimEscalations({
          dueBefore: iso(now - 10 * MINUTE),
          now: iso(now),
          leaseUntil: iso(now + MINUTE),
          limit: 10,
        });
      expect(await claim(created + 11 * MINUTE)).toHaveLength(1);
      expect(await claim(created + 11 * MINUTE + 59_000)).toHaveLength(0);
      expect(await claim(created + 12 * MINUTE)).toHaveLength(1);
    });

    it('never claims an acknowledged, spam, unaccepted or moved-on urgent lead', async () => {
      const created = Date.parse(nextTime());
      const at = iso(created);
      const acknowledged = makeLead({ urgent: true, created_at: at });
      const spam = makeLead({ urgent: true, created_at: at, status: 'spam' });
      const refused = makeLead({ urgent: true, created_at: at, status: 'not_accepted' });
      const markedSpam = makeLead({ urgent: true, created_at: at });
      const contacted = makeLead({ urgent: true, created_at: at });
      for (const lead of [acknowledged, spam, refused, markedSpam, contacted]) {
        await store.insertLead(lead, []);
      }
      await store.acknowledgeLead(acknowledged.id, 'kasey@example.nz', iso(created + MINUTE));
      await store.saveLeadTracking(markedSpam.id, 0, { stage: 'spam' });
      await store.saveLeadTracking(contacted.id, 0, { stage: 'contacted' });
      const now = created + 30 * MINUTE;
      expect(
        await store.claimEscalations({
          dueBefore: iso(now - 10 * MINUTE),
          now: iso(now),
          leaseUntil: iso(now + MINUTE),
          limit: 10,
        }),
      ).toEqual([]);
    });

    it('two instances claiming escalations at once never get the same lead', async () => {
      const b = await open();
      const created = Date.parse(nextTime());
      const ids = new Set<string>();
      for (let index = 0; index < 20; index++) {
        const lead = makeLead({ urgent: true, created_at: iso(created) });
        await store.insertLead(lead, []);
        ids.add(lead.id);
      }
      const now = created + 20 * MINUTE;
      const claimAll = async (instance: AppStore) => {
        const got: string[] = [];
        for (;;) {
          const batch = await instance.claimEscalations({
            dueBefore: iso(now - 10 * MINUTE),
            now: iso(now),
            leaseUntil: iso(now + MINUTE),
            limit: 3,
          });
          if (batch.length === 0) return got;
          got.push(...batch.map((lead) => lead.id));
        }
      };
      const all = (await Promise.all([claimAll(store), claimAll(b), claimAll(store), claimAll(b)]))
        .flat()
        .sort();
      expect(all).toEqual([...ids].sort());
    });

    it('an acknowledgement racing a claim: the lead is either claimed or acknowledged first', async () => {
      const b = await open();
      const created = Date.parse(nextTime());
      const now = created + 20 * MINUTE;
      for (let round = 0; round < 10; round++) {
        const lead = makeLead({ urgent: true, created_at: iso(created) });
        await store.insertLead(lead, []);
        const [claimed, acknowledged] = await Promise.all([
          store.claimEscalations({
            dueBefore: iso(now - 10 * MINUTE),
            now: iso(now),
            leaseUntil: iso(now + MINUTE),
            limit: 10,
          }),
          b.acknowledgeLead(lead.id, 'kasey@example.nz', iso(now)),
        ]);
        expect(acknowledged?.first).toBe(true);
        if (claimed.length > 0) await store.finishEscalation(lead.id, iso(now));
        // Whatever the order, it is never claimed after its acknowledgement.
        expect(
          await store.claimEscalations({
            dueBefore: iso(now + 10 * MINUTE),
            now: iso(now + 30 * MINUTE),
            leaseUntil: iso(now + 31 * MINUTE),
            limit: 10,
          }),
        ).toEqual([]);
      }
    });

    describe('the e-mail outage', () => {
      const failedAttempt = (at: number): DeliveryUpdate => ({
        target: 'email',
        state: 'pending',
        attempts: 1,
        next_attempt_at: iso(at + MINUTE),
        last_error: 'connect ECONNREFUSED',
        delivered_at: null,
        attempted_at: iso(at),
      });
      const delivered = (at: number): DeliveryUpdate => ({
        target: 'email',
        state: 'delivered',
        attempts: 1,
        next_attempt_at: null,
        last_error: null,
        delivered_at: iso(at),
        attempted_at: iso(at),
      });
      async function leadWithEmail(createdAt: number, update: DeliveryUpdate) {
        const lead = makeLead({ created_at: iso(createdAt) });
        await store.insertLead(lead, [pending('email', iso(createdAt))]);
        await store.settleLead(lead.id, 'accepted', [update]);
        return lead;
      }
      const HOUR = 60 * MINUTE;

      it('is an outage once a delivery has failed for an hour with none delivered since, alerted once', async () => {
        const start = Date.parse(nextTime()) + 1000;
        await leadWithEmail(start - HOUR, delivered(start - HOUR));
        await leadWithEmail(start, failedAttempt(start));
        const check = (now: number, instance = store) =>
          instance.checkTargetOutage('email', iso(now - HOUR), iso(now));
        expect(await check(start + HOUR - 1000)).toEqual({ outage: false, alert: false });
        expect(await check(start + HOUR)).toEqual({ outage: true, alert: true });
        const b = await open();
        expect(await check(start + HOUR + MINUTE, b)).toEqual({ outage: true, alert: false });
        expect(await check(start + 2 * HOUR)).toEqual({ outage: true, alert: false });
        // Another lead fails too: the same outage.
        await leadWithEmail(start + 2 * HOUR, failedAttempt(start + 2 * HOUR));
        expect(await check(start + 3 * HOUR, b)).toEqual({ outage: true, alert: false });
      });

      it('ends when an e-mail is delivered; the next outage is alerted again', async () => {
        const start = Date.parse(nextTime()) + 1000;
        const first = await leadWithEmail(start, failedAttempt(start));
        const check = (now: number) => store.checkTargetOutage('email', iso(now - HOUR), iso(now));
        expect(await check(start + HOUR)).toEqual({ outage: true, alert: true });
        // The retried e-mail gets through: recovered.
        const recovered: DeliveryUpdate = { ...delivered(start + HOUR + MINUTE), attempts: 2 };
        await store.settleLead(first.id, 'accepted', [recovered]);
        expect(await check(start + HOUR + 2 * MINUTE)).toEqual({ outage: false, alert: false });
        // A later one fails for an hour: a new outage.
        await leadWithEmail(start + 2 * HOUR, failedAttempt(start + 2 * HOUR));
        expect(await check(start + 3 * HOUR)).toEqual({ outage: true, alert: true });
      });

      it('an old refusal with e-mails delivered since is no outage; nor is another target', async () => {
        const start = Date.parse(nextTime()) + 1000;
        await leadWithEmail(start, {
          ...failedAttempt(start),
          state: 'failed',
          next_attempt_at: null,
          last_error: 'refused: 550 mailbox unavailable',
        });
        await leadWithEmail(start + MINUTE, delivered(start + MINUTE));
        expect(
          await store.checkTargetOutage('email', iso(start + 5 * HOUR), iso(start + 6 * HOUR)),
        ).toEqual({ outage: false, alert: false });
        const hooked = makeLead({ created_at: iso(start + 2 * MINUTE) });
        await store.insertLead(hooked, [pending('webhook:1', iso(start))]);
        await store.settleLead(hooked.id, 'accepted', [
          { ...failedAttempt(start + 2 * MINUTE), target: 'webhook:1' },
        ]);
        expect(
          await store.checkTargetOutage('email', iso(start + 5 * HOUR), iso(start + 6 * HOUR)),
        ).toEqual({ outage: false, alert: false });
        expect(
          await store.checkTargetOutage('webhook:1', iso(start + 5 * HOUR), iso(start + 6 * HOUR)),
        ).toEqual({ outage: true, alert: true });
      });

      it('keeps the first failure of a delivery across its later failed attempts', async () => {
        const start = Date.parse(nextTime()) + 1000;
        const lead = await leadWithEmail(start, failedAttempt(start));
        await store.settleLead(lead.id, 'accepted', [
          { ...failedAttempt(start + 50 * MINUTE), attempts: 2 },
        ]);
        expect(await store.checkTargetOutage('email', iso(start), iso(start + HOUR))).toEqual({
          outage: true,
          alert: true,
        });
      });

      it('several instances finding one outage at once alert it once', async () => {
        const start = Date.parse(nextTime()) + 1000;
        await leadWithEmail(start, failedAttempt(start));
        const b = await open();
        const results = await Promise.all(
          Array.from({ length: 6 }, (_, index) =>
            (index % 2 === 0 ? store : b).checkTargetOutage(
              'email',
              iso(start + 10 * MINUTE),
              iso(start + HOUR),
            ),
          ),
        );
        expect(results.filter((result) => result.alert)).toHaveLength(1);
        expect(results.every((result) => result.outage)).toBe(true);
      });
    });
  });
}

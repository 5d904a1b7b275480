import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { LeadRecord, AppStore, NewDelivery, NewLeadPhoto } from '../store.server.ts';
import { iso, nextTime, openStorePerTest, type StoreHarness } from '../store.contract.ts';
import { NO_ATTRIBUTION, type LeadAttribution } from '../../leads/intake/attribution.ts';

/**
 * The behaviour every store must have for the leads and their outbox
 * (leads.server.ts), and for the store as a whole as the leads see it
 * (ping, a committed write, opening and migrating), run against SQLite
 * (store-sqlite.server.test.ts) and PostgreSQL (store-postgres.server.test.ts).
 */

/** Target keys as the targets module makes them; their labels name the host only. */
export const HOOK_A = 'webhook:1';
export const HOOK_B = 'webhook:2';
const LABELS: Record<string, string> = {
  [HOOK_A]: 'webhook 1',
  [HOOK_B]: 'webhook 2',
};
export const TARGETS = [HOOK_A, HOOK_B];

export function makeLead(overrides: Partial<LeadRecord> = {}): LeadRecord {
  return {
    id: randomUUID(),
    name: 'Aroha Ngata',
    email: 'aroha@example.co.nz',
    phone: '021 555 0101',
    service: 'Windows',
    message: 'Cracked pane in the lounge window',
    created_at: nextTime(),
    source: 'contact_form',
    status: 'accepted',
    idempotency_key: null,
    urgent: false,
    attribution: NO_ATTRIBUTION,
    ...overrides,
  };
}

/** Where a visitor came from, every field at its longest or awkward. */
export const FULL_ATTRIBUTION: LeadAttribution = {
  landing: `/?utm_source=google&utm_medium=cpc&gclid=${'G'.repeat(160)}`,
  referrer: 'www.google.com',
  utm_source: 'google',
  utm_medium: 'cpc',
  utm_campaign: 'Showers — Pāpāmoa “winter” 😀',
  utm_term: '=HYPERLINK("x")',
  utm_content: 'c'.repeat(200),
  gclid: 'G'.repeat(160),
};

export const pending = (target: string, at: string | null): NewDelivery => ({
  target,
  label: LABELS[target] ?? target,
  state: 'pending',
  next_attempt_at: at,
});

/** A photo's row as the lead service gives it: `size` random bytes standing for a JPEG. */
function photo(width: number, height: number, size: number): NewLeadPhoto {
  return { data: new Uint8Array(randomBytes(size)), width, height };
}

export function runLeadsContract(
  label: string,
  makeHarness: () => Promise<StoreHarness>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`Leads in the store: ${label}`, () => {
    let store: AppStore;
    const open = openStorePerTest(makeHarness, (first) => {
      store = first;
    });

    it('starts empty and answers ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
      expect(await store.listLeads()).toEqual([]);
      expect(await store.exportLeads()).toEqual([]);
      expect(await store.getLead(randomUUID())).toBeNull();
      expect(await store.getLead('not-a-uuid')).toBeNull();
      expect(await store.findByIdempotencyKey('nothing-here')).toBeNull();
    });

    it('stores every field of a lead exactly, with its deliveries in configured order', async () => {
      const lead = makeLead({
        name: 'Mārama Te Whare — “quotes” & ünïcode 😀',
        message: 'Line one\nLine two, with "quotes", commas; and =SUM(A1)',
        source: 'hero_form',
        service: 'Business Glass',
        idempotency_key: 'key-0001',
      });
      const due = nextTime();
      expect(await store.insertLead(lead, [pending(HOOK_B, due), pending(HOOK_A, due)])).toEqual({
        inserted: true,
      });
      const found = await store.getLead(lead.id);
      expect(found).toEqual({
        ...lead,
        stage: 'new',
        note: '',
        revision: 0,
        seen_at: null,
        spam_reason: null,
        acknowledged_at: null,
        acknowledged_by: null,
        stage_changed_at: lead.created_at,
        job_value_cents: null,
        photos: [],
        deliveries: [
          {
            lead_id: lead.id,
            target: HOOK_B,
            label: 'webhook 2',
            state: 'pending',
            attempts: 0,
            next_attempt_at: due,
            last_error: null,
            delivered_at: null,
            lease_owner: null,
            lease_expires_at: null,
          },
          expect.objectContaining({ target: HOOK_A, state: 'pending', attempts: 0 }),
        ],
      });
      expect(await store.findByIdempotencyKey('key-0001')).toEqual(lead);
    });

    it('keeps where the lead came from, read back by every query; null when not known', async () => {
      const lead = makeLead({ attribution: FULL_ATTRIBUTION, idempotency_key: 'attributed-1' });
      const partial = { ...NO_ATTRIBUTION, landing: '/contact' };
      const other = makeLead({ attribution: partial, email: lead.email });
      const unknown = makeLead({ email: lead.email });
      await store.insertLead(lead, [pending(HOOK_A, lead.created_at)]);
      await store.insertLead(other, []);
      await store.insertLead(unknown, []);
      expect((await store.getLead(lead.id))?.attribution).toEqual(FULL_ATTRIBUTION);
      expect((await store.findByIdempotencyKey('attributed-1'))?.attribution).toEqual(
        FULL_ATTRIBUTION,
      );
      const attributions = [FULL_ATTRIBUTION, partial, NO_ATTRIBUTION];
      expect((await store.exportLeads()).map((l) => l.attribution)).toEqual(attributions);
      expect((await store.findLeadsByEmail(lead.email)).map((l) => l.attribution)).toEqual(
        attributions,
      );
      const newestFirst = [...attributions].reverse();
      expect((await store.listLeads()).map((l) => l.attribution)).toEqual(newestFirst);
      expect((await store.searchLeads()).leads.map((l) => l.attribution)).toEqual(newestFirst);
      // The webhook's lead comes with its claim.
      const [claim] = await store.claimDueDeliveries({
        owner: 'worker-1',
        now: nextTime(),
        leaseUntil: nextTime(),
        limit: 5,
        targets: TARGETS,
      });
      expect(claim?.lead).toEqual(lead);
      // Deleted with the lead: nothing of it is left to read.
      expect(await store.deleteLeads([lead.id])).toBe(1);
      expect(await store.getLead(lead.id)).toBeNull();
      expect((await store.exportLeads()).map((l) => l.attribution)).toEqual([
        partial,
        NO_ATTRIBUTION,
      ]);
    });

    it('keeps one lead per idempotency key and reports the holder', async () => {
      const first = makeLead({ idempotency_key: 'same-key-1' });
      const second = makeLead({ idempotency_key: 'same-key-1', name: 'Someone Else' });
      expect(await store.insertLead(first, [pending(HOOK_A, first.created_at)])).toEqual({
        inserted: true,
      });
      expect(await store.insertLead(second, [pending(HOOK_A, second.created_at)])).toEqual({
        inserted: false,
        existing: first,
      });
      const all = await store.exportLeads();
      expect(all.map((lead) => lead.id)).toEqual([first.id]);
      expect(all[0]?.deliveries).toHaveLength(1);
    });

    it('lets any number of leads go without a key', async () => {
      await store.insertLead(makeLead(), []);
      await store.insertLead(makeLead(), []);
      expect(await store.exportLeads()).toHaveLength(2);
    });

    it('writes a lead and its deliveries in one transaction', async () => {
      const lead = makeLead();
      // The same address twice violates the delivery key: nothing may remain.
      await expect(
        store.insertLead(lead, [pending(HOOK_A, null), pending(HOOK_A, null)]),
      ).rejects.toThrow();
      expect(await store.getLead(lead.id)).toBeNull();
      expect(await store.exportLeads()).toEqual([]);
    });

    it('keeps photos with their lead: metadata in the record, bytes by position', async () => {
      const lead = makeLead({ idempotency_key: 'photo-key-1' });
      const first = photo(1000, 800, 600);
      const second = photo(300, 200, 300);
      expect(await store.insertLead(lead, [pending(HOOK_A, null)], [first, second])).toEqual({
        inserted: true,
      });
      const info = (position: number, p: typeof first) => ({
        position,
        type: 'image/jpeg',
        width: p.width,
        height: p.height,
        byte_size: p.data.byteLength,
      });
      expect((await store.getLead(lead.id))?.photos).toEqual([info(0, first), info(1, second)]);
      const bytes = await store.getLeadPhoto(lead.id, 1);
      expect(bytes).toEqual({ ...info(1, second), lead_id: lead.id, data: expect.any(Uint8Array) });
      expect(Buffer.from(bytes?.data ?? [])).toEqual(Buffer.from(second.data));
      expect(await store.getLeadPhoto(lead.id, 2)).toBeNull();
      expect(await store.getLeadPhoto(randomUUID(), 0)).toBeNull();
      expect(await store.getLeadPhoto('not-a-uuid', 0)).toBeNull();
      // A retry of the same enquiry (same key) stores nothing more.
      const retry = { ...lead, id: randomUUID() };
      expect(await store.insertLead(retry, [], [first, second])).toEqual({
        inserted: false,
        existing: lead,
      });
      const all = await store.exportLeads();
      expect(all.map((l) => [l.id, l.photos.length])).toEqual([[lead.id, 2]]);
      expect(await store.getLeadPhoto(retry.id, 0)).toBeNull();
      expect((await store.listLeads())[0]?.photos).toHaveLength(2);
      expect((await store.findLeadsByEmail(lead.email))[0]?.photos).toHaveLength(2);
      expect((await store.searchLeads()).leads[0]?.photos).toHaveLength(2);
    });

    it('writes a lead and its photos in one transaction: both or neither', async () => {
      const lead = makeLead();
      // The second photo breaks a constraint (no pixels) after the lead, its
      // delivery and the first photo are written: nothing may remain.
      await expect(
        store.insertLead(lead, [pending(HOOK_A, null)], [photo(10, 10, 50), photo(0, 10, 50)]),
      ).rejects.toThrow();
      expect(await store.getLead(lead.id)).toBeNull();
      expect(await store.getLeadPhoto(lead.id, 0)).toBeNull();
      expect(await store.exportLeads()).toEqual([]);
      // And the table still takes a good one.
      expect(await store.insertLead(lead, [], [photo(10, 10, 50)])).toEqual({ inserted: true });
    });

    it('deletes and purges photos with their leads', async () => {
      const gone = makeLead({ created_at: '2020-01-01T00:00:00.000Z' });
      const deleted = makeLead();
      const kept = makeLead();
      for (const lead of [gone, deleted, kept]) await store.insertLead(lead, [], [photo(4, 4, 64)]);
      expect(await store.deleteLeads([deleted.id])).toBe(1);
      expect(await store.purgeCreatedBefore('2021-01-01T00:00:00.000Z')).toBe(1);
      expect(await store.getLeadPhoto(deleted.id, 0)).toBeNull();
      expect(await store.getLeadPhoto(gone.id, 0)).toBeNull();
      expect(await store.getLeadPhoto(kept.id, 0)).not.toBeNull();
    });

    it('settles a lead: status and delivery results together', async () => {
      const lead = makeLead({ status: 'received' });
      await store.insertLead(lead, [pending(HOOK_A, null), pending(HOOK_B, null)]);
      const at = nextTime();
      const retryAt = nextTime();
      await store.settleLead(lead.id, 'accepted', [
        {
          target: HOOK_A,
          state: 'delivered',
          attempts: 1,
          next_attempt_at: null,
          last_error: null,
          delivered_at: at,
        },
        {
          target: HOOK_B,
          state: 'pending',
          attempts: 1,
          next_attempt_at: retryAt,
          last_error: 'HTTP 503 busy',
          delivered_at: null,
        },
      ]);
      const found = await store.getLead(lead.id);
      expect(found?.status).toBe('accepted');
      expect(found?.deliveries).toEqual([
        expect.objectContaining({
          target: HOOK_A,
          state: 'delivered',
          attempts: 1,
          delivered_at: at,
        }),
        expect.objectContaining({
          target: HOOK_B,
          state: 'pending',
          attempts: 1,
          next_attempt_at: retryAt,
          last_error: 'HTTP 503 busy',
        }),
      ]);
    });

    it('clips very long delivery errors', async () => {
      const lead = makeLead({ status: 'received' });
      await store.insertLead(lead, [pending(HOOK_A, null)]);
      await store.settleLead(lead.id, 'not_accepted', [
        {
          target: HOOK_A,
          state: 'not_sent',
          attempts: 1,
          next_attempt_at: null,
          last_error: 'x'.repeat(50_000),
          delivered_at: null,
        },
      ]);
      const error = (await store.getLead(lead.id))?.deliveries[0]?.last_error ?? '';
      expect(error.length).toBeLessThanOrEqual(1000);
    });

    it('releases the key of a lead that was not accepted, and only then', async () => {
      const refused = makeLead({ status: 'not_accepted', idempotency_key: 'retry-key-1' });
      const accepted = makeLead({ status: 'accepted', idempotency_key: 'kept-key-1' });
      await store.insertLead(refused, []);
      await store.insertLead(accepted, []);
      expect(await store.releaseIdempotencyKey(accepted.id)).toBe(false);
      expect(await store.releaseIdempotencyKey(refused.id)).toBe(true);
      expect((await store.getLead(refused.id))?.idempotency_key).toBeNull();
      const again = makeLead({ idempotency_key: 'retry-key-1' });
      expect(await store.insertLead(again, [])).toEqual({ inserted: true });
      expect(await store.exportLeads()).toHaveLength(3);
    });

    it('claims only due pending deliveries of accepted leads, with a lease', async () => {
      const now = Date.parse(nextTime());
      const accepted = makeLead({ status: 'accepted' });
      const received = makeLead({ status: 'received' });
      const refused = makeLead({ status: 'not_accepted' });
      const spam = makeLead({ status: 'spam' });
      await store.insertLead(accepted, [
        pending(HOOK_A, iso(now - 1)),
        pending(HOOK_B, iso(now + 60_000)),
      ]);
      await store.insertLead(received, [pending(HOOK_A, iso(now - 1))]);
      await store.insertLead(refused, [pending(HOOK_A, iso(now - 1))]);
      await store.insertLead(spam, [{ ...pending(HOOK_A, null), state: 'not_sent' }]);

      const leaseUntil = iso(now + 30_000);
      const claimed = await store.claimDueDeliveries({
        owner: 'worker-1',
        now: iso(now),
        leaseUntil,
        limit: 10,
        targets: TARGETS,
      });
      expect(claimed).toEqual([
        expect.objectContaining({
          lead_id: accepted.id,
          target: HOOK_A,
          lease_owner: 'worker-1',
          lease_expires_at: leaseUntil,
          lead: accepted,
        }),
      ]);
      // Leased: nobody gets it again until the lease expires.
      expect(
        await store.claimDueDeliveries({
          owner: 'worker-2',
          now: iso(now + 1000),
          leaseUntil: iso(now + 31_000),
          limit: 10,
          targets: TARGETS,
        }),
      ).toEqual([]);
      // A crashed worker's lease runs out and the row is claimed again.
      expect(await store.countFailedDeliveries()).toBe(0);
      const reclaimed = await store.claimDueDeliveries({
        owner: 'worker-2',
        now: iso(now + 30_000),
        leaseUntil: iso(now + 60_000),
        limit: 10,
        targets: TARGETS,
      });
      // HOOK_B is not due until now + 60 s.
      expect(reclaimed.map((d) => [d.target, d.lease_owner])).toEqual([[HOOK_A, 'worker-2']]);
      // The expired owner can no longer write a result.
      const result = {
        target: HOOK_A,
        state: 'delivered' as const,
        attempts: 1,
        next_attempt_at: null,
        last_error: null,
        delivered_at: iso(now + 31_000),
      };
      expect(await store.recordDelivery(accepted.id, 'worker-1', result)).toBe(false);
      expect(await store.recordDelivery(accepted.id, 'worker-2', result)).toBe(true);
      const delivery = (await store.getLead(accepted.id))?.deliveries[0];
      expect(delivery).toEqual(
        expect.objectContaining({
          state: 'delivered',
          attempts: 1,
          lease_owner: null,
          lease_expires_at: null,
        }),
      );
    });

    it('respects the claim limit, oldest due first', async () => {
      const now = Date.parse(nextTime());
      const leads = [makeLead(), makeLead(), makeLead()];
      for (const [index, lead] of leads.entries()) {
        await store.insertLead(lead, [pending(HOOK_A, iso(now - 10_000 + index))]);
      }
      const claimed = await store.claimDueDeliveries({
        owner: 'w',
        now: iso(now),
        leaseUntil: iso(now + 1000),
        limit: 2,
        targets: TARGETS,
      });
      expect(claimed.map((d) => d.lead_id)).toEqual([leads[0]?.id, leads[1]?.id]);
    });

    it('a failed attempt is rescheduled and claimed again when due', async () => {
      const now = Date.parse(nextTime());
      const lead = makeLead();
      await store.insertLead(lead, [pending(HOOK_A, iso(now))]);
      const [claim] = await store.claimDueDeliveries({
        owner: 'w',
        now: iso(now),
        leaseUntil: iso(now + 60_000),
        limit: 1,
        targets: TARGETS,
      });
      expect(claim).toBeDefined();
      await store.recordDelivery(lead.id, 'w', {
        target: HOOK_A,
        state: 'pending',
        attempts: 1,
        next_attempt_at: iso(now + 5000),
        last_error: 'HTTP 500',
        delivered_at: null,
      });
      const tooSoon = {
        owner: 'w',
        now: iso(now + 4999),
        leaseUntil: iso(now + 9999),
        limit: 1,
        targets: TARGETS,
      };
      expect(await store.claimDueDeliveries(tooSoon)).toEqual([]);
      const due = {
        owner: 'w',
        now: iso(now + 5000),
        leaseUntil: iso(now + 9999),
        limit: 1,
        targets: TARGETS,
      };
      const [again] = await store.claimDueDeliveries(due);
      expect(again).toEqual(expect.objectContaining({ attempts: 1, last_error: 'HTTP 500' }));
    });

    it('delivers a failed delivery again: pending, due now, claimed by the next round', async () => {
      const now = Date.parse(nextTime());
      const refused = {
        state: 'failed' as const,
        attempts: 1,
        next_attempt_at: null,
        last_error: 'refused: HTTP 410 Gone',
        delivered_at: null,
      };
      const lead = makeLead();
      await store.insertLead(lead, [pending(HOOK_A, null), pending(HOOK_B, null)]);
      await store.settleLead(lead.id, 'accepted', [
        { target: HOOK_A, ...refused },
        {
          ...refused,
          target: HOOK_B,
          state: 'delivered',
          last_error: null,
          delivered_at: iso(now),
        },
      ]);
      const spurned = makeLead({ status: 'received' });
      await store.insertLead(spurned, [pending(HOOK_A, null)]);
      await store.settleLead(spurned.id, 'not_accepted', [
        { target: HOOK_A, ...refused, state: 'not_sent' },
      ]);

      // Only a failed delivery of an accepted lead goes back to the outbox.
      expect(await store.retryDelivery(lead.id, HOOK_B, iso(now))).toBe(false);
      expect(await store.retryDelivery(spurned.id, HOOK_A, iso(now))).toBe(false);
      expect(await store.retryDelivery(randomUUID(), HOOK_A, iso(now))).toBe(false);
      expect(await store.retryDelivery('not-a-uuid', HOOK_A, iso(now))).toBe(false);
      expect(await store.countFailedDeliveries()).toBe(1);

      expect(await store.retryDelivery(lead.id, HOOK_A, iso(now))).toBe(true);
      expect(await store.countFailedDeliveries()).toBe(0);
      const again = await store.getLead(lead.id);
      expect(again?.deliveries.find((d) => d.target === HOOK_A)).toEqual(
        expect.objectContaining({ state: 'pending', attempts: 1, next_attempt_at: iso(now) }),
      );
      // Pending now: a second click changes nothing.
      expect(await store.retryDelivery(lead.id, HOOK_A, iso(now))).toBe(false);
      const claims = await store.claimDueDeliveries({
        owner: 'w',
        now: iso(now),
        leaseUntil: iso(now + 60_000),
        limit: 10,
        targets: TARGETS,
      });
      expect(claims.map((c) => [c.lead_id, c.target, c.attempts])).toEqual([[lead.id, HOOK_A, 1]]);
    });

    it('marks leads stuck in "received" as not accepted', async () => {
      const old = makeLead({ status: 'received' });
      const fresh = makeLead({ status: 'received' });
      await store.insertLead(old, [pending(HOOK_A, old.created_at)]);
      await store.insertLead(fresh, [pending(HOOK_A, fresh.created_at)]);
      expect(await store.expireReceived(fresh.created_at)).toBe(1);
      const expired = await store.getLead(old.id);
      expect(expired?.status).toBe('not_accepted');
      expect(expired?.deliveries[0]?.state).toBe('not_sent');
      expect((await store.getLead(fresh.id))?.status).toBe('received');
      expect(await store.expireReceived(fresh.created_at)).toBe(0);
    });

    it('lists the latest leads first and exports all oldest first', async () => {
      const leads = [makeLead(), makeLead(), makeLead()];
      for (const lead of leads) await store.insertLead(lead, [pending(HOOK_A, null)]);
      const latest = await store.listLeads({ limit: 2 });
      expect(latest.map((lead) => lead.id)).toEqual([leads[2]?.id, leads[1]?.id]);
      expect(latest[0]?.deliveries.map((d) => d.target)).toEqual([HOOK_A]);
      const all = await store.exportLeads();
      expect(all.map((lead) => lead.id)).toEqual(leads.map((lead) => lead.id));
    });

    it('keeps committed leads across close and reopen, and migrates idempotently', async () => {
      const lead = makeLead({ idempotency_key: 'persist-1' });
      await store.insertLead(lead, [pending(HOOK_A, lead.created_at)]);
      await store.close();
      await expect(store.ping()).rejects.toThrow();
      const reopened = await open();
      expect(await reopened.getLead(lead.id)).toEqual(
        expect.objectContaining({ id: lead.id, idempotency_key: 'persist-1' }),
      );
    });

    it('two instances opening at once both migrate and work', async () => {
      const [a, b] = await Promise.all([open(), open()]);
      const lead = makeLead();
      await a.insertLead(lead, []);
      expect((await b.getLead(lead.id))?.id).toBe(lead.id);
    });

    it('two instances claiming at once never get the same delivery', async () => {
      const a = store;
      const b = await open();
      const now = Date.parse(nextTime());
      const expected = new Set<string>();
      for (let index = 0; index < 40; index++) {
        const lead = makeLead();
        await a.insertLead(lead, [
          pending(HOOK_A, iso(now - 1000)),
          pending(HOOK_B, iso(now - 1000)),
        ]);
        expected.add(`${lead.id} ${HOOK_A}`);
        expected.add(`${lead.id} ${HOOK_B}`);
      }
      const claimAll = async (instance: AppStore, owner: string) => {
        const got: string[] = [];
        for (;;) {
          const batch = await instance.claimDueDeliveries({
            owner,
            now: iso(now),
            leaseUntil: iso(now + 60_000),
            limit: 3,
            targets: TARGETS,
          });
          if (batch.length === 0) return got;
          got.push(...batch.map((d) => `${d.lead_id} ${d.target}`));
        }
      };
      // Two claimers per instance (on PostgreSQL: several pooled connections each).
      const claims = await Promise.all([
        claimAll(a, 'a1'),
        claimAll(b, 'b1'),
        claimAll(a, 'a2'),
        claimAll(b, 'b2'),
      ]);
      const all = claims.flat();
      expect(new Set(all).size).toBe(all.length);
      expect(new Set(all)).toEqual(expected);
    });

    it('two instances inserting the same key at once store it once', async () => {
      const b = await open();
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          (index % 2 === 0 ? store : b).insertLead(makeLead({ idempotency_key: 'race-key-1' }), [
            pending(HOOK_A, null),
          ]),
        ),
      );
      expect(results.filter((r) => r.inserted)).toHaveLength(1);
      const all = await store.exportLeads();
      expect(all).toHaveLength(1);
      for (const r of results) {
        if (!r.inserted) expect(r.existing.id).toBe(all[0]?.id);
      }
    });

    it('claims only deliveries to the targets configured now, and cancels the others', async () => {
      const now = Date.parse(nextTime());
      const lead = makeLead();
      const delivered = makeLead();
      await store.insertLead(lead, [pending(HOOK_A, iso(now - 1)), pending(HOOK_B, iso(now - 1))]);
      await store.insertLead(delivered, [pending(HOOK_B, iso(now - 1))]);
      await store.settleLead(delivered.id, 'accepted', [
        {
          target: HOOK_B,
          state: 'delivered',
          attempts: 1,
          next_attempt_at: null,
          last_error: null,
          delivered_at: iso(now),
        },
      ]);
      const claim = (targets: string[]) =>
        store.claimDueDeliveries({
          owner: 'w',
          now: iso(now),
          leaseUntil: iso(now + 1000),
          limit: 10,
          targets,
        });
      expect((await claim([HOOK_A])).map((d) => d.target)).toEqual([HOOK_A]);
      // HOOK_B was removed from the configuration: its pending row is cancelled
      // (once), its delivered row left as it was.
      expect(await store.cancelDeliveriesExcept([HOOK_A])).toEqual([
        { lead_id: lead.id, target: HOOK_B, label: 'webhook 2' },
      ]);
      expect(await store.cancelDeliveriesExcept([HOOK_A])).toEqual([]);
      expect(await store.countFailedDeliveries()).toBe(0);
      const states = (await store.getLead(lead.id))?.deliveries.map((d) => [d.target, d.state]);
      expect(states).toEqual([
        [HOOK_A, 'pending'],
        [HOOK_B, 'cancelled'],
      ]);
      expect((await store.getLead(delivered.id))?.deliveries[0]?.state).toBe('delivered');
      expect(await claim(TARGETS)).toEqual([]);
    });

    it("finds a person's leads by e-mail, whatever its case, oldest first", async () => {
      const first = makeLead({ email: 'mere@example.co.nz' });
      const other = makeLead({ email: 'someone@example.co.nz' });
      const second = makeLead({ email: 'mere@example.co.nz', source: 'quote_form' });
      for (const lead of [first, other, second]) {
        await store.insertLead(lead, [pending(HOOK_A, null)]);
      }
      const found = await store.findLeadsByEmail('  Mere@Example.co.NZ ');
      expect(found.map((lead) => lead.id)).toEqual([first.id, second.id]);
      expect(found[0]?.deliveries.map((d) => d.label)).toEqual(['webhook 1']);
      expect(await store.findLeadsByEmail('nobody@example.co.nz')).toEqual([]);
    });

    it('deletes leads with all their deliveries, and only those', async () => {
      const gone = makeLead();
      const alsoGone = makeLead();
      const kept = makeLead();
      for (const lead of [gone, alsoGone, kept]) {
        await store.insertLead(lead, [pending(HOOK_A, lead.created_at), pending(HOOK_B, null)]);
      }
      expect(await store.deleteLeads([gone.id, alsoGone.id, gone.id, randomUUID()])).toBe(2);
      expect(await store.deleteLeads(['not-a-uuid'])).toBe(0);
      expect(await store.deleteLeads([])).toBe(0);
      expect(await store.getLead(gone.id)).toBeNull();
      expect((await store.exportLeads()).map((lead) => lead.id)).toEqual([kept.id]);
      // The deliveries went with them: nothing is left for the outbox to claim.
      const claimed = await store.claimDueDeliveries({
        owner: 'w',
        now: iso(Date.parse(kept.created_at) + 1),
        leaseUntil: iso(Date.parse(kept.created_at) + 1000),
        limit: 10,
        targets: TARGETS,
      });
      expect(claimed.map((d) => d.lead_id)).toEqual([kept.id]);
    });

    it('purges leads created before the cutoff, with their deliveries', async () => {
      const old = makeLead();
      const older = makeLead({ created_at: '2020-01-01T00:00:00.000Z' });
      const recent = makeLead();
      for (const lead of [old, older, recent]) {
        await store.insertLead(lead, [pending(HOOK_A, null)]);
      }
      expect(await store.purgeCreatedBefore(recent.created_at)).toBe(2);
      expect((await store.exportLeads()).map((lead) => lead.id)).toEqual([recent.id]);
      expect(await store.purgeCreatedBefore(recent.created_at)).toBe(0);
    });

    it('two instances purging at once delete each lead once', async () => {
      const b = await open();
      for (let index = 0; index < 20; index++) {
        await store.insertLead(makeLead(), [pending(HOOK_A, null)]);
      }
      const cutoff = nextTime();
      const counts = await Promise.all([
        store.purgeCreatedBefore(cutoff),
        b.purgeCreatedBefore(cutoff),
      ]);
      expect(counts[0] + counts[1]).toBe(20);
      expect(await store.exportLeads()).toEqual([]);
    });

    it('counts the deliveries given up for good', async () => {
      expect(await store.countFailedDeliveries()).toBe(0);
      const failed = (target: string) => ({
        target,
        state: 'failed' as const,
        attempts: 1,
        next_attempt_at: null,
        last_error: 'refused: HTTP 401 Unauthorized',
        delivered_at: null,
      });
      for (const targets of [[HOOK_A, HOOK_B], [HOOK_A]]) {
        const lead = makeLead();
        await store.insertLead(
          lead,
          targets.map((target) => pending(target, null)),
        );
        await store.settleLead(lead.id, 'accepted', targets.map(failed));
      }
      await store.insertLead(makeLead(), [pending(HOOK_A, null)]);
      expect(await store.countFailedDeliveries()).toBe(3);
    });

    it('checks that it can commit a write, from several instances at once', async () => {
      const b = await open();
      await expect(store.checkWritable()).resolves.toBeUndefined();
      await Promise.all([store.checkWritable(), b.checkWritable(), store.checkWritable()]);
      // The heartbeat is one row, however often it is written; no lead comes of it.
      expect(await store.exportLeads()).toEqual([]);
      await b.close();
      await expect(b.checkWritable()).rejects.toThrow();
    });

    // -----------------------------------------------------------------------
    // The owner's pages (docs/operations.md#owners-pages, #lead-record)
  });
}

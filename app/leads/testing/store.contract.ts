import { randomBytes, randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  LeadRecord,
  LeadStage,
  LeadStore,
  NewDelivery,
  NewLeadPhoto,
  NewPasskey,
  OwnerLinkKind,
  OwnerLinkRecord,
} from '../../db/store.server.ts';
import { eventually, type StoreHarness } from './test-support.server.ts';

export type { StoreHarness };

/**
 * The behaviour every LeadStore must have, run against SQLite
 * (store-sqlite.server.test.ts) and PostgreSQL (store-postgres.server.test.ts).
 */

/** Target keys as the targets module makes them; their labels name the host only. */
const HOOK_A = 'webhook:1';
const HOOK_B = 'webhook:2';
const LABELS: Record<string, string> = {
  [HOOK_A]: 'webhook 1',
  [HOOK_B]: 'webhook 2',
};
const TARGETS = [HOOK_A, HOOK_B];

let clock = Date.parse('2025-03-01T00:00:00.000Z');
/** Distinct, increasing creation times, so ordering assertions are exact. */
function nextTime(): string {
  clock += 1000;
  return new Date(clock).toISOString();
}

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
    ...overrides,
  };
}

const pending = (target: string, at: string | null): NewDelivery => ({
  target,
  label: LABELS[target] ?? target,
  state: 'pending',
  next_attempt_at: at,
});

const iso = (ms: number) => new Date(ms).toISOString();

/** A photo's row as the lead service gives it: `size` random bytes standing for a JPEG. */
function photo(width: number, height: number, size: number): NewLeadPhoto {
  return { data: new Uint8Array(randomBytes(size)), width, height };
}

/** A passkey as SimpleWebAuthn's verified registration gives it. */
function passkeyOf(ownerId: string, name: string): NewPasskey {
  return {
    id: randomBytes(16).toString('base64url'),
    owner_id: ownerId,
    public_key: new Uint8Array(randomBytes(77)),
    counter: 0,
    transports: ['hybrid', 'internal'],
    name,
    created_at: nextTime(),
  };
}

/** A link whose token hash is `char` 64 times, valid a minute from `now`. */
function link(ownerId: string, kind: OwnerLinkKind, char: string, now: number): OwnerLinkRecord {
  return {
    token_hash: char.repeat(64),
    owner_id: ownerId,
    kind,
    created_at: iso(now),
    expires_at: iso(now + 60_000),
  };
}

export function runLeadStoreContract(
  label: string,
  makeHarness: () => Promise<StoreHarness>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`LeadStore contract: ${label}`, () => {
    let harness: StoreHarness;
    let opened: LeadStore[];
    let store: LeadStore;

    const open = async () => {
      const instance = await harness.open();
      opened.push(instance);
      return instance;
    };

    beforeEach(async () => {
      harness = await makeHarness();
      opened = [];
      store = await open();
    });

    afterEach(async () => {
      for (const instance of opened) await instance.close();
      await harness.cleanup();
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

    it('makes a secret once: every store on the same data gets the same 32 random bytes', async () => {
      const other = await open();
      // Two stores asking at once, before it exists, agree.
      const [first, second] = await Promise.all([
        store.getOrCreateSecret('photo-links'),
        other.getOrCreateSecret('photo-links'),
      ]);
      expect(first).toBeInstanceOf(Uint8Array);
      expect(first).toHaveLength(32);
      expect(Buffer.from(second)).toEqual(Buffer.from(first));
      expect(Buffer.from(first).equals(Buffer.alloc(32))).toBe(false);
      // And later, from a store opened afterwards.
      const later = await open();
      expect(Buffer.from(await later.getOrCreateSecret('photo-links'))).toEqual(Buffer.from(first));
      // Deleting leads leaves it.
      const lead = makeLead();
      await store.insertLead(lead, []);
      await store.deleteLeads([lead.id]);
      expect(Buffer.from(await store.getOrCreateSecret('photo-links'))).toEqual(Buffer.from(first));
      // Another store's secret is its own.
      const another = await makeHarness();
      const elsewhere = await another.open();
      try {
        expect(Buffer.from(await elsewhere.getOrCreateSecret('photo-links'))).not.toEqual(
          Buffer.from(first),
        );
      } finally {
        await elsewhere.close();
        await another.cleanup();
      }
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
      const claimAll = async (instance: LeadStore, owner: string) => {
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

    it('counts requests per key in a window, and starts again after it', async () => {
      const first = await store.hitRateLimit('client-a', 60_000);
      expect(first.hits).toBe(1);
      expect(Date.parse(first.resetAt)).toBeGreaterThan(Date.now() + 50_000);
      expect((await store.hitRateLimit('client-a', 60_000)).hits).toBe(2);
      const third = await store.hitRateLimit('client-a', 60_000);
      expect(third).toEqual({ hits: 3, resetAt: first.resetAt });
      expect((await store.hitRateLimit('client-b', 60_000)).hits).toBe(1);
      await store.undoRateLimitHit('client-a');
      expect((await store.hitRateLimit('client-a', 60_000)).hits).toBe(3);
      await store.resetRateLimit('client-a');
      expect((await store.hitRateLimit('client-a', 60_000)).hits).toBe(1);
      // A short window ends; the next request opens a new one.
      await store.hitRateLimit('client-c', 1);
      await eventually(async () => {
        expect(await store.purgeRateLimits()).toBeGreaterThanOrEqual(1);
      });
      expect((await store.hitRateLimit('client-c', 1)).hits).toBe(1);
      expect((await store.hitRateLimit('client-b', 60_000)).hits).toBe(2);
    });

    it('two instances share one count per key', async () => {
      const b = await open();
      const hits = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          (index % 2 === 0 ? store : b).hitRateLimit('shared-client', 60_000),
        ),
      );
      expect(hits.map((hit) => hit.hits).sort((x, y) => x - y)).toEqual(
        Array.from({ length: 12 }, (_, index) => index + 1),
      );
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

    it('keeps a stage (new at first) and a note (empty) with every lead read back', async () => {
      const lead = makeLead({ idempotency_key: 'tracking-1' });
      await store.insertLead(lead, [pending(HOOK_A, null)]);
      const fresh = { stage: 'new', note: '', revision: 0 };
      expect(await store.getLead(lead.id)).toEqual(expect.objectContaining(fresh));
      expect((await store.listLeads())[0]).toEqual(expect.objectContaining(fresh));
      expect((await store.exportLeads())[0]).toEqual(expect.objectContaining(fresh));
      expect((await store.findLeadsByEmail(lead.email))[0]).toEqual(expect.objectContaining(fresh));
      // What is sent to the targets stays the visitor's lead alone.
      expect(await store.findByIdempotencyKey('tracking-1')).toEqual(lead);
    });

    it("saves a lead's stage and note on its revision, and refuses a save on an older one", async () => {
      const lead = makeLead();
      await store.insertLead(lead, []);
      const note = 'Rang back 3 pm — wants a quote for “double glazing”; gate code 1234';
      expect(await store.saveLeadTracking(lead.id, 0, { stage: 'contacted', note })).toEqual({
        saved: true,
        tracking: { stage: 'contacted', note, revision: 1 },
      });
      // A second owner still on revision 0 is told what the first saved.
      expect(await store.saveLeadTracking(lead.id, 0, { stage: 'lost' })).toEqual({
        saved: false,
        reason: 'conflict',
        current: { stage: 'contacted', note, revision: 1 },
      });
      // Only the stage: the note stays.
      expect(await store.saveLeadTracking(lead.id, 1, { stage: 'quoted' })).toEqual({
        saved: true,
        tracking: { stage: 'quoted', note, revision: 2 },
      });
      expect(await store.saveLeadTracking(lead.id, 2, { note: '' })).toEqual({
        saved: true,
        tracking: { stage: 'quoted', note: '', revision: 3 },
      });
      expect(await store.getLead(lead.id)).toEqual(
        expect.objectContaining({ stage: 'quoted', note: '', revision: 3, status: 'accepted' }),
      );
      for (const id of [randomUUID(), 'not-a-uuid']) {
        expect(await store.saveLeadTracking(id, 0, { stage: 'won' })).toEqual({
          saved: false,
          reason: 'not_found',
        });
      }
      await expect(
        store.saveLeadTracking(lead.id, 3, { stage: 'archived' as LeadStage }),
      ).rejects.toThrow(/stage/);
      await expect(
        store.saveLeadTracking(lead.id, 3, { note: 'x'.repeat(10_001) }),
      ).rejects.toThrow(/note/);
      expect((await store.getLead(lead.id))?.revision).toBe(3);
    });

    it('of two saves on one revision at once, from two instances, one is saved', async () => {
      const b = await open();
      const lead = makeLead();
      await store.insertLead(lead, []);
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          (index % 2 === 0 ? store : b).saveLeadTracking(lead.id, 0, { note: `owner ${index}` }),
        ),
      );
      const saved = results.filter((result) => result.saved);
      expect(saved).toHaveLength(1);
      const winner = saved[0]?.saved ? saved[0].tracking : undefined;
      expect(winner?.revision).toBe(1);
      for (const result of results) {
        if (!result.saved)
          expect(result).toEqual({ saved: false, reason: 'conflict', current: winner });
      }
    });

    it('searches the inbox: newest first, by stage and by name, e-mail or phone, 50 a page', async () => {
      const people = [
        makeLead({ name: 'Mere Pōtae', email: 'mere@example.co.nz', phone: '021 555 0101' }),
        makeLead({ name: 'Tama Smith', email: 'tama_100%@example.com', phone: '+64 27 444 0202' }),
        makeLead({
          name: 'ŌMOKOROA GLASS LTD',
          email: 'office@omokoroa.example',
          phone: '07 578 0000',
        }),
      ];
      for (const lead of people) await store.insertLead(lead, [pending(HOOK_A, null)]);
      const ids = async (search: Parameters<LeadStore['searchLeads']>[0]) => {
        const result = await store.searchLeads(search);
        return { ids: result.leads.map((lead) => lead.id), total: result.total };
      };
      const [mere, tama, omokoroa] = people.map((lead) => lead.id);
      expect(await ids({})).toEqual({ ids: [omokoroa, tama, mere], total: 3 });
      // Whatever the case, macrons too; e-mail and phone substrings.
      expect(await ids({ query: 'pōTAE' })).toEqual({ ids: [mere], total: 1 });
      expect(await ids({ query: 'ōmokoroa' })).toEqual({ ids: [omokoroa], total: 1 });
      expect(await ids({ query: '  MERE@EXAMPLE ' })).toEqual({ ids: [mere], total: 1 });
      expect(await ids({ query: '555 01' })).toEqual({ ids: [mere], total: 1 });
      // A phone number typed without its spaces finds the number as stored.
      expect(await ids({ query: '0215550101' })).toEqual({ ids: [mere], total: 1 });
      expect(await ids({ query: '+6427444' })).toEqual({ ids: [tama], total: 1 });
      // The text is matched as it is: no wildcards, no pattern.
      expect(await ids({ query: '_100%' })).toEqual({ ids: [tama], total: 1 });
      expect(await ids({ query: '%' })).toEqual({ ids: [tama], total: 1 });
      expect(await ids({ query: '.*' })).toEqual({ ids: [], total: 0 });
      expect(await ids({ query: "' OR 1=1 --" })).toEqual({ ids: [], total: 0 });
      // By stage, and both.
      await store.saveLeadTracking(tama!, 0, { stage: 'won' });
      expect(await ids({ stage: 'won' })).toEqual({ ids: [tama], total: 1 });
      expect(await ids({ stage: 'new', query: 'example' })).toEqual({
        ids: [omokoroa, mere],
        total: 2,
      });
      expect(await ids({ stage: 'spam' })).toEqual({ ids: [], total: 0 });
      const found = await store.searchLeads({ query: 'mere' });
      expect(found.leads[0]?.deliveries.map((d) => d.target)).toEqual([HOOK_A]);
    });

    it('keeps whether a lead is urgent, false for any other', async () => {
      const urgent = makeLead({ urgent: true, idempotency_key: 'urgent-key-1' });
      const plain = makeLead();
      await store.insertLead(urgent, [pending(HOOK_A, urgent.created_at)]);
      await store.insertLead(plain, []);
      expect(await store.getLead(urgent.id)).toEqual(expect.objectContaining({ urgent: true }));
      expect(await store.getLead(plain.id)).toEqual(expect.objectContaining({ urgent: false }));
      expect(await store.findByIdempotencyKey('urgent-key-1')).toEqual(urgent);
      expect((await store.exportLeads()).map((lead) => lead.urgent)).toEqual([true, false]);
      expect((await store.findLeadsByEmail(urgent.email)).map((lead) => lead.urgent)).toEqual([
        true,
        false,
      ]);
      // The outbox delivers it as urgent.
      const [claimed] = await store.claimDueDeliveries({
        owner: 'worker-u',
        now: nextTime(),
        leaseUntil: nextTime(),
        limit: 10,
        targets: TARGETS,
      });
      expect(claimed?.lead).toEqual(urgent);
    });

    it('puts urgent leads on top of the inbox while they are new, then by time', async () => {
      const older = makeLead({ name: 'Urgent Older', urgent: true });
      const plain = makeLead({ name: 'Plain One' });
      const newer = makeLead({ name: 'Urgent Newer', urgent: true });
      const latest = makeLead({ name: 'Plain Latest' });
      for (const lead of [older, plain, newer, latest]) await store.insertLead(lead, []);
      const ids = async (search: Parameters<LeadStore['searchLeads']>[0]) =>
        (await store.searchLeads(search)).leads.map((lead) => lead.name);
      expect(await ids({})).toEqual(['Urgent Newer', 'Urgent Older', 'Plain Latest', 'Plain One']);
      // Across pages too: the first page holds the urgent ones.
      expect(await ids({ limit: 1 })).toEqual(['Urgent Newer']);
      expect(await ids({ limit: 2, offset: 2 })).toEqual(['Plain Latest', 'Plain One']);
      // Once the owner has moved it on, an urgent lead sorts by time like the others.
      await store.saveLeadTracking(older.id, 0, { stage: 'contacted' });
      expect(await ids({})).toEqual(['Urgent Newer', 'Plain Latest', 'Plain One', 'Urgent Older']);
      expect(await ids({ stage: 'new' })).toEqual(['Urgent Newer', 'Plain Latest', 'Plain One']);
      expect(await ids({ query: 'urgent' })).toEqual(['Urgent Newer', 'Urgent Older']);
    });

    it('pages the inbox 50 at a time with the total', async () => {
      const leads = Array.from({ length: 53 }, () => makeLead());
      for (const lead of leads) await store.insertLead(lead, []);
      const newestFirst = leads.map((lead) => lead.id).reverse();
      const first = await store.searchLeads();
      expect(first.total).toBe(53);
      expect(first.leads.map((lead) => lead.id)).toEqual(newestFirst.slice(0, 50));
      const second = await store.searchLeads({ offset: 50 });
      expect(second).toEqual(expect.objectContaining({ total: 53 }));
      expect(second.leads.map((lead) => lead.id)).toEqual(newestFirst.slice(50));
      // New since an owner last looked.
      expect(await store.countLeadsSince(null)).toBe(53);
      expect(await store.countLeadsSince(leads[49]!.created_at)).toBe(3);
      expect(await store.countLeadsSince(leads[52]!.created_at)).toBe(0);
    });

    it('adds owners once per address whatever its case, and lists them with their passkeys', async () => {
      const at = nextTime();
      const first = await store.addOwner('  Ana@Glass.Example.NZ ', at);
      expect(first).toEqual({
        added: true,
        owner: {
          id: expect.any(String),
          email: 'ana@glass.example.nz',
          webauthn_user_id: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          created_at: at,
          last_sign_in_at: null,
          inbox_seen_at: null,
        },
      });
      const again = await store.addOwner('ANA@glass.example.nz', nextTime());
      expect(again).toEqual({ added: false, owner: first.owner });
      expect(await store.findOwnerByEmail('ana@GLASS.example.nz')).toEqual(first.owner);
      expect(await store.getOwner(first.owner.id)).toEqual(first.owner);
      expect(await store.getOwner(randomUUID())).toBeNull();
      expect(await store.getOwner('not-a-uuid')).toBeNull();
      expect(await store.findOwnerByEmail('nobody@glass.example.nz')).toBeNull();

      const second = await store.addOwner('rawiri@glass.example.nz', nextTime());
      const key = passkeyOf(first.owner.id, 'iPhone');
      expect(await store.addPasskey(key)).toBe(true);
      const owners = await store.listOwners();
      expect(owners.map((owner) => [owner.email, owner.passkeys.map((p) => p.name)])).toEqual([
        ['ana@glass.example.nz', ['iPhone']],
        ['rawiri@glass.example.nz', []],
      ]);
      expect(owners[1]?.id).toBe(second.owner.id);
      const seen = nextTime();
      await store.markInboxSeen(first.owner.id, seen);
      expect((await store.getOwner(first.owner.id))?.inbox_seen_at).toBe(seen);
    });

    it('keeps passkeys as SimpleWebAuthn gives them, and records their use', async () => {
      const { owner } = await store.addOwner('ana@glass.example.nz', nextTime());
      const key = passkeyOf(owner.id, 'Office PC');
      expect(await store.addPasskey(key)).toBe(true);
      // The same credential id again is refused, whoever adds it.
      expect(await store.addPasskey({ ...key, name: 'again' })).toBe(false);
      const found = await store.findPasskey(key.id);
      expect(found).toEqual({
        owner,
        passkey: { ...key, transports: ['hybrid', 'internal'], last_used_at: null },
      });
      expect(found?.passkey.public_key).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(found?.passkey.public_key ?? [])).toEqual(Buffer.from(key.public_key));
      const used = nextTime();
      await store.recordPasskeyUse(key.id, 4_294_967_295, used);
      expect(await store.listPasskeys(owner.id)).toEqual([
        expect.objectContaining({ id: key.id, counter: 4_294_967_295, last_used_at: used }),
      ]);
      expect(await store.findPasskey('unknown-credential')).toBeNull();
      expect(await store.removePasskey(randomUUID(), key.id)).toBe(false);
      expect(await store.removePasskey(owner.id, key.id)).toBe(true);
      expect(await store.findPasskey(key.id)).toBeNull();
      // Not for an owner that does not exist.
      expect(await store.addPasskey(passkeyOf(randomUUID(), 'stray'))).toBe(false);
    });

    it('finds a session by its hash until it expires, moves its expiry, and ends it', async () => {
      const { owner } = await store.addOwner('ana@glass.example.nz', nextTime());
      const created = Date.parse(nextTime());
      const session = {
        id_hash: 'a'.repeat(64),
        owner_id: owner.id,
        created_at: iso(created),
        last_seen_at: iso(created),
        expires_at: iso(created + 60_000),
      };
      expect(await store.createSession(session)).toBe(true);
      expect((await store.getOwner(owner.id))?.last_sign_in_at).toBe(session.created_at);
      const signedIn = { ...owner, last_sign_in_at: session.created_at };
      expect(await store.findSession(session.id_hash, iso(created + 1000))).toEqual({
        session,
        owner: signedIn,
      });
      expect(await store.findSession('b'.repeat(64), iso(created + 1000))).toBeNull();
      expect(await store.findSession(session.id_hash, iso(created + 60_000))).toBeNull();
      // Used again: a later expiry.
      expect(
        await store.touchSession(session.id_hash, iso(created + 30_000), iso(created + 90_000)),
      ).toBe(true);
      expect(await store.findSession(session.id_hash, iso(created + 60_000))).toEqual({
        session: {
          ...session,
          last_seen_at: iso(created + 30_000),
          expires_at: iso(created + 90_000),
        },
        owner: signedIn,
      });
      // An expired session cannot be brought back.
      expect(
        await store.touchSession(session.id_hash, iso(created + 90_000), iso(created + 99_000)),
      ).toBe(false);
      expect(await store.endSession(session.id_hash)).toBe(true);
      expect(await store.endSession(session.id_hash)).toBe(false);
      expect(await store.findSession(session.id_hash, iso(created))).toBeNull();
      // None for an unknown owner.
      expect(await store.createSession({ ...session, owner_id: randomUUID() })).toBe(false);
    });

    it('shares sessions between instances, and ends an owner’s sessions', async () => {
      const b = await open();
      const { owner } = await store.addOwner('ana@glass.example.nz', nextTime());
      const now = Date.parse(nextTime());
      for (const hash of ['c', 'd']) {
        await store.createSession({
          id_hash: hash.repeat(64),
          owner_id: owner.id,
          created_at: iso(now),
          last_seen_at: iso(now),
          expires_at: iso(now + 60_000),
        });
      }
      expect((await b.findSession('c'.repeat(64), iso(now)))?.owner.id).toBe(owner.id);
      expect(await b.endOwnerSessions(owner.id)).toBe(2);
      expect(await store.findSession('c'.repeat(64), iso(now))).toBeNull();
      expect(await store.findSession('d'.repeat(64), iso(now))).toBeNull();
    });

    it('removes an owner at once: sessions, passkeys and links go with them', async () => {
      const { owner } = await store.addOwner('ana@glass.example.nz', nextTime());
      const other = (await store.addOwner('rawiri@glass.example.nz', nextTime())).owner;
      const now = Date.parse(nextTime());
      const session = (ownerId: string, hash: string) => ({
        id_hash: hash.repeat(64),
        owner_id: ownerId,
        created_at: iso(now),
        last_seen_at: iso(now),
        expires_at: iso(now + 60_000),
      });
      await store.createSession(session(owner.id, 'e'));
      await store.createSession(session(other.id, 'f'));
      await store.addPasskey(passkeyOf(owner.id, 'iPhone'));
      await store.createOwnerLink(link(owner.id, 'sign-in', '1', now));
      expect(await store.removeOwner('ANA@glass.example.nz', iso(now + 1))).toEqual({
        ...owner,
        last_sign_in_at: iso(now),
      });
      expect(await store.removeOwner('ana@glass.example.nz', iso(now + 2))).toBeNull();
      expect(await store.findSession('e'.repeat(64), iso(now))).toBeNull();
      expect(await store.consumeOwnerLink('1'.repeat(64), 'sign-in', iso(now))).toBeNull();
      expect(await store.listPasskeys(owner.id)).toEqual([]);
      expect(await store.getOwner(owner.id)).toBeNull();
      expect(await store.findOwnerByEmail(owner.email)).toBeNull();
      expect((await store.listOwners()).map((o) => o.email)).toEqual([other.email]);
      // The other owner is still signed in.
      expect((await store.findSession('f'.repeat(64), iso(now)))?.owner.id).toBe(other.id);
      // Added again: an owner with no passkey, a new user handle and no sign-in yet.
      const back = await store.addOwner('ana@glass.example.nz', iso(now + 3));
      expect(back.added).toBe(true);
      expect(back.owner.webauthn_user_id).not.toBe(owner.webauthn_user_id);
      expect(back.owner.last_sign_in_at).toBeNull();
      expect((await store.listOwners()).map((o) => [o.email, o.passkeys])).toEqual([
        ['rawiri@glass.example.nz', []],
        ['ana@glass.example.nz', []],
      ]);
    });

    it('uses a one-time link once, before it expires, for its own kind only', async () => {
      const { owner } = await store.addOwner('ana@glass.example.nz', nextTime());
      const now = Date.parse(nextTime());
      await store.createOwnerLink(link(owner.id, 'sign-in', '2', now));
      expect(await store.consumeOwnerLink('2'.repeat(64), 'setup', iso(now))).toBeNull();
      expect(await store.consumeOwnerLink('2'.repeat(64), 'sign-in', iso(now + 60_000))).toBeNull();
      expect(await store.consumeOwnerLink('2'.repeat(64), 'sign-in', iso(now))).toEqual(owner);
      expect(await store.consumeOwnerLink('2'.repeat(64), 'sign-in', iso(now))).toBeNull();
      // A new set-up link makes the owner's earlier set-up links useless, not their sign-in links.
      await store.createOwnerLink(link(owner.id, 'setup', '3', now));
      await store.createOwnerLink(link(owner.id, 'sign-in', '4', now));
      await store.createOwnerLink(link(owner.id, 'setup', '5', now));
      expect(await store.consumeOwnerLink('3'.repeat(64), 'setup', iso(now))).toBeNull();
      expect(await store.consumeOwnerLink('4'.repeat(64), 'sign-in', iso(now))).toEqual(owner);
      expect(await store.consumeOwnerLink('5'.repeat(64), 'setup', iso(now))).toEqual(owner);
    });

    it('of many uses of one link at once, from two instances, one succeeds', async () => {
      const b = await open();
      const { owner } = await store.addOwner('ana@glass.example.nz', nextTime());
      const now = Date.parse(nextTime());
      await store.createOwnerLink(link(owner.id, 'setup', '6', now));
      const uses = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          (index % 2 === 0 ? store : b).consumeOwnerLink('6'.repeat(64), 'setup', iso(now)),
        ),
      );
      expect(uses.filter((use) => use !== null)).toEqual([owner]);
    });

    it('looks at a link without using it', async () => {
      const { owner } = await store.addOwner('ana@glass.example.nz', nextTime());
      const now = Date.parse(nextTime());
      await store.createOwnerLink(link(owner.id, 'setup', 'a', now));
      expect(await store.findOwnerLink('a'.repeat(64), 'setup', iso(now))).toEqual(owner);
      expect(await store.findOwnerLink('a'.repeat(64), 'setup', iso(now))).toEqual(owner);
      expect(await store.findOwnerLink('a'.repeat(64), 'sign-in', iso(now))).toBeNull();
      expect(await store.findOwnerLink('a'.repeat(64), 'setup', iso(now + 60_000))).toBeNull();
      expect(await store.findOwnerLink('b'.repeat(64), 'setup', iso(now))).toBeNull();
      expect(await store.consumeOwnerLink('a'.repeat(64), 'setup', iso(now))).toEqual(owner);
      expect(await store.findOwnerLink('a'.repeat(64), 'setup', iso(now))).toBeNull();
      // A removed owner's link leads nowhere.
      await store.createOwnerLink(link(owner.id, 'setup', 'c', now));
      await store.removeOwner(owner.email, iso(now));
      expect(await store.findOwnerLink('c'.repeat(64), 'setup', iso(now))).toBeNull();
    });

    it('keeps a passkey challenge for one use, before it expires, for its own kind, on any instance', async () => {
      const b = await open();
      const { owner } = await store.addOwner('ana@glass.example.nz', nextTime());
      const now = Date.parse(nextTime());
      const challenge = (
        char: string,
        kind: 'registration' | 'authentication',
        id: string | null,
      ) => ({
        challenge_hash: char.repeat(64),
        kind,
        owner_id: id,
        created_at: iso(now),
        expires_at: iso(now + 60_000),
      });
      await store.createOwnerChallenge(challenge('d', 'registration', owner.id));
      await store.createOwnerChallenge(challenge('e', 'authentication', null));
      expect(await b.consumeOwnerChallenge('d'.repeat(64), 'authentication', iso(now))).toBeNull();
      expect(
        await b.consumeOwnerChallenge('d'.repeat(64), 'registration', iso(now + 60_000)),
      ).toBeNull();
      expect(await b.consumeOwnerChallenge('d'.repeat(64), 'registration', iso(now))).toEqual({
        owner_id: owner.id,
      });
      expect(
        await store.consumeOwnerChallenge('d'.repeat(64), 'registration', iso(now)),
      ).toBeNull();
      // Of many answers to one challenge at once, one gets it.
      const uses = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          (index % 2 === 0 ? store : b).consumeOwnerChallenge(
            'e'.repeat(64),
            'authentication',
            iso(now),
          ),
        ),
      );
      expect(uses.filter((use) => use !== null)).toEqual([{ owner_id: null }]);
      // Expired ones are purged with sessions and links.
      await store.createOwnerChallenge(challenge('f', 'authentication', null));
      expect(await store.purgeExpiredSignIns(iso(now + 60_000))).toBe(1);
      expect(
        await store.consumeOwnerChallenge('f'.repeat(64), 'authentication', iso(now)),
      ).toBeNull();
      // And by every new challenge: the table holds only live ones, however many are asked for.
      await store.createOwnerChallenge(challenge('1', 'authentication', null));
      await store.createOwnerChallenge({
        ...challenge('2', 'authentication', null),
        created_at: iso(now + 60_000),
        expires_at: iso(now + 120_000),
      });
      expect(
        await store.consumeOwnerChallenge('1'.repeat(64), 'authentication', iso(now)),
      ).toBeNull();
      expect(await store.consumeOwnerChallenge('2'.repeat(64), 'authentication', iso(now))).toEqual(
        { owner_id: null },
      );
    });

    it('purges expired sessions and links', async () => {
      const { owner } = await store.addOwner('ana@glass.example.nz', nextTime());
      const now = Date.parse(nextTime());
      await store.createOwnerLink(link(owner.id, 'sign-in', '7', now));
      await store.createSession({
        id_hash: '8'.repeat(64),
        owner_id: owner.id,
        created_at: iso(now),
        last_seen_at: iso(now),
        expires_at: iso(now + 120_000),
      });
      expect(await store.purgeExpiredSignIns(iso(now + 60_000))).toBe(1);
      expect(await store.findSession('8'.repeat(64), iso(now + 60_000))).not.toBeNull();
      expect(await store.purgeExpiredSignIns(iso(now + 120_000))).toBe(1);
      expect(await store.purgeExpiredSignIns(iso(now + 120_000))).toBe(0);
    });

    it('keeps an activity list, newest first, that refuses personal data', async () => {
      const lead = makeLead();
      const first = { at: nextTime(), actor: 'cli', action: 'owner.added', detail: randomUUID() };
      const second = {
        at: nextTime(),
        actor: 'ana@glass.example.nz',
        action: 'leads.deleted',
        detail: 'count=3',
      };
      const third = {
        at: nextTime(),
        actor: 'ana@glass.example.nz',
        action: 'lead.stage',
        detail: `${lead.id}:won`,
      };
      for (const entry of [first, second, third]) await store.recordActivity(entry);
      const listed = await store.listActivity();
      expect(listed.map(({ id: _id, ...entry }) => entry)).toEqual([third, second, first]);
      expect((await store.listActivity({ limit: 1, offset: 1 })).map((e) => e.action)).toEqual([
        'leads.deleted',
      ]);
      // A person's address, name or words cannot be written there.
      for (const detail of [lead.email, lead.name, lead.phone, 'a'.repeat(201)]) {
        await expect(store.recordActivity({ ...second, at: nextTime(), detail })).rejects.toThrow(
          /detail/,
        );
      }
      await expect(store.recordActivity({ ...second, action: 'Deleted Mere' })).rejects.toThrow(
        /action/,
      );
      expect(await store.listActivity()).toHaveLength(3);
    });

    it('peeks at a count without counting', async () => {
      expect(await store.peekRateLimit('owner-key')).toBeNull();
      const hit = await store.hitRateLimit('owner-key', 60_000);
      expect(await store.peekRateLimit('owner-key')).toEqual(hit);
      expect(await store.peekRateLimit('owner-key')).toEqual(hit);
      await store.hitRateLimit('short-key', 1);
      await eventually(async () => {
        expect(await store.peekRateLimit('short-key')).toBeNull();
      });
    });
  });
}

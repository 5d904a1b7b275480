import { describe, expect, it } from 'vitest';
import type { AppStore } from '../store.server.ts';
import { nextTime, openStorePerTest, type StoreHarness } from '../store.contract.ts';
import { HOOK_A, HOOK_B, makeLead, pending } from './leads.contract.ts';

/**
 * The behaviour every store must have for spam (docs/operations.md#spam): a
 * spam lead is at the stage `spam` with its reason, listed on its own and
 * counted, moved there and back by an owner, deleted 30 days after it
 * became spam, and the repeated-message rule's look-up. Run beside the
 * leads' own contract against SQLite and PostgreSQL.
 */
export function runLeadsSpamContract(
  label: string,
  makeHarness: () => Promise<StoreHarness>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`Spam in the store: ${label}`, () => {
    let store: AppStore;
    openStorePerTest(makeHarness, (first) => {
      store = first;
    });

    const DAY = 24 * 60 * 60 * 1000;

    it('keeps a spam lead at the stage spam with its reason; others have none', async () => {
      const spam = makeLead({ status: 'spam', spam_reason: 'link' });
      const real = makeLead();
      await store.insertLead(spam, []);
      await store.insertLead(real, [pending(HOOK_A, real.created_at)]);
      expect(await store.getLead(spam.id)).toEqual(
        expect.objectContaining({ status: 'spam', stage: 'spam', spam_reason: 'link' }),
      );
      expect(await store.getLead(real.id)).toEqual(
        expect.objectContaining({ status: 'accepted', stage: 'new', spam_reason: null }),
      );
    });

    it('lists spam on its own: never in the inbox, nor in its count of new ones', async () => {
      const spam = makeLead({ status: 'spam', spam_reason: 'trap' });
      const real = makeLead();
      await store.insertLead(spam, []);
      await store.insertLead(real, []);
      const inbox = await store.searchLeads();
      expect(inbox.leads.map((lead) => lead.id)).toEqual([real.id]);
      expect(inbox.total).toBe(1);
      const folder = await store.searchLeads({ stage: 'spam' });
      expect(folder.leads.map((lead) => lead.id)).toEqual([spam.id]);
      expect(folder.total).toBe(1);
      expect(await store.countSpamLeads()).toBe(1);
      expect(await store.countUnseenLeads()).toBe(1);
    });

    it('"Spam" on a lead cancels what it has not been sent yet, once', async () => {
      const lead = makeLead();
      await store.insertLead(lead, [pending(HOOK_A, lead.created_at), pending(HOOK_B, null)]);
      await store.settleLead(lead.id, 'accepted', [
        {
          target: HOOK_B,
          state: 'delivered',
          attempts: 1,
          next_attempt_at: null,
          last_error: null,
          delivered_at: nextTime(),
        },
      ]);
      const at = nextTime();
      expect(await store.markSpam(lead.id, at, 'owner')).toBe(1);
      const read = await store.getLead(lead.id);
      expect(read).toEqual(
        expect.objectContaining({
          status: 'spam',
          stage: 'spam',
          spam_reason: 'owner',
          revision: 1,
        }),
      );
      expect(read?.deliveries.map((d) => [d.target, d.state])).toEqual([
        [HOOK_A, 'cancelled'],
        [HOOK_B, 'delivered'],
      ]);
      // Already spam: nothing changes.
      expect(await store.markSpam(lead.id, nextTime(), 'owner')).toBeNull();
      expect(await store.markSpam('00000000-0000-4000-8000-000000000000', at, 'owner')).toBeNull();
      // The outbox never claims it.
      const claimed = await store.claimDueDeliveries({
        owner: 'w',
        now: nextTime(),
        leaseUntil: nextTime(),
        limit: 10,
        targets: [HOOK_A, HOOK_B],
      });
      expect(claimed).toEqual([]);
    });

    it('"Not spam" makes a spam lead new and accepted with fresh deliveries the outbox claims', async () => {
      const lead = makeLead({ status: 'spam', spam_reason: 'repeated' });
      await store.insertLead(lead, []);
      const due = nextTime();
      expect(await store.rescueLead(lead.id, [pending(HOOK_A, due), pending(HOOK_B, due)])).toBe(
        true,
      );
      const read = await store.getLead(lead.id);
      expect(read).toEqual(
        expect.objectContaining({ status: 'accepted', stage: 'new', spam_reason: null }),
      );
      expect(read?.revision).toBe(1);
      expect(read?.deliveries.map((d) => [d.target, d.state, d.attempts])).toEqual([
        [HOOK_A, 'pending', 0],
        [HOOK_B, 'pending', 0],
      ]);
      const claimed = await store.claimDueDeliveries({
        owner: 'w',
        now: nextTime(),
        leaseUntil: nextTime(),
        limit: 10,
        targets: [HOOK_A, HOOK_B],
      });
      expect(claimed.map((d) => d.target).sort()).toEqual([HOOK_A, HOOK_B].sort());
      // Not spam any more: a second "Not spam" changes nothing.
      expect(await store.rescueLead(lead.id, [pending(HOOK_A, due)])).toBe(false);
      expect(await store.rescueLead('00000000-0000-4000-8000-000000000000', [])).toBe(false);
    });

    it('"Not spam" holds an urgent lead\'s escalation until the time given', async () => {
      const now = Date.now();
      const iso = (ms: number) => new Date(ms).toISOString();
      const MINUTE = 60_000;
      const lead = makeLead({
        status: 'spam',
        spam_reason: 'link',
        urgent: true,
        created_at: iso(now - 60 * MINUTE),
      });
      await store.insertLead(lead, []);
      expect(
        await store.rescueLead(lead.id, [], { escalateNotBefore: iso(now + 10 * MINUTE) }),
      ).toBe(true);
      const escalate = (at: number) =>
        store.claimEscalations({
          dueBefore: iso(at - 10 * MINUTE),
          now: iso(at),
          leaseUntil: iso(at + MINUTE),
          limit: 10,
        });
      expect(await escalate(now + 9 * MINUTE)).toEqual([]);
      expect((await escalate(now + 10 * MINUTE)).map((read) => read.id)).toEqual([lead.id]);
    });

    it('"Not spam" replaces the rows of a lead an owner had moved to spam', async () => {
      const lead = makeLead();
      await store.insertLead(lead, [pending(HOOK_A, lead.created_at)]);
      await store.markSpam(lead.id, nextTime(), 'owner');
      expect(await store.rescueLead(lead.id, [pending(HOOK_A, nextTime())])).toBe(true);
      const read = await store.getLead(lead.id);
      expect(read?.deliveries.map((d) => [d.target, d.state])).toEqual([[HOOK_A, 'pending']]);
    });

    it('deletes spam 30 days after it became spam, and nothing else', async () => {
      const now = Date.now();
      const iso = (ms: number) => new Date(ms).toISOString();
      const oldSpam = makeLead({ status: 'spam', created_at: iso(now - 31 * DAY) });
      const newSpam = makeLead({ status: 'spam', created_at: iso(now - 29 * DAY) });
      const oldReal = makeLead({ created_at: iso(now - 31 * DAY) });
      // Old, but moved to spam only now: kept 30 days from now.
      const movedNow = makeLead({ created_at: iso(now - 40 * DAY) });
      for (const lead of [oldSpam, newSpam, oldReal, movedNow]) await store.insertLead(lead, []);
      await store.markSpam(movedNow.id, iso(now), 'owner');
      expect(await store.purgeSpamBefore(iso(now - 30 * DAY))).toBe(1);
      const left = (await store.exportLeads()).map((lead) => lead.id).sort();
      expect(left).toEqual([newSpam.id, oldReal.id, movedNow.id].sort());
    });

    it('finds a message key among the leads since a time', async () => {
      const now = Date.now();
      const iso = (ms: number) => new Date(ms).toISOString();
      await store.insertLead(
        makeLead({ message_key: 'key-a', created_at: iso(now - DAY / 2) }),
        [],
      );
      await store.insertLead(
        makeLead({ message_key: 'key-b', created_at: iso(now - 2 * DAY) }),
        [],
      );
      await store.insertLead(makeLead({ message_key: null }), []);
      // Its sender was told to try again: sending it again is no repeat.
      await store.insertLead(makeLead({ message_key: 'key-d', status: 'not_accepted' }), []);
      const since = iso(now - DAY);
      expect(await store.hasMessageSince('key-a', since)).toBe(true);
      expect(await store.hasMessageSince('key-b', since)).toBe(false);
      expect(await store.hasMessageSince('key-c', since)).toBe(false);
      expect(await store.hasMessageSince('key-d', since)).toBe(false);
    });
  });
}

import { describe, expect, it } from 'vitest';
import type { AppStore } from '../store.server.ts';
import { iso, nextTime, openStorePerTest, type StoreHarness } from '../store.contract.ts';
import { makeLead } from './leads.contract.ts';

/**
 * The behaviour every store must have for follow-ups and the morning
 * e-mail (docs/operations.md#follow-ups): when each lead's stage last
 * changed, the lists of leads waiting for the owner, and the claim of each
 * owner's e-mail of the day. Run beside the leads' own contract against SQLite and
 * PostgreSQL.
 */
export function runLeadsFollowUpsContract(
  label: string,
  makeHarness: () => Promise<StoreHarness>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`Leads to follow up in the store: ${label}`, () => {
    let store: AppStore;
    const open = openStorePerTest(makeHarness, (first) => {
      store = first;
    });

    const changedAt = async (id: string) => (await store.getLead(id))?.stage_changed_at;

    it('keeps when the stage last changed: its arrival, then each save that changes it', async () => {
      const lead = makeLead();
      await store.insertLead(lead, []);
      expect(await changedAt(lead.id)).toBe(lead.created_at);
      expect((await store.listLeads())[0]?.stage_changed_at).toBe(lead.created_at);

      // A note alone, or the same stage again, is no change of stage.
      await store.saveLeadTracking(lead.id, 0, { note: 'Rang back' }, nextTime());
      await store.saveLeadTracking(lead.id, 1, { stage: 'new', note: 'x' }, nextTime());
      expect(await changedAt(lead.id)).toBe(lead.created_at);

      const quoted = nextTime();
      await store.saveLeadTracking(lead.id, 2, { stage: 'quoted' }, quoted);
      expect(await changedAt(lead.id)).toBe(quoted);
      await store.saveLeadTracking(lead.id, 3, { stage: 'quoted', note: 'Sent' }, nextTime());
      // A save refused on an older revision changes nothing.
      await store.saveLeadTracking(lead.id, 0, { stage: 'won' }, nextTime());
      expect(await changedAt(lead.id)).toBe(quoted);
      expect((await store.searchLeads({ stage: 'quoted' })).leads[0]?.stage_changed_at).toBe(
        quoted,
      );

      const won = nextTime();
      await store.saveLeadTracking(lead.id, 4, { stage: 'won' }, won);
      expect(await changedAt(lead.id)).toBe(won);
      expect((await store.exportLeads())[0]?.stage_changed_at).toBe(won);
    });

    it('moves it when a lead becomes spam and when it is taken out of spam', async () => {
      const lead = makeLead();
      await store.insertLead(lead, []);
      const spam = nextTime();
      await store.markSpam(lead.id, spam, 'owner');
      expect(await changedAt(lead.id)).toBe(spam);
      const rescued = nextTime();
      expect(await store.rescueLead(lead.id, [], { at: rescued })).toBe(true);
      expect(await changedAt(lead.id)).toBe(rescued);

      // Caught on arrival: spam since it came.
      const caught = makeLead({ status: 'spam', spam_reason: 'trap' });
      await store.insertLead(caught, []);
      expect(await changedAt(caught.id)).toBe(caught.created_at);
    });

    it('lists urgent leads nobody is on, leads new for a day and quotes to chase; never spam', async () => {
      const HOUR = 3_600_000;
      const now = Date.parse('2026-06-10T00:00:00.000Z');
      const lead = (hoursAgo: number, extra: Parameters<typeof makeLead>[0] = {}) =>
        makeLead({ created_at: iso(now - hoursAgo * HOUR), ...extra });
      const fresh = lead(2);
      const day = lead(25);
      const week = lead(24 * 7);
      const urgentFresh = lead(1, { urgent: true });
      const urgentTaken = lead(3, { urgent: true });
      const spam = lead(30, { status: 'spam', spam_reason: 'words' });
      const refused = lead(30, { status: 'not_accepted' });
      const quotedLong = lead(24 * 10);
      const quotedLately = lead(24 * 10);
      const contacted = lead(24 * 10);
      for (const each of [fresh, day, week, urgentFresh, urgentTaken, spam, refused]) {
        await store.insertLead(each, []);
      }
      for (const each of [quotedLong, quotedLately, contacted]) await store.insertLead(each, []);
      await store.acknowledgeLead(urgentTaken.id, 'kasey@example.nz', iso(now - HOUR));
      await store.saveLeadTracking(quotedLong.id, 0, { stage: 'quoted' }, iso(now - 96 * HOUR));
      await store.saveLeadTracking(quotedLately.id, 0, { stage: 'quoted' }, iso(now - 48 * HOUR));
      await store.saveLeadTracking(contacted.id, 0, { stage: 'contacted' }, iso(now - 96 * HOUR));

      const options = {
        newBefore: iso(now - 24 * HOUR),
        quotedBefore: iso(now - 72 * HOUR),
        limit: 10,
      };
      const ids = (list: { leads: Array<{ id: string }> }) => list.leads.map((each) => each.id);
      const lists = await store.listFollowUps(options);
      expect(ids(lists.urgent)).toEqual([urgentFresh.id]);
      // The longest waiting first.
      expect(ids(lists.waiting)).toEqual([week.id, day.id]);
      expect(ids(lists.quoted)).toEqual([quotedLong.id]);
      expect([lists.urgent.total, lists.waiting.total, lists.quoted.total]).toEqual([1, 2, 1]);
      expect(lists.quoted.leads[0]).toEqual({
        id: quotedLong.id,
        name: quotedLong.name,
        phone: quotedLong.phone,
        service: quotedLong.service,
        message: quotedLong.message,
        source: quotedLong.source,
        created_at: quotedLong.created_at,
        urgent: false,
        stage: 'quoted',
        stage_changed_at: iso(now - 96 * HOUR),
        acknowledged_at: null,
      });

      // A page of one: the total still counts them all.
      const one = await store.listFollowUps({ ...options, limit: 1 });
      expect(ids(one.waiting)).toEqual([week.id]);
      expect(one.waiting.total).toBe(2);

      // Moved on: no longer waiting. Into spam: never listed.
      await store.saveLeadTracking(week.id, 0, { stage: 'contacted' }, iso(now));
      await store.markSpam(urgentFresh.id, iso(now), 'owner');
      const later = await store.listFollowUps(options);
      expect(ids(later.waiting)).toEqual([day.id]);
      expect(later.urgent.total).toBe(0);
    });

    it("claims an owner's morning e-mail of a day once, across instances, until it is done", async () => {
      const b = await open();
      const { owner } = await store.addOwner('kasey@example.nz', nextTime());
      const { owner: other } = await store.addOwner('aroha@example.nz', nextTime());
      const now = Date.parse('2026-06-09T19:30:00.000Z');
      const claim = (on: AppStore, ownerId: string, day: string, at: number) =>
        on.claimMorningEmail({
          ownerId,
          day,
          now: iso(at),
          leaseUntil: iso(at + 5 * 60_000),
        });

      // Of six at once, from two instances, one claims it.
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          claim(index % 2 === 0 ? store : b, owner.id, '2026-06-10', now),
        ),
      );
      expect(results.filter((result) => result === 'claimed')).toHaveLength(1);
      expect(results.filter((result) => result === 'held')).toHaveLength(5);
      // Each owner and each day on its own.
      expect(await claim(b, other.id, '2026-06-10', now)).toBe('claimed');
      expect(await claim(b, owner.id, '2026-06-11', now)).toBe('claimed');

      // The claimer died: once its claim has expired, another takes it.
      expect(await claim(b, owner.id, '2026-06-10', now + 60_000)).toBe('held');
      expect(await claim(b, owner.id, '2026-06-10', now + 5 * 60_000)).toBe('claimed');
      await b.finishMorningEmail(owner.id, '2026-06-10', iso(now + 5 * 60_000), 3);
      // Done: never again, on any instance, however late.
      expect(await claim(store, owner.id, '2026-06-10', now + 60 * 60_000)).toBe('done');
      expect(await claim(b, owner.id, '2026-06-10', now + 20 * 3_600_000)).toBe('done');
      // Nothing to send is done too.
      await store.finishMorningEmail(other.id, '2026-06-10', iso(now), 0);
      expect(await claim(b, other.id, '2026-06-10', now + 6 * 60_000)).toBe('done');

      // A month on, the old days are forgotten.
      expect(await claim(store, owner.id, '2026-07-20', now)).toBe('claimed');
      expect(await claim(store, owner.id, '2026-06-10', now + 7 * 60_000)).toBe('claimed');
    });
  });
}

import { describe, expect, it } from 'vitest';
import type { AppStore } from '../store.server.ts';
import { nextTime, openStorePerTest, type StoreHarness } from '../store.contract.ts';
import { makeLead } from './leads.contract.ts';

/**
 * The behaviour every store must have for follow-ups and the morning
 * e-mail (docs/operations.md#follow-ups): when each lead's stage last
 * changed. Run beside the leads' own contract against SQLite and
 * PostgreSQL.
 */
export function runLeadsFollowUpsContract(
  label: string,
  makeHarness: () => Promise<StoreHarness>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`Leads to follow up in the store: ${label}`, () => {
    let store: AppStore;
    openStorePerTest(makeHarness, (first) => {
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
  });
}

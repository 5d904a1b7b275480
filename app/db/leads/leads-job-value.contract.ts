import { describe, expect, it } from 'vitest';
import { JOB_VALUE_MAX_CENTS, type AppStore } from '../store.server.ts';
import { openStorePerTest, type StoreHarness } from '../store.contract.ts';
import { makeLead } from './leads.contract.ts';

/**
 * The value of a won job (docs/operations.md#reports): whole cents kept with
 * the lead, saved with its stage, and only while the stage is won. Run
 * against SQLite and PostgreSQL.
 */
export function runLeadsJobValueContract(
  label: string,
  makeHarness: () => Promise<StoreHarness>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`Leads' job value in the store: ${label}`, () => {
    let store: AppStore;
    openStorePerTest(makeHarness, (first) => {
      store = first;
    });

    it('keeps none for a new lead, in every read', async () => {
      const lead = makeLead();
      await store.insertLead(lead, []);
      const none = expect.objectContaining({ job_value_cents: null });
      expect(await store.getLead(lead.id)).toEqual(none);
      expect((await store.listLeads())[0]).toEqual(none);
      expect((await store.exportLeads())[0]).toEqual(none);
      expect((await store.findLeadsByEmail(lead.email))[0]).toEqual(none);
      expect((await store.searchLeads()).leads[0]).toEqual(none);
    });

    it('saves a value with the stage won, keeps it while won, and clears it when not', async () => {
      const lead = makeLead();
      await store.insertLead(lead, []);
      const valueOf = async () => (await store.getLead(lead.id))?.job_value_cents;

      const won = await store.saveLeadTracking(lead.id, 0, {
        stage: 'won',
        job_value_cents: 125050,
      });
      expect(won).toEqual(expect.objectContaining({ saved: true }));
      expect(await valueOf()).toBe(125050);
      // A save that leaves the value out keeps it while the lead stays won.
      await store.saveLeadTracking(lead.id, 1, { note: 'Paid in full' });
      expect(await valueOf()).toBe(125050);
      await store.saveLeadTracking(lead.id, 2, { stage: 'won' });
      expect(await valueOf()).toBe(125050);
      // Null clears it.
      await store.saveLeadTracking(lead.id, 3, { stage: 'won', job_value_cents: null });
      expect(await valueOf()).toBeNull();
      await store.saveLeadTracking(lead.id, 4, { job_value_cents: JOB_VALUE_MAX_CENTS });
      expect(await valueOf()).toBe(JOB_VALUE_MAX_CENTS);
      // Away from won, the value goes, whatever the save says.
      await store.saveLeadTracking(lead.id, 5, { stage: 'lost', job_value_cents: 900 });
      expect(await valueOf()).toBeNull();
      await store.saveLeadTracking(lead.id, 6, { job_value_cents: 900 });
      expect(await valueOf()).toBeNull();
      // Back to won: nothing comes back by itself.
      await store.saveLeadTracking(lead.id, 7, { stage: 'won' });
      expect(await valueOf()).toBeNull();
      expect((await store.getLead(lead.id))?.revision).toBe(8);
    });

    it('refuses a value that is not whole cents from 0 to the most, and saves nothing', async () => {
      const lead = makeLead();
      await store.insertLead(lead, []);
      for (const cents of [-1, 12.5, JOB_VALUE_MAX_CENTS + 1, Number.NaN]) {
        await expect(
          store.saveLeadTracking(lead.id, 0, { stage: 'won', job_value_cents: cents }),
        ).rejects.toThrow(/job value/i);
      }
      expect(await store.getLead(lead.id)).toEqual(
        expect.objectContaining({ stage: 'new', revision: 0, job_value_cents: null }),
      );
    });

    it('a save refused for its revision writes no value', async () => {
      const lead = makeLead();
      await store.insertLead(lead, []);
      await store.saveLeadTracking(lead.id, 0, { stage: 'won', job_value_cents: 100 });
      const late = await store.saveLeadTracking(lead.id, 0, {
        stage: 'won',
        job_value_cents: 999_00,
      });
      expect(late).toEqual(expect.objectContaining({ saved: false, reason: 'conflict' }));
      expect((await store.getLead(lead.id))?.job_value_cents).toBe(100);
    });
  });
}

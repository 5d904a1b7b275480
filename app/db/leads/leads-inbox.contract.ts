import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AppStore, LeadStage } from '../store.server.ts';
import { nextTime, openStorePerTest, type StoreHarness } from '../store.contract.ts';
import { HOOK_A, makeLead, pending, TARGETS } from './leads.contract.ts';

/**
 * The behaviour every store must have for the owner's inbox: each lead's
 * stage and note, saved on its revision, and the inbox's search, order and
 * pages. Run beside the leads' own contract (leads.contract.ts) against
 * SQLite and PostgreSQL.
 */
export function runLeadsInboxContract(
  label: string,
  makeHarness: () => Promise<StoreHarness>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`Leads in the store: ${label}`, () => {
    let store: AppStore;
    const open = openStorePerTest(makeHarness, (first) => {
      store = first;
    });

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
      const ids = async (search: Parameters<AppStore['searchLeads']>[0]) => {
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
      const ids = async (search: Parameters<AppStore['searchLeads']>[0]) =>
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
    });

    it('keeps when an owner first saw each lead, and counts the leads no owner has seen', async () => {
      const [first, second, third] = [makeLead(), makeLead(), makeLead()];
      for (const lead of [first!, second!, third!]) await store.insertLead(lead, []);
      expect(await store.countUnseenLeads()).toBe(3);
      expect((await store.getLead(first!.id))?.seen_at).toBeNull();
      expect((await store.searchLeads()).leads.map((lead) => lead.seen_at)).toEqual([
        null,
        null,
        null,
      ]);

      // Opened: the first opening is kept, a later one changes nothing.
      const opened = nextTime();
      expect(await store.markLeadSeen(first!.id, opened)).toBe(true);
      expect(await store.markLeadSeen(first!.id, nextTime())).toBe(false);
      expect((await store.getLead(first!.id))?.seen_at).toBe(opened);
      expect(await store.countUnseenLeads()).toBe(2);
      for (const id of [randomUUID(), 'not-a-uuid']) {
        expect(await store.markLeadSeen(id, nextTime())).toBe(false);
      }

      // "Mark all as seen" up to a time: a lead that came in after it stays new,
      // and one already opened keeps its first time.
      const marked = nextTime();
      expect(await store.markLeadsSeen(second!.created_at, marked)).toBe(1);
      expect((await store.getLead(second!.id))?.seen_at).toBe(marked);
      expect((await store.getLead(first!.id))?.seen_at).toBe(opened);
      expect((await store.getLead(third!.id))?.seen_at).toBeNull();
      expect(await store.countUnseenLeads()).toBe(1);
      expect(await store.markLeadsSeen(third!.created_at, nextTime())).toBe(1);
      expect(await store.markLeadsSeen(nextTime(), nextTime())).toBe(0);
      expect(await store.countUnseenLeads()).toBe(0);

      // Seen by one owner is seen for every owner, on every instance.
      const b = await open();
      await store.insertLead(makeLead(), []);
      expect(await b.countUnseenLeads()).toBe(1);
      expect((await b.searchLeads({ limit: 1 })).leads[0]?.seen_at).toBeNull();
      expect((await b.findLeadsByEmail(first!.email))[0]?.seen_at).toBe(opened);
    });

    it('of two first openings of a lead at once, from two instances, one is kept', async () => {
      const b = await open();
      const lead = makeLead();
      await store.insertLead(lead, []);
      const times = Array.from({ length: 6 }, () => nextTime());
      const results = await Promise.all(
        times.map((at, index) => (index % 2 === 0 ? store : b).markLeadSeen(lead.id, at)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const kept = (await store.getLead(lead.id))?.seen_at;
      expect(kept).toBe(times[results.indexOf(true)]);
    });
  });
}

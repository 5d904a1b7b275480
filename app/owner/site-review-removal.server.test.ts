import { describe, expect, it } from 'vitest';
import { makeLead } from '../db/leads/leads.contract.ts';
import { defaultSiteContent, type SiteContent } from '../content/site-content.ts';
import type { AppStore } from '../db/store.server.ts';
import { deletePerson } from '../leads/person-data.server.ts';
import { describeActivity } from './activity-words.server.ts';
import { publishedContent } from './site-review-removal.server.ts';
import { onEachStore, owner } from './testing/site-test-support.server.ts';

let store: AppStore;

/** A published review of `leadId`'s customer, as "Publish" on a sent review makes it. */
const sentReview = (id: number, leadId: string): SiteContent['testimonials'][number] => ({
  id,
  name: 'Tama R.',
  role: 'Homeowner',
  location: 'Bethlehem',
  rating: 3,
  review: 'Took a while to reply, but the new window is perfect.',
  permission: true,
  leadId,
});

onEachStore(
  'a published review when its enquiry is deleted',
  (opened) => (store = opened),
  () => {
    describe('a privacy erasure', () => {
      it('takes the review off the site, out of the draft and out of every version', async () => {
        const lead = makeLead({ email: 'tama@example.co.nz' });
        const other = makeLead({ email: 'mere@example.co.nz' });
        await store.insertLead(lead, []);
        await store.insertLead(other, []);
        const content: SiteContent = {
          ...defaultSiteContent,
          testimonials: [sentReview(20, lead.id), sentReview(21, other.id)],
        };
        const first = await store.createSiteContentVersion(content, owner.id);
        await store.setSiteContentVersionState(first.version, 'live');
        await store.saveSiteContentSection('testimonials', content.testimonials, 0, owner.id);

        expect(await deletePerson(store, 'tama@example.co.nz', owner)).toBe(1);

        // A new version without the review, on its way to visitors.
        const [newest] = await store.listSiteContentVersions(1);
        expect(newest).toMatchObject({ version: first.version + 1, state: 'publishing' });
        expect(newest!.content.testimonials.map((t) => t.id)).toEqual([21]);
        expect((await publishedContent(store)).testimonials.map((t) => t.id)).toEqual([21]);
        // No Restore brings it back: no version holds it.
        const all = await store.listSiteContentVersions(10);
        expect(JSON.stringify(all)).not.toContain(lead.id);
        expect((await store.siteContentDraft()).testimonials.content.map((t) => t.id)).toEqual([
          21,
        ]);
        const [entry] = await store.listActivity({ limit: 1 });
        expect(describeActivity(entry!).sentence).toBe(
          `Kiri took 1 customer’s review off the site with that person’s enquiries, as version ${newest!.version}.`,
        );
      });

      it('publishes nothing when the person’s review was never on the site', async () => {
        const lead = makeLead({ email: 'tama@example.co.nz' });
        await store.insertLead(lead, []);
        // Only in the draft: it leaves the draft, and no version is made.
        await store.saveSiteContentSection('testimonials', [sentReview(20, lead.id)], 0, owner.id);
        expect(await deletePerson(store, 'tama@example.co.nz')).toBe(1);
        expect(await store.listSiteContentVersions(1)).toEqual([]);
        expect((await store.siteContentDraft()).testimonials.content).toEqual([]);
      });
    });

    describe('the retention purge', () => {
      it('leaves the review on the site: the customer agreed to its publication', async () => {
        const lead = makeLead({ created_at: '2020-01-01T00:00:00.000Z' });
        await store.insertLead(lead, []);
        const content = { ...defaultSiteContent, testimonials: [sentReview(20, lead.id)] };
        const version = await store.createSiteContentVersion(content, owner.id);
        await store.setSiteContentVersionState(version.version, 'live');
        expect(await store.purgeCreatedBefore('2021-01-01T00:00:00.000Z')).toBe(1);
        expect((await publishedContent(store)).testimonials).toEqual(content.testimonials);
        expect(await store.listSiteContentVersions(10)).toHaveLength(1);
      });
    });
  },
);

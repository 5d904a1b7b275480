import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeLead } from '../db/leads/leads.contract.ts';
import { defaultSiteContent } from '../content/site-content.ts';
import type { AppStore, LeadRecord } from '../db/store.server.ts';
import { describeActivity } from './activity-words.server.ts';
import {
  declineReview,
  publishReview,
  reviewOrigins,
  samplesLine,
  waitingReviewCount,
  waitingReviews,
} from './site-reviews.server.ts';
import { publishStatus } from './site-status.server.ts';
import {
  identityForm,
  onEachStore,
  other,
  owner,
  publisher,
} from './testing/site-test-support.server.ts';
import { saveIdentity } from './site-drafts.server.ts';

let store: AppStore;

const DAY = 24 * 60 * 60 * 1000;

/** A won customer's review, sent with the link the owner e-mailed them. */
async function sentReview(
  lead: Partial<LeadRecord> = {},
  rating: 1 | 2 | 3 | 4 | 5 = 2,
): Promise<{ id: string; lead: LeadRecord }> {
  const stored = makeLead(lead);
  await store.insertLead(stored, []);
  await store.saveLeadTracking(stored.id, 0, { stage: 'won' });
  const token = randomBytes(32).toString('base64url');
  const tokenHash = createHash('sha256').update(token).digest('hex');
  const now = Date.now();
  const request = await store.createReviewRequest({
    lead_id: stored.id,
    email: stored.email,
    token_hash: tokenHash,
    created_at: new Date(now - DAY).toISOString(),
    expires_at: new Date(now + 29 * DAY).toISOString(),
    sent_by: owner.email,
  });
  const sent = await store.submitReview(
    tokenHash,
    {
      rating,
      text: 'Took a week to hear back, but the new shower screen is perfect.',
      display_name: 'Tama R.',
      suburb: 'Bethlehem',
      consent_at: new Date(now).toISOString(),
    },
    new Date(now).toISOString(),
  );
  if (!request || !sent) throw new Error('no review');
  return { id: request.id, lead: stored };
}

describe('the samples still on the site', () => {
  const samples = defaultSiteContent.testimonials;
  const real = { ...samples[0]!, id: 40, permission: true, sample: undefined };
  it('says the real review joins them, and how to take them off', () => {
    expect(samplesLine(samples, samples)).toBe(
      'Your site still shows 7 invented sample reviews. A real review you publish joins them: remove the samples below, then publish, before you launch.',
    );
    expect(samplesLine(samples.slice(0, 1), [real])).toBe(
      'Your site still shows 1 invented sample review. A real review you publish joins it. You took it out of the draft: tap Publish at the top to take it off the site.',
    );
    expect(samplesLine([real], [real])).toBeNull();
  });
});

onEachStore(
  'a customer’s review on the testimonials page',
  (opened) => (store = opened),
  () => {
    describe('Publish', () => {
      it('adds it to the site with the consent and its enquiry, and publishes it', async () => {
        const { id, lead } = await sentReview({ service: 'Business Glass' }, 2);
        expect(await waitingReviewCount(store)).toBe(1);
        const [shown] = await waitingReviews(store);
        expect(shown).toMatchObject({
          id,
          leadHref: `/admin/leads/${lead.id}`,
          leadName: lead.name,
          card: { name: 'Tama R.', role: 'Business Owner', location: 'Bethlehem', rating: 2 },
        });

        const control = publisher();
        const outcome = await publishReview(store, owner, control, id);
        expect(outcome).toEqual({ kind: 'published', version: 1 });
        expect(control.asked).toBe(1);
        const testimonial = {
          id: Math.max(...defaultSiteContent.testimonials.map((t) => t.id)) + 1,
          name: 'Tama R.',
          role: 'Business Owner',
          location: 'Bethlehem',
          rating: 2,
          review: 'Took a week to hear back, but the new shower screen is perfect.',
          permission: true,
          leadId: lead.id,
        };
        const [version] = await store.listSiteContentVersions(1);
        expect(version).toMatchObject({ version: 1, state: 'publishing', created_by: owner.id });
        expect(version!.content.testimonials.at(-1)).toEqual(testimonial);
        expect((await store.siteContentDraft()).testimonials.content.at(-1)).toEqual(testimonial);
        expect((await store.getReviewRequest(id))?.review).toMatchObject({
          decision: 'published',
          decided_by: owner.email,
          testimonial_id: testimonial.id,
        });
        expect(await waitingReviewCount(store)).toBe(0);
        const [entry] = await store.listActivity({ limit: 1 });
        expect(describeActivity(entry!)).toEqual({
          sentence: 'Kiri published a customer’s review on the site, as version 1.',
          lead: lead.id,
        });
      });

      it('the draft’s list names the enquiry each published review came from', async () => {
        const { id, lead } = await sentReview();
        await publishReview(store, owner, undefined, id);
        const draft = (await store.siteContentDraft()).testimonials.content;
        const published = draft.at(-1)!;
        const gone = { ...published, id: published.id + 1, leadId: randomUUID() };
        const origins = await reviewOrigins(store, [...draft, gone]);
        expect(origins.get(published.id)).toEqual({
          href: `/admin/leads/${lead.id}`,
          name: lead.name,
        });
        expect(origins.get(gone.id)).toEqual({ href: null, name: null });
        expect(origins.has(draft[0]!.id)).toBe(false);
      });

      it('a homeowner unless the enquiry says business', async () => {
        const { id } = await sentReview({ service: 'Windows' }, 5);
        await publishReview(store, owner, undefined, id);
        const [version] = await store.listSiteContentVersions(1);
        expect(version!.content.testimonials.at(-1)?.role).toBe('Homeowner');
      });

      it('publishes that review only: other saved changes stay waiting', async () => {
        const live = await store.createSiteContentVersion(defaultSiteContent, owner.id);
        await store.setSiteContentVersionState(live.version, 'live');
        await saveIdentity(store, other, identityForm({ 'phone.display': '07 578 2468' }, 0));
        const { id } = await sentReview();
        expect(await publishReview(store, owner, undefined, id)).toMatchObject({ version: 2 });
        const [version] = await store.listSiteContentVersions(1);
        expect(version!.content.identity).toEqual(defaultSiteContent.identity);
        expect((await store.siteContentDraft()).identity.content.phone.display).toBe('07 578 2468');
        // The bar still counts the phone number as not live yet, and only it.
        await store.setSiteContentVersionState(2, 'live');
        expect((await publishStatus(store, undefined)).changes).toBe(1);
      });

      it('is refused, and stays waiting, when the site or the draft has 30 reviews', async () => {
        const { id } = await sentReview();
        const thirty = Array.from({ length: 30 }, (_, index) => ({
          ...defaultSiteContent.testimonials[0]!,
          id: index + 1,
        }));
        await store.saveSiteContentSection('testimonials', thirty, 0, owner.id);
        expect(await publishReview(store, owner, undefined, id)).toEqual({
          kind: 'refused',
          message: 'It could not be added: Testimonials: at most 30',
        });
        expect(await waitingReviewCount(store)).toBe(1);
        expect(await store.listSiteContentVersions(1)).toEqual([]);
      });

      it('a second tap, or another owner’s at once, publishes it once', async () => {
        const { id } = await sentReview();
        const outcomes = await Promise.all([
          publishReview(store, owner, undefined, id),
          publishReview(store, other, undefined, id),
        ]);
        expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(['gone', 'published']);
        expect(await publishReview(store, owner, undefined, id)).toEqual({ kind: 'gone' });
        expect(await store.listSiteContentVersions(10)).toHaveLength(1);
        expect(
          (await store.siteContentDraft()).testimonials.content.filter((t) => t.leadId),
        ).toHaveLength(1);
      });
    });

    describe('Decline', () => {
      it('keeps it off the site, with one of the four reasons', async () => {
        const { id, lead } = await sentReview();
        expect(await declineReview(store, owner, id, null)).toEqual({ kind: 'no-reason' });
        expect(await declineReview(store, owner, id, 'low_rating')).toEqual({ kind: 'no-reason' });
        expect(await waitingReviewCount(store)).toBe(1);
        expect(await declineReview(store, owner, id, 'offensive')).toEqual({ kind: 'declined' });
        expect((await store.getReviewRequest(id))?.review).toMatchObject({
          decision: 'declined',
          decline_reason: 'offensive',
          decided_by: owner.email,
          testimonial_id: null,
        });
        expect(await store.listSiteContentVersions(1)).toEqual([]);
        expect(await publishReview(store, owner, undefined, id)).toEqual({ kind: 'gone' });
        expect(await declineReview(store, other, id, 'offensive')).toEqual({ kind: 'gone' });
        const [entry] = await store.listActivity({ limit: 1 });
        expect(describeActivity(entry!)).toEqual({
          sentence:
            'Kiri declined a customer’s review, not to be published: it is offensive or abusive.',
          lead: lead.id,
        });
      });
    });
  },
);

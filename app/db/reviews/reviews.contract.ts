import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AppStore, NewReview, NewReviewRequest, SentReviewRecord } from '../store.server.ts';
import { makeLead } from '../leads/leads.contract.ts';
import { iso, nextTime, openStorePerTest, type StoreHarness } from '../store.contract.ts';

/**
 * The behaviour every store must have for the review requests and the
 * reviews they brought (reviews.server.ts), run against SQLite
 * (store-sqlite.server.test.ts) and PostgreSQL (store-postgres.server.test.ts).
 */

const DAY_MS = 24 * 60 * 60 * 1000;

function tokenHash(): string {
  return createHash('sha256').update(randomBytes(32).toString('base64url')).digest('hex');
}

function request(leadId: string, overrides: Partial<NewReviewRequest> = {}): NewReviewRequest {
  const created = Date.now();
  return {
    lead_id: leadId,
    email: 'aroha@example.co.nz',
    token_hash: tokenHash(),
    created_at: iso(created),
    expires_at: iso(created + 30 * DAY_MS),
    sent_by: 'owner@glass.example.nz',
    ...overrides,
  };
}

const review = (overrides: Partial<NewReview> = {}): NewReview => ({
  rating: 4,
  text: 'Replaced the cracked lounge pane the next morning. Tidy work.',
  display_name: 'Aroha N.',
  suburb: 'Bethlehem',
  consent_at: new Date().toISOString(),
  ...overrides,
});

export function runReviewsContract(
  label: string,
  makeHarness: () => Promise<StoreHarness>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`Reviews in the store: ${label}`, () => {
    let store: AppStore;
    const open = openStorePerTest(makeHarness, (first) => {
      store = first;
    });

    async function storedLead(overrides: Parameters<typeof makeLead>[0] = {}) {
      const lead = makeLead(overrides);
      await store.insertLead(lead, []);
      return lead;
    }

    it('keeps a request for its lead and finds it by the hash of its token only', async () => {
      const lead = await storedLead();
      const asked = request(lead.id);
      const created = await store.createReviewRequest(asked);
      expect(created).toMatchObject({
        lead_id: lead.id,
        email: asked.email,
        created_at: asked.created_at,
        expires_at: asked.expires_at,
        sent_by: asked.sent_by,
        used_at: null,
        review: null,
      });
      expect(created).not.toHaveProperty('token_hash');
      expect(await store.findReviewRequest(asked.token_hash)).toEqual({
        state: 'open',
        request: created,
      });
      expect(await store.findReviewRequest(tokenHash())).toEqual({ state: 'unknown' });
      expect(await store.getReviewRequest(created!.id)).toEqual(created);
      expect(await store.getReviewRequest('not-an-id')).toBeNull();
      // A lead deleted meanwhile: nothing to ask about.
      expect(await store.createReviewRequest(request(makeLead().id))).toBeNull();
    });

    it('says when an address and a lead were last asked', async () => {
      const lead = await storedLead();
      const other = await storedLead({ email: 'mere@example.co.nz' });
      expect(await store.latestReviewRequestForEmail('aroha@example.co.nz')).toBeNull();
      expect(await store.latestReviewRequestForLead(lead.id)).toBeNull();
      const first = await store.createReviewRequest(request(lead.id, { created_at: nextTime() }));
      const again = await store.createReviewRequest(request(lead.id, { created_at: nextTime() }));
      await store.createReviewRequest(
        request(other.id, { email: 'mere@example.co.nz', created_at: nextTime() }),
      );
      expect(await store.latestReviewRequestForEmail('aroha@example.co.nz')).toEqual(again);
      expect(await store.latestReviewRequestForLead(lead.id)).toEqual(again);
      expect(await store.listReviewRequestsForLead(lead.id)).toEqual([first, again]);
      expect(await store.latestReviewRequestForLead('not-an-id')).toBeNull();
      expect(await store.listReviewRequestsForLead('not-an-id')).toEqual([]);
    });

    it('makes a first request to an address once, even from two stores at once', async () => {
      const lead = await storedLead();
      const other = await open();
      const made = await Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          (index % 2 === 0 ? store : other).createReviewRequest(request(lead.id), {
            onlyIfFirst: true,
          }),
        ),
      );
      expect(made.filter((entry) => entry !== null)).toHaveLength(1);
      expect(await store.listReviewRequestsForLead(lead.id)).toHaveLength(1);
      // Another enquiry of the same address: asked already.
      const second = await storedLead();
      expect(await store.createReviewRequest(request(second.id), { onlyIfFirst: true })).toBeNull();
      // Asked again by hand: made.
      expect(await store.createReviewRequest(request(second.id))).not.toBeNull();
      // Another address is its own.
      const third = await storedLead({ email: 'kiri@example.co.nz' });
      expect(
        await store.createReviewRequest(request(third.id, { email: 'kiri@example.co.nz' }), {
          onlyIfFirst: true,
        }),
      ).not.toBeNull();
    });

    it('keeps one review per link, and tells a used or expired link from an open one', async () => {
      const lead = await storedLead();
      const asked = request(lead.id);
      const created = await store.createReviewRequest(asked);
      const at = new Date().toISOString();
      const sent = await store.submitReview(asked.token_hash, review(), at);
      expect(sent).toEqual({
        ...created,
        used_at: at,
        review: {
          ...review(),
          consent_at: sent!.review.consent_at,
          submitted_at: at,
          decision: 'waiting',
          decided_at: null,
          decided_by: null,
          decline_reason: null,
          testimonial_id: null,
        },
      });
      expect(await store.submitReview(asked.token_hash, review({ rating: 1 }), at)).toBeNull();
      expect(await store.findReviewRequest(asked.token_hash)).toEqual({
        state: 'used',
        request: sent,
      });
      expect(await store.submitReview(tokenHash(), review(), at)).toBeNull();

      const old = request(lead.id, {
        created_at: iso(Date.now() - 31 * DAY_MS),
        expires_at: iso(Date.now() - DAY_MS),
      });
      await store.createReviewRequest(old);
      expect((await store.findReviewRequest(old.token_hash)).state).toBe('expired');
      expect(await store.submitReview(old.token_hash, review(), at)).toBeNull();
      // Expiry is at the request's time, not the clock's: the page and the store agree.
      expect(
        (await store.findReviewRequest(old.token_hash, iso(Date.now() - 2 * DAY_MS))).state,
      ).toBe('open');
    });

    it('of two stores sending a review with one link at once, exactly one is kept', async () => {
      const lead = await storedLead();
      const asked = request(lead.id);
      await store.createReviewRequest(asked);
      const other = await open();
      const at = new Date().toISOString();
      const sent = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          (index % 2 === 0 ? store : other).submitReview(
            asked.token_hash,
            review({ rating: ((index % 5) + 1) as NewReview['rating'] }),
            at,
          ),
        ),
      );
      const kept = sent.filter((result) => result !== null);
      expect(kept).toHaveLength(1);
      expect(await store.listWaitingReviews()).toEqual(kept);
    });

    it('lists the waiting reviews oldest first, and decides each once', async () => {
      const lead = await storedLead();
      const sent = [];
      for (const rating of [5, 1, 3] as const) {
        const asked = request(lead.id, { created_at: nextTime() });
        await store.createReviewRequest(asked);
        // An unanswered request is not a review.
        await store.createReviewRequest(request(lead.id, { created_at: nextTime() }));
        sent.push(await store.submitReview(asked.token_hash, review({ rating }), nextTime()));
      }
      expect(await store.listWaitingReviews()).toEqual(sent);
      const [published, declined, waiting] = sent.map((entry) => entry!) as [
        SentReviewRecord,
        SentReviewRecord,
        SentReviewRecord,
      ];
      const at = nextTime();
      expect(
        await store.decideReview(
          published.id,
          { decision: 'published', testimonial_id: 7 },
          'owner@glass.example.nz',
          at,
        ),
      ).toBe(true);
      expect(
        await store.decideReview(
          declined.id,
          { decision: 'declined', reason: 'personal_details' },
          'other@glass.example.nz',
          at,
        ),
      ).toBe(true);
      // Already decided, or never a review: nothing changes.
      expect(
        await store.decideReview(
          published.id,
          { decision: 'declined', reason: 'offensive' },
          'other@glass.example.nz',
          at,
        ),
      ).toBe(false);
      const unanswered = await store.createReviewRequest(request(lead.id));
      expect(
        await store.decideReview(
          unanswered!.id,
          { decision: 'published', testimonial_id: 8 },
          'owner@glass.example.nz',
          at,
        ),
      ).toBe(false);
      expect(
        await store.decideReview(
          'not-an-id',
          { decision: 'published', testimonial_id: 8 },
          'owner@glass.example.nz',
          at,
        ),
      ).toBe(false);
      expect(await store.listWaitingReviews()).toEqual([waiting]);
      expect((await store.getReviewRequest(published.id))?.review).toMatchObject({
        decision: 'published',
        decided_at: at,
        decided_by: 'owner@glass.example.nz',
        decline_reason: null,
        testimonial_id: 7,
      });
      expect((await store.getReviewRequest(declined.id))?.review).toMatchObject({
        decision: 'declined',
        decided_by: 'other@glass.example.nz',
        decline_reason: 'personal_details',
        testimonial_id: null,
      });
    });

    it('deletes requests and reviews with their lead, by a deletion or the purge', async () => {
      const kept = await storedLead({ email: 'kept@example.co.nz', created_at: nextTime() });
      const deleted = await storedLead();
      const purged = await storedLead({
        email: 'old@example.co.nz',
        created_at: iso(Date.parse('2020-01-01T00:00:00.000Z')),
      });
      const asks = [kept, deleted, purged].map((lead) => request(lead.id, { email: lead.email }));
      for (const ask of asks) {
        await store.createReviewRequest(ask);
        await store.submitReview(ask.token_hash, review(), new Date().toISOString());
      }
      expect(await store.deleteLeads([deleted.id])).toBe(1);
      expect(await store.purgeCreatedBefore('2021-01-01T00:00:00.000Z')).toBe(1);
      expect((await store.findReviewRequest(asks[1]!.token_hash)).state).toBe('unknown');
      expect((await store.findReviewRequest(asks[2]!.token_hash)).state).toBe('unknown');
      expect(await store.latestReviewRequestForEmail(deleted.email)).toBeNull();
      expect(await store.latestReviewRequestForEmail('old@example.co.nz')).toBeNull();
      expect((await store.listWaitingReviews()).map((entry) => entry.lead_id)).toEqual([kept.id]);
    });
  });
}

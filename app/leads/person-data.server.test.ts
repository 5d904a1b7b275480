import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeLead } from '../db/leads/leads.contract.ts';
import { openSqliteStore } from '../db/store-sqlite.server.ts';
import type { AppStore } from '../db/store.server.ts';
import { deletePerson, exportPerson } from './person-data.server.ts';
import { tempDataDir } from './testing/test-support.server.ts';

/**
 * A person's data on request (person-data.server.ts) holds the review
 * requests sent to them and the reviews they sent, and deleting the person
 * deletes those too. The rest of the export and deletion is tested through
 * their doors (server/cli/leads-cli.test.ts, e2e/owner-inbox.spec.ts).
 */
describe("a person's review requests and reviews", () => {
  const data = tempDataDir('person-data-');
  let store: AppStore;
  beforeEach(async () => {
    store = await openSqliteStore({ dataDir: data.dir });
  });
  afterEach(async () => {
    await store.close();
    data.remove();
  });

  it('are in their export, without the link, and go when they are deleted', async () => {
    const lead = makeLead({ email: 'mere@example.co.nz', created_at: new Date().toISOString() });
    const other = makeLead({ email: 'someone@example.co.nz' });
    await store.insertLead(lead, []);
    await store.insertLead(other, []);
    const token = 'a'.repeat(43);
    const hash = createHash('sha256').update(token).digest('hex');
    const asked = await store.createReviewRequest({
      lead_id: lead.id,
      email: lead.email,
      token_hash: hash,
      created_at: '2026-11-01T00:00:00.000Z',
      expires_at: '2099-12-01T00:00:00.000Z',
      sent_by: 'ana@glass.example.nz',
    });
    await store.submitReview(
      hash,
      {
        rating: 3,
        text: 'Fixed the window, though a day later than first said.',
        display_name: 'Mere P.',
        suburb: 'Ōtūmoetai',
        consent_at: '2026-11-02T00:00:00.000Z',
      },
      '2026-11-02T00:00:00.000Z',
    );

    const { json } = await exportPerson(store, 'Mere@Example.co.nz');
    const exported = JSON.parse(json) as Array<Record<string, unknown>>;
    expect(exported[0]?.review_requests).toEqual([
      {
        id: asked!.id,
        email: 'mere@example.co.nz',
        created_at: '2026-11-01T00:00:00.000Z',
        expires_at: '2099-12-01T00:00:00.000Z',
        sent_by: 'ana@glass.example.nz',
        used_at: '2026-11-02T00:00:00.000Z',
        review: {
          rating: 3,
          text: 'Fixed the window, though a day later than first said.',
          display_name: 'Mere P.',
          suburb: 'Ōtūmoetai',
          consent_at: '2026-11-02T00:00:00.000Z',
          submitted_at: '2026-11-02T00:00:00.000Z',
          decision: 'waiting',
          decided_at: null,
          decided_by: null,
          decline_reason: null,
          testimonial_id: null,
        },
      },
    ]);
    expect(json).not.toContain(hash);
    expect(json).not.toContain(token);

    expect(await deletePerson(store, lead.email)).toBe(1);
    expect((await store.findReviewRequest(hash)).state).toBe('unknown');
    expect(await store.listWaitingReviews()).toEqual([]);
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeLead } from '../db/leads/leads.contract.ts';
import { openSqliteStore } from '../db/store-sqlite.server.ts';
import type { AppStore } from '../db/store.server.ts';
import type { LeadsRequestContext } from '../leads/intake/receive-lead.server.ts';
import type { ProofVerdict } from '../leads/intake/spam-rules.server.ts';
import { tempDataDir } from '../leads/testing/test-support.server.ts';
import { checkReviewForm, displayNameOf, REVIEW_MESSAGES } from './review-form.ts';
import { newReviewToken, reviewTokenHash } from './review-links.server.ts';
import { answerReviewPage, REVIEW_PAGE_MESSAGES } from './review-page.server.ts';

/**
 * What the customer's review page answers (review-page.server.ts) for each
 * state of a link and each post, on a real store. Chromium opens the page
 * itself, with and without JavaScript, in e2e/reviews-ask.spec.ts.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const GOOD = {
  rating: '5',
  review: 'The new shower screen went in on time and the bathroom was left spotless.',
  name: 'Mere T.',
  suburb: 'Ōtūmoetai',
  consent: 'yes',
};

function post(fields: Record<string, string>) {
  return new Request('http://localhost/review/x', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}
const get = () => new Request('http://localhost/review/x');

/** The lead forms' context as the guards leave it, with a proof of work giving `verdict`. */
function leads(options: { rateLimited?: boolean; verdict?: ProofVerdict } = {}) {
  const checked: unknown[] = [];
  const context = {
    service: undefined as never,
    rateLimited: options.rateLimited ?? false,
    proofOfWork: {
      challenge: () => Promise.reject(new Error('not asked for')),
      check: (payload: unknown) => {
        checked.push(payload);
        return Promise.resolve(options.verdict ?? 'valid');
      },
    },
    onError: () => undefined,
  } satisfies LeadsRequestContext;
  return { context, checked };
}

describe("a customer's review page", () => {
  const data = tempDataDir('review-page-');
  let store: AppStore;
  let token: string;
  let leadId: string;

  async function ask(expiresInMs = 30 * DAY_MS): Promise<string> {
    const made = newReviewToken();
    await store.createReviewRequest({
      lead_id: leadId,
      email: 'mere@example.co.nz',
      token_hash: reviewTokenHash(made),
      created_at: new Date().toISOString(),
      expires_at: new Date(Date.now() + expiresInMs).toISOString(),
      sent_by: 'ana@glass.example.nz',
    });
    return made;
  }

  beforeEach(async () => {
    store = await openSqliteStore({ dataDir: data.dir });
    const lead = makeLead({ name: 'Mere  Tūhoe-Smith ', email: 'mere@example.co.nz' });
    leadId = lead.id;
    await store.insertLead(lead, []);
    token = await ask();
  });
  afterEach(async () => {
    await store.close();
    data.remove();
  });

  it('shows the form with the name to show worked out from the enquiry', async () => {
    expect(await answerReviewPage(get(), token, { store }, null)).toEqual({
      kind: 'form',
      status: 200,
      values: { rating: '', review: '', name: 'Mere T.', suburb: '', consent: '' },
      errors: {},
    });
  });

  it('knows an unknown or malformed link (404) and an expired one (410)', async () => {
    expect(await answerReviewPage(get(), newReviewToken(), { store }, null)).toEqual({
      kind: 'unknown',
      status: 404,
    });
    expect(await answerReviewPage(get(), 'not-a-token', { store }, null)).toMatchObject({
      status: 404,
    });
    expect(await answerReviewPage(get(), token, null, null)).toMatchObject({ status: 404 });
    const old = await ask(-1000);
    expect(await answerReviewPage(get(), old, { store }, null)).toEqual({
      kind: 'expired',
      status: 410,
    });
    expect(await answerReviewPage(post(GOOD), old, { store }, leads().context)).toEqual({
      kind: 'expired',
      status: 410,
    });
  });

  it('takes one review with the link, with or without a proof of work, then says it was used', async () => {
    const { context, checked } = leads();
    expect(await answerReviewPage(post(GOOD), token, { store }, context)).toEqual({
      kind: 'sent',
      status: 200,
    });
    expect(checked).toEqual([]);
    expect(await store.listWaitingReviews()).toMatchObject([
      {
        lead_id: leadId,
        review: { rating: 5, text: GOOD.review, display_name: 'Mere T.', suburb: 'Ōtūmoetai' },
      },
    ]);
    expect(await answerReviewPage(post(GOOD), token, { store }, context)).toEqual({
      kind: 'used',
      status: 410,
    });
    expect(await answerReviewPage(get(), token, { store }, null)).toEqual({
      kind: 'used',
      status: 410,
    });
    const activity = await store.listActivity({ limit: 1 });
    expect(activity[0]).toMatchObject({ action: 'review.received', detail: `lead=${leadId}` });

    const second = await ask();
    expect(
      await answerReviewPage(post({ ...GOOD, altcha: 'solved' }), second, { store }, context),
    ).toMatchObject({ kind: 'sent' });
    expect(checked).toEqual(['solved']);
  });

  it('refuses a wrong or reused proof of work, keeping what was typed', async () => {
    for (const verdict of ['invalid', 'replayed'] as const) {
      expect(
        await answerReviewPage(
          post({ ...GOOD, altcha: 'x' }),
          token,
          { store },
          leads({ verdict }).context,
        ),
      ).toEqual({
        kind: 'form',
        status: 400,
        values: GOOD,
        errors: {},
        problem: REVIEW_PAGE_MESSAGES.again,
      });
    }
    expect(await store.listWaitingReviews()).toEqual([]);
  });

  it('thanks whatever fills the trap and keeps nothing; over the rate limit, says so', async () => {
    expect(
      await answerReviewPage(
        post({ ...GOOD, glaze_check: 'x' }),
        token,
        { store },
        leads().context,
      ),
    ).toEqual({ kind: 'sent', status: 200 });
    expect(
      await answerReviewPage(post(GOOD), token, { store }, leads({ rateLimited: true }).context),
    ).toEqual({
      kind: 'form',
      status: 429,
      values: GOOD,
      errors: {},
      problem: REVIEW_PAGE_MESSAGES.tooMany,
    });
    expect(await store.listWaitingReviews()).toEqual([]);
    expect((await store.findReviewRequest(reviewTokenHash(token))).state).toBe('open');
  });
});

describe('the review form', () => {
  it('counts characters as a person does, 20 to 600', () => {
    const check = (review: string) => checkReviewForm(new URLSearchParams({ ...GOOD, review }));
    expect(check('x'.repeat(19))).toMatchObject({ errors: { review: REVIEW_MESSAGES.textShort } });
    expect(check(`  ${'x'.repeat(20)}  `)).toMatchObject({ ok: true });
    expect(check('👍'.repeat(600))).toMatchObject({ ok: true });
    expect(check('x'.repeat(601))).toMatchObject({ errors: { review: REVIEW_MESSAGES.textLong } });
    expect(check(`Good work\u202eon the glass, thanks`)).toMatchObject({
      errors: { review: REVIEW_MESSAGES.characters },
    });
    expect(check('Good work.\r\nOn time and tidy, thanks.')).toMatchObject({
      ok: true,
      review: { text: 'Good work.\nOn time and tidy, thanks.' },
    });
  });

  it('says what is wrong with each field', () => {
    expect(checkReviewForm(new URLSearchParams({ rating: '6', name: 'A\nB' }))).toEqual({
      ok: false,
      values: { rating: '6', review: '', name: 'A\nB', suburb: '', consent: '' },
      errors: {
        rating: REVIEW_MESSAGES.rating,
        review: REVIEW_MESSAGES.textShort,
        name: REVIEW_MESSAGES.characters,
        suburb: REVIEW_MESSAGES.suburbMissing,
        consent: REVIEW_MESSAGES.consent,
      },
    });
  });

  it('shows a first name and initial', () => {
    expect(displayNameOf('Aroha Ngata')).toBe('Aroha N.');
    expect(displayNameOf(' mere  de la tūhoe ')).toBe('mere T.');
    expect(displayNameOf('Rangi')).toBe('Rangi');
    expect(displayNameOf('')).toBe('');
  });
});

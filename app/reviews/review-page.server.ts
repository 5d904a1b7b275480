import type { AppStore } from '../db/store.server.ts';
import { readForm, type BodyRequest } from '../http/body.server.ts';
import { PROOF_OF_WORK_FIELD } from '../leads/intake/form-submission.ts';
import { HONEYPOT_FIELD } from '../leads/intake/form-rules.ts';
import type { LeadsRequestContext } from '../leads/intake/receive-lead.server.ts';
import { API_ERROR_MESSAGES } from '../leads/intake/receive-lead.server.ts';
import { REVIEW_ACTIVITY } from '../owner/review-requests.server.ts';
import { SERVER_ACTOR } from '../owner/site-activity.server.ts';
import { isReviewToken, reviewTokenHash } from './review-links.server.ts';
import {
  checkReviewForm,
  displayNameOf,
  type ReviewField,
  type ReviewFormValues,
} from './review-form.ts';

/**
 * What the customer's review page (app/pages/on-demand/review/[token].astro)
 * answers for a link (docs/operations.md, "Reviews"): the form (GET), the
 * form again with a message beside each refused field, or the thanks
 * (POST), or a kind page for a link that is unknown (404), used or expired
 * (410). A post passes the lead forms' guards first (the origin check and
 * the per-client rate limit, server/lead-api.server.ts); here, the trap
 * field and the proof of work as the lead forms have them
 * (docs/forms.md#proof-of-work): a post without a proof (no JavaScript) is
 * taken, a filled trap is thanked and kept nowhere.
 */

/** What the review page is given by the server's table (server/on-demand-routes.server.ts). */
export interface ReviewPageLocals {
  store: AppStore;
}

/** The most a review form's post may weigh: 600 characters of up to 4 bytes, each as %XX, and the rest. */
export const REVIEW_BODY_LIMIT_BYTES = 16 * 1024;

export const REVIEW_PAGE_MESSAGES = {
  fix: 'Please check the fields marked below.',
  again: 'Something went wrong sending your review. Please send it again.',
  tooMany: API_ERROR_MESSAGES.tooManyRequests,
} as const;

export type ReviewPageAnswer =
  | { kind: 'unknown'; status: 404 }
  | { kind: 'expired' | 'used'; status: 410 }
  | { kind: 'sent'; status: 200 }
  | {
      kind: 'form';
      status: 200 | 400 | 413 | 429;
      values: ReviewFormValues;
      errors: Partial<Record<ReviewField, string>>;
      /** The message above the fields, when the post was refused. */
      problem?: string;
    };

const EMPTY: ReviewFormValues = { rating: '', review: '', name: '', suburb: '', consent: '' };

export async function answerReviewPage(
  request: BodyRequest & { method: string },
  token: string,
  reviews: ReviewPageLocals | null | undefined,
  leads: LeadsRequestContext | null | undefined,
  now = new Date(),
): Promise<ReviewPageAnswer> {
  if (!reviews || !isReviewToken(token)) return { kind: 'unknown', status: 404 };
  const { store } = reviews;
  const hash = reviewTokenHash(token);
  const found = await store.findReviewRequest(hash, now.toISOString());
  if (found.state === 'unknown') return { kind: 'unknown', status: 404 };
  if (found.state !== 'open') return { kind: found.state, status: 410 };

  if (request.method !== 'POST' || !leads) {
    const lead = await store.getLead(found.request.lead_id);
    return {
      kind: 'form',
      status: 200,
      values: { ...EMPTY, name: lead ? displayNameOf(lead.name) : '' },
      errors: {},
    };
  }

  const read = await readForm(request, REVIEW_BODY_LIMIT_BYTES);
  if (!read.ok) {
    return {
      kind: 'form',
      status: read.status === 413 ? 413 : 400,
      values: EMPTY,
      errors: {},
      problem: REVIEW_PAGE_MESSAGES.again,
    };
  }
  const form = read.value;
  const checked = checkReviewForm(form);
  if (leads.rateLimited) {
    return {
      kind: 'form',
      status: 429,
      values: checked.values,
      errors: {},
      problem: REVIEW_PAGE_MESSAGES.tooMany,
    };
  }
  // A person never sees the trap: whatever filled it is thanked and kept nowhere.
  if ((form.get(HONEYPOT_FIELD) ?? '') !== '') return { kind: 'sent', status: 200 };
  const payload = form.get(PROOF_OF_WORK_FIELD);
  if (payload !== null && payload !== '' && leads.proofOfWork) {
    const verdict = await leads.proofOfWork.check(payload);
    if (verdict === 'invalid' || verdict === 'replayed') {
      return {
        kind: 'form',
        status: 400,
        values: checked.values,
        errors: {},
        problem: REVIEW_PAGE_MESSAGES.again,
      };
    }
  }
  if (!checked.ok) {
    return {
      kind: 'form',
      status: 400,
      values: checked.values,
      errors: checked.errors,
      problem: REVIEW_PAGE_MESSAGES.fix,
    };
  }
  const at = now.toISOString();
  const sent = await store.submitReview(hash, { ...checked.review, consent_at: at }, at);
  if (!sent) {
    const after = await store.findReviewRequest(hash, at);
    return after.state === 'expired'
      ? { kind: 'expired', status: 410 }
      : after.state === 'unknown'
        ? { kind: 'unknown', status: 404 }
        : { kind: 'used', status: 410 };
  }
  await store
    .recordActivity({
      at,
      actor: SERVER_ACTOR,
      action: REVIEW_ACTIVITY.received,
      detail: `lead=${sent.lead_id}`,
    })
    .catch(() => undefined);
  return { kind: 'sent', status: 200 };
}

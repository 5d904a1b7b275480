import {
  normaliseEmail,
  REVIEW_LINK_VALIDITY_MS,
  type LeadRecord,
  type ReviewRequestRecord,
} from '../db/store.server.ts';
import { newReviewToken, reviewTokenHash, reviewUrl } from '../reviews/review-links.server.ts';
import { askedOn } from '../reviews/review-dates.ts';
import type { OwnerPagesContext, SignedInOwner } from './context.server.ts';

/**
 * "Ask for a review" on a won enquiry's page (docs/operations.md,
 * "Reviews"): one e-mail to the customer with their personal link, valid
 * 30 days. Every enquiry marked won offers it the same way, whatever the
 * job was like: nothing here reads a rating, a note or a mood. An address
 * is asked once; only the owner's "Ask again" sends another.
 */

/** The activity list's actions for reviews; their words are in activity-words.server.ts. */
export const REVIEW_ACTIVITY = {
  /** An owner e-mailed a customer their review link. */
  asked: 'review.asked',
  /** A customer sent a review with their link (the website, as SERVER_ACTOR). */
  received: 'review.received',
} as const;

export type ReviewAskResult =
  | { kind: 'asked' }
  /** The address was asked before and the owner did not say "Ask again". */
  | { kind: 'already-asked' }
  | { kind: 'not-won' }
  | { kind: 'no-email' }
  | { kind: 'not-sent' }
  | { kind: 'gone' };

/** What the enquiry's page says after each, by the `done` of its address. */
export const REVIEW_ASK_WORDS: Record<Exclude<ReviewAskResult['kind'], 'gone'>, string> = {
  asked: 'Review request sent. Their link works for 30 days.',
  'already-asked':
    'Not sent: this customer has been asked already. Tap “Ask again” to send another.',
  'not-won': 'Not sent: ask for a review once the job is marked won.',
  'no-email': 'Not sent: e-mail is not set up for the website yet.',
  'not-sent':
    'Not sent: the mail server did not take it. Try again in a few minutes, or ask them in person.',
};

export function isReviewAskDone(key: string): key is keyof typeof REVIEW_ASK_WORDS {
  return Object.hasOwn(REVIEW_ASK_WORDS, key);
}

export async function askForReview(
  context: Pick<OwnerPagesContext, 'store' | 'siteOrigin' | 'sendReviewRequest'>,
  owner: SignedInOwner,
  leadId: string,
  options: { again: boolean },
  now = new Date(),
): Promise<ReviewAskResult> {
  const { store } = context;
  const lead = await store.getLead(leadId);
  if (!lead) return { kind: 'gone' };
  if (lead.stage !== 'won') return { kind: 'not-won' };
  if (!context.sendReviewRequest) return { kind: 'no-email' };
  const email = normaliseEmail(lead.email);
  const earlier = await store.latestReviewRequestForEmail(email);
  if (earlier && !options.again) return { kind: 'already-asked' };

  const token = newReviewToken();
  // A first request is stored only if none was meanwhile (two phones, one tap each).
  const request = await store.createReviewRequest(
    {
      lead_id: lead.id,
      email,
      token_hash: reviewTokenHash(token),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + REVIEW_LINK_VALIDITY_MS).toISOString(),
      sent_by: owner.email,
    },
    { onlyIfFirst: !options.again },
  );
  if (!request) {
    return (await store.getLead(lead.id)) && !options.again
      ? { kind: 'already-asked' }
      : { kind: 'gone' };
  }
  await store.recordActivity({
    at: now.toISOString(),
    actor: owner.email,
    action: REVIEW_ACTIVITY.asked,
    detail: `lead=${lead.id}${earlier ? ',again=1' : ''}`,
  });
  const sent = await context.sendReviewRequest({
    to: lead.email,
    customerName: lead.name,
    url: reviewUrl(context.siteOrigin, token),
    expiresAt: request.expires_at,
  });
  return { kind: sent ? 'asked' : 'not-sent' };
}

/** What the enquiry's page shows about reviews: null but for a won enquiry. */
export interface ReviewAskState {
  /** The newest request to the customer's address, for any of their enquiries. */
  latest: ReviewRequestRecord | null;
  /** "Asked on 3 December", "Asked on 3 December; they sent a review on 5 December". */
  sentence: string | null;
  /** Whether lead e-mail is set up, so the button can send. */
  canSend: boolean;
}

export async function reviewAskState(
  context: Pick<OwnerPagesContext, 'store' | 'sendReviewRequest'>,
  lead: Pick<LeadRecord, 'email'> & { stage: string },
  now = new Date(),
): Promise<ReviewAskState | null> {
  if (lead.stage !== 'won') return null;
  const latest = await context.store.latestReviewRequestForEmail(normaliseEmail(lead.email));
  let sentence: string | null = null;
  if (latest) {
    sentence = `Asked on ${askedOn(latest.created_at, now)}`;
    if (latest.used_at) sentence += `; they sent a review on ${askedOn(latest.used_at, now)}`;
    else if (Date.parse(latest.expires_at) <= now.getTime()) sentence += '; the link has expired';
    sentence += '.';
  }
  return { latest, sentence, canSend: context.sendReviewRequest !== undefined };
}

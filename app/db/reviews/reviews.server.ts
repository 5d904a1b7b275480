/*
 * Reviews from won customers (docs/operations.md, "Reviews"): the owner asks
 * a customer for a review by e-mail with a personal link; the customer sends
 * one review with it; the owner publishes it (a testimonial of the site's
 * content) or declines it. The request and the review it brought are one row
 * on their lead, deleted with it (the retention purge, a Privacy Act
 * deletion). Its SQLite and PostgreSQL halves are beside it.
 */

/** How long a review link opens the review page. */
export const REVIEW_LINK_VALIDITY_MS = 30 * 24 * 60 * 60 * 1000;

/** What the owner decided about a sent review; `waiting` until they do. */
export const REVIEW_DECISIONS = ['waiting', 'published', 'declined'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];

/**
 * The only reasons a review may be declined. A low rating is not one: New
 * Zealand's Fair Trading Act forbids giving a misleading picture of what
 * customers think, and the Commerce Commission's guidance on online reviews
 * names hiding the unfavourable ones among the ways of doing so.
 */
export const REVIEW_DECLINE_REASONS = [
  'offensive',
  'personal_details',
  'not_about_our_work',
  'not_a_customer',
] as const;
export type ReviewDeclineReason = (typeof REVIEW_DECLINE_REASONS)[number];

/** Limits the store holds a review to (the review page refuses more first). */
export const REVIEW_LIMITS = {
  textMin: 20,
  textMax: 600,
  nameMax: 60,
  suburbMax: 60,
} as const;

export interface NewReviewRequest {
  lead_id: string;
  /** The customer's address the link was sent to (normalised, as leads' are). */
  email: string;
  /** SHA-256 (hex) of the link's token; the token itself is never stored. */
  token_hash: string;
  created_at: string;
  expires_at: string;
  /** The owner's e-mail address who asked. */
  sent_by: string;
}

/** What the customer sends with the link. */
export interface NewReview {
  rating: 1 | 2 | 3 | 4 | 5;
  text: string;
  /** The name to show: a first name and an initial. */
  display_name: string;
  suburb: string;
  /** When the customer ticked their consent to publish it. */
  consent_at: string;
}

export interface ReviewRecord extends NewReview {
  submitted_at: string;
  decision: ReviewDecision;
  decided_at: string | null;
  /** The owner's e-mail address who decided. */
  decided_by: string | null;
  decline_reason: ReviewDeclineReason | null;
  /** The testimonial the review became, once published. */
  testimonial_id: number | null;
}

export interface ReviewRequestRecord {
  id: string;
  lead_id: string;
  email: string;
  created_at: string;
  expires_at: string;
  sent_by: string;
  /** When a review was sent with the link; it opens nothing after that. */
  used_at: string | null;
  review: ReviewRecord | null;
}

export type SentReviewRecord = ReviewRequestRecord & { used_at: string; review: ReviewRecord };

/** What a link is now: `unknown` (never made, or deleted with its lead), `expired`, `used` or `open`. */
export type ReviewRequestLookup =
  { state: 'unknown' } | { state: 'expired' | 'used' | 'open'; request: ReviewRequestRecord };

export type ReviewDecisionInput =
  | { decision: 'published'; testimonial_id: number }
  | { decision: 'declined'; reason: ReviewDeclineReason };

export interface ReviewStore {
  /**
   * Stores a request; null when its lead is gone (deleted meanwhile), or,
   * with `onlyIfFirst`, when its address was asked before (an owner's "Ask
   * again" leaves it out). Atomic: of two first requests to one address at
   * once, exactly one is stored.
   */
  createReviewRequest(
    request: NewReviewRequest,
    options?: { onlyIfFirst?: boolean },
  ): Promise<ReviewRequestRecord | null>;

  /** The newest request sent to this address (normalised), whatever lead it was for. */
  latestReviewRequestForEmail(email: string): Promise<ReviewRequestRecord | null>;

  /** The newest request sent for this lead. */
  latestReviewRequestForLead(leadId: string): Promise<ReviewRequestRecord | null>;

  /** Every request of one lead, oldest first (the privacy export). */
  listReviewRequestsForLead(leadId: string): Promise<ReviewRequestRecord[]>;

  getReviewRequest(id: string): Promise<ReviewRequestRecord | null>;

  /** The request whose token hashes to this, and its state at `at` (default now). */
  findReviewRequest(tokenHash: string, at?: string): Promise<ReviewRequestLookup>;

  /**
   * Keeps the review sent with an open link, which it uses up: the request
   * after it, or null when the link is unknown, expired or already used.
   * Atomic: of two sends with one link at once, exactly one is kept.
   */
  submitReview(tokenHash: string, review: NewReview, at: string): Promise<SentReviewRecord | null>;

  /** The sent reviews the owner has not decided on, oldest first. */
  listWaitingReviews(): Promise<SentReviewRecord[]>;

  /**
   * Publishes or declines a waiting review; false (and no change) when there
   * is no such review or it was already decided.
   */
  decideReview(id: string, decision: ReviewDecisionInput, by: string, at: string): Promise<boolean>;
}

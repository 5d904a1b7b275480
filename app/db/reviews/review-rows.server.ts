import { iso } from '../postgres-values.server.ts';
import type {
  NewReview,
  ReviewDecision,
  ReviewDeclineReason,
  ReviewRequestLookup,
  ReviewRequestRecord,
} from './reviews.server.ts';

/** The columns both stores read a request with (never its token's hash). */
export const REVIEW_COLUMNS = `id, lead_id, email, created_at, expires_at, sent_by, used_at,
  rating, review_text, display_name, suburb, consent_at, decision, decided_at, decided_by,
  decline_reason, testimonial_id`;

const text = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);

/** A row of either store as a request: timestamps as ISO 8601 text in UTC. */
export function toReviewRequest(row: Record<string, unknown>): ReviewRequestRecord {
  const usedAt = iso(row.used_at);
  return {
    id: String(row.id),
    lead_id: String(row.lead_id),
    email: String(row.email),
    created_at: iso(row.created_at) ?? '',
    expires_at: iso(row.expires_at) ?? '',
    sent_by: String(row.sent_by),
    used_at: usedAt,
    review:
      usedAt === null
        ? null
        : {
            rating: Number(row.rating) as NewReview['rating'],
            text: String(row.review_text),
            display_name: String(row.display_name),
            suburb: String(row.suburb),
            consent_at: iso(row.consent_at) ?? '',
            submitted_at: usedAt,
            decision: String(row.decision) as ReviewDecision,
            decided_at: iso(row.decided_at),
            decided_by: text(row.decided_by),
            decline_reason: text(row.decline_reason) as ReviewDeclineReason | null,
            testimonial_id: row.testimonial_id === null ? null : Number(row.testimonial_id),
          },
  };
}

/** A request's state at `at`: used outranks expired, so a sent review's link says so. */
export function reviewLookup(request: ReviewRequestRecord | null, at: string): ReviewRequestLookup {
  if (!request) return { state: 'unknown' };
  if (request.used_at !== null) return { state: 'used', request };
  if (Date.parse(request.expires_at) <= Date.parse(at)) return { state: 'expired', request };
  return { state: 'open', request };
}

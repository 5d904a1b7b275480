import type { LeadsStore } from './leads/leads.server.ts';
import type { SiteContentStore } from './site-content/site-content.server.ts';
import type { OwnerStore } from './owners/owners.server.ts';
export { STORE_SECRET_BYTES } from './secrets/secrets.server.ts';
export type { StoreSecretName } from './secrets/secrets.server.ts';
export { ACTIVITY_ACTION, ACTIVITY_DETAIL, checkActivity } from './activity/activity.server.ts';
export type { NewActivity, ActivityRecord } from './activity/activity.server.ts';
export type { RateLimitCount } from './rate-limits/rate-limits.server.ts';

export type {
  OwnerRecord,
  NewPasskey,
  PasskeyRecord,
  OwnerWithPasskeys,
  SessionRecord,
  OwnerLinkKind,
  OwnerLinkRecord,
  OwnerChallengeKind,
  OwnerChallengeRecord,
} from './owners/owners.server.ts';
import type { RateLimitStore } from './rate-limits/rate-limits.server.ts';
import type { ActivityStore } from './activity/activity.server.ts';
import type { SecretStore } from './secrets/secrets.server.ts';
import type { PushStore } from './push/push.server.ts';
export { PUSH_NOTIFY, pushDeviceLabel } from './push/push.server.ts';
export type {
  PushNotify,
  NewPushSubscription,
  PushSubscriptionRecord,
  VapidKeys,
} from './push/push.server.ts';
import type { ProofOfWorkStore } from './proofs-of-work/proofs-of-work.server.ts';
import type { ReviewStore } from './reviews/reviews.server.ts';
import type { LeadFollowUpStore } from './leads/lead-follow-ups.server.ts';
export type {
  FollowUpLead,
  FollowUpList,
  FollowUps,
  MorningEmailClaim,
} from './leads/lead-follow-ups.server.ts';
export {
  REVIEW_DECISIONS,
  REVIEW_DECLINE_REASONS,
  REVIEW_LIMITS,
  REVIEW_LINK_VALIDITY_MS,
} from './reviews/reviews.server.ts';
export type {
  NewReview,
  NewReviewRequest,
  ReviewDecision,
  ReviewDecisionInput,
  ReviewDeclineReason,
  ReviewRecord,
  ReviewRequestLookup,
  ReviewRequestRecord,
  SentReviewRecord,
} from './reviews/reviews.server.ts';
// The leads' types and helpers, for the many modules that import them from here.
export * from './leads/leads.server.ts';

/**
 * The store (docs/operations.md#lead-record, #delivery): the embedded SQLite
 * file by default, PostgreSQL when DATABASE_URL is set. Both implementations
 * pass the same contract suites (`<domain>/<domain>.contract.ts`).
 *
 * Timestamps cross this interface as ISO 8601 strings in UTC with
 * milliseconds (`Date#toISOString()`), so SQLite can compare them as text.
 */

/** Trimmed and lower-cased, as owners' and leads' addresses are stored. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The application's store: every domain's part (leads/leads.server.ts,
 * owners/owners.server.ts, site-content/site-content.server.ts…) on one
 * database, with what belongs to the database as a whole. Named for the
 * whole application because it holds far more than leads: the owners and
 * their sign-ins and push subscriptions, the site's content and photos,
 * the rate limits, the activity list, the store's own secrets and the
 * spent proofs of work.
 */
export interface AppStore
  extends
    LeadsStore,
    SiteContentStore,
    OwnerStore,
    SecretStore,
    ActivityStore,
    RateLimitStore,
    PushStore,
    ProofOfWorkStore,
    ReviewStore,
    LeadFollowUpStore {
  readonly kind: 'sqlite' | 'postgres';

  /** Resolves while the store answers (GET /healthz); rejects otherwise. */
  ping(): Promise<void>;

  /**
   * Commits one small write (a one-row heartbeat table), so GET /healthz
   * knows whether a lead could be committed now; rejects when it cannot (a
   * full disk, a read-only file system or database, a write lock held by
   * another process for longer than a lead would wait).
   */
  checkWritable(): Promise<void>;

  close(): Promise<void>;
}

/** Cap on the stored last_error text, so one noisy receiver cannot bloat the store. */
export const LAST_ERROR_MAX = 1000;

export function clipError(text: string | null): string | null {
  if (text === null) return null;
  return text.length > LAST_ERROR_MAX ? `${text.slice(0, LAST_ERROR_MAX - 1)}…` : text;
}

/**
 * A store error fit for the logs: PostgreSQL puts the failing row (name,
 * email, phone…) in `detail` for some constraint violations, so only the
 * message, code and stack are kept.
 */
export function storeErrorForLog(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const safe = new Error(error.message);
  safe.name = error.name;
  if (error.stack) safe.stack = error.stack;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(safe, { code });
  return safe;
}

import type { LeadSource } from '../../leads/intake/schema.ts';
import type { LeadAttribution } from '../../leads/intake/attribution.ts';

/*
 * The leads and their outbox (docs/operations.md#lead-record, #delivery):
 * what the visitors sent, their photos, the delivery to each target, and
 * the owner's stage and note. Its SQLite and PostgreSQL halves are beside
 * it; the store (store.server.ts) is made of this and the other domains.
 */

export type { LeadSource, LeadAttribution };

/**
 * - `received`: committed in `delivered` mode while the first delivery attempt
 *   runs; not yet accepted or refused. The outbox leaves it alone, and a lead
 *   stuck here (the process died mid-request) is later marked not_accepted.
 * - `accepted`: the visitor was told it worked; failed deliveries are retried.
 * - `not_accepted`: the visitor was told to try again or call; never retried.
 * - `spam`: caught by the spam rules (app/leads/intake/spam-rules.server.ts)
 *   or moved there by an owner; never delivered, deleted after
 *   SPAM_RETENTION_DAYS (docs/operations.md#spam).
 */
export type LeadStatus = 'received' | 'accepted' | 'not_accepted' | 'spam';

/**
 * - `pending`: still to be delivered (by the outbox once the lead is accepted).
 * - `delivered`: the target took the lead (a 2xx answer, the mail server's acceptance).
 * - `failed`: given up for good: the target refused it permanently (a 401, a
 *   550…), or retries ran out after the 24-hour window (docs/operations.md#delivery, step 3).
 * - `not_sent`: the lead was not accepted or is spam; it will never be sent.
 * - `cancelled`: the target was removed from the configuration before the
 *   lead reached it (docs/operations.md#changing-the-targets: the outbox
 * delivers to the targets configured now). Never silently: the outbox logs it
 * at error level and e-mails the
 *   owner the leads concerned; the leads stay in the store.
 */
export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'not_sent' | 'cancelled';

export const LEAD_STATUSES: readonly LeadStatus[] = [
  'received',
  'accepted',
  'not_accepted',
  'spam',
];
export const DELIVERY_STATES: readonly DeliveryState[] = [
  'pending',
  'delivered',
  'failed',
  'not_sent',
  'cancelled',
];

/**
 * Which rule caught a spam lead (docs/operations.md#spam): the trap field
 * filled, a proof-of-work invalid or used before, a link, words of
 * advertising, the same message as an earlier lead, or an owner's "Spam".
 */
export type SpamReason = 'trap' | 'proof' | 'link' | 'words' | 'repeated' | 'owner';

export const SPAM_REASONS: readonly SpamReason[] = [
  'trap',
  'proof',
  'link',
  'words',
  'repeated',
  'owner',
];

export interface LeadRecord {
  id: string;
  name: string;
  email: string;
  phone: string;
  service: string;
  message: string;
  created_at: string;
  source: LeadSource;
  status: LeadStatus;
  idempotency_key: string | null;
  /**
   * The visitor ticked "Glass broken now" (docs/operations.md#urgent-enquiries):
   * the e-mail's subject and the webhook say so, and the inbox lists it first
   * while it is at the first stage.
   */
  urgent: boolean;
  /**
   * Where the visitor came from (docs/operations.md#where-enquiries-come-from):
   * the first page of their visit, the site that sent them, the campaign tags
   * and the Google click id; every field null when not known (a lead stored
   * before it was kept, a program that sent none).
   */
  attribution: LeadAttribution;
  /**
   * Written with a new lead, not read back here (LeadSpam is): the rule that
   * caught it when its status is `spam`.
   */
  spam_reason?: SpamReason | null;
  /**
   * Written with a new lead, never read back: a digest of its message as the
   * repeated-message rule compares it (messageKey in spam-rules.server.ts),
   * null for a message too short to compare.
   */
  message_key?: string | null;
}

export interface DeliveryRecord {
  lead_id: string;
  /** The target's key (targets.server.ts): stable, and never a secret such as a webhook's address. */
  target: string;
  /** How people see the target: 'webhook 1', 'email' (never a webhook's address or host). */
  label: string;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  delivered_at: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
}

/**
 * What the owner keeps with a lead (docs/operations.md#lead-record): its stage and
 * a private note, and the revision that counts their saves, so a save made
 * on an older revision is refused instead of overwriting another owner's.
 */
export type LeadStage = 'new' | 'contacted' | 'quoted' | 'won' | 'lost' | 'spam';

export const LEAD_STAGES: readonly LeadStage[] = [
  'new',
  'contacted',
  'quoted',
  'won',
  'lost',
  'spam',
];

export interface LeadTracking {
  stage: LeadStage;
  note: string;
  /** 0 for a new lead; one more at every save of its stage or note. */
  revision: number;
}

/**
 * What a won job was worth (docs/operations.md#reports), in whole cents of
 * New Zealand dollars, as the owner typed it when marking the lead won.
 * Kept only while the stage is `won`: a save to any other stage clears it.
 * Null when none was typed.
 */
export interface LeadJobValue {
  job_value_cents: number | null;
}

/** The largest job value kept: NZ$10 million, in cents. */
export const JOB_VALUE_MAX_CENTS = 1_000_000_000;

/**
 * When an owner first saw a lead (docs/operations.md#owners-pages): opened its
 * page, or pressed "Mark all as seen" on an inbox that listed it. One time
 * per lead, whichever owner it was: a business with one or two owners sorts
 * one inbox, so a lead one of them has read is no longer new to the other.
 * Null while no owner has; the inbox counts and marks those as new.
 */
export interface LeadSeen {
  seen_at: string | null;
}

/**
 * When the lead's stage last changed (docs/operations.md#follow-ups): the
 * time it came in until a save, "Spam" or "Not spam" moves it to another
 * stage. A quote to chase is one at `quoted` for some days; a won job was
 * won at this time.
 */
export interface LeadStageChanged {
  stage_changed_at: string;
}

/** Why a stored lead is spam (SpamReason), null for any other lead. */
export interface LeadSpam {
  spam_reason: SpamReason | null;
}

/**
 * "I'm on it" (docs/operations.md, "I'm on it" and escalation): when an
 * owner first said they were dealing with the lead, and who (their e-mail
 * address as the owners' list keeps it). The first one stays; null until
 * then.
 */
export interface LeadAcknowledged {
  acknowledged_at: string | null;
  acknowledged_by: string | null;
}

/** What an acknowledgement left: the lead's first one, and whether this call made it. */
export interface AcknowledgeResult {
  first: boolean;
  acknowledged_at: string;
  acknowledged_by: string;
}

/**
 * A photo sent with an enquiry (docs/operations.md#photos-with-an-enquiry),
 * as the lead record lists it: already made safe (app/images/safe-photo.server.ts),
 * so always a JPEG. `position` is its place among the lead's photos, from 0.
 */
export interface LeadPhotoInfo {
  position: number;
  type: 'image/jpeg';
  width: number;
  height: number;
  /** The JPEG's size in bytes. */
  byte_size: number;
}

/** A lead's photo with its bytes (getLeadPhoto). */
export interface LeadPhoto extends LeadPhotoInfo {
  lead_id: string;
  data: Uint8Array;
}

/** A photo as stored with a new lead, in the lead's own transaction; its position is its index. */
export interface NewLeadPhoto {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * A stored lead as read back: what the visitor sent, the owner's tracking,
 * when an owner first saw it, the deliveries, the photos.
 */
export interface LeadWithDeliveries
  extends LeadRecord, LeadTracking, LeadStageChanged, LeadSeen, LeadAcknowledged, LeadJobValue {
  spam_reason: SpamReason | null;
  deliveries: DeliveryRecord[];
  /** Its photos' metadata, by position; their bytes come from getLeadPhoto. */
  photos: LeadPhotoInfo[];
}

/** A delivery row as created together with its lead. */
export interface NewDelivery {
  target: string;
  label: string;
  state: DeliveryState;
  /** When the outbox may first try it (pending rows); null otherwise. */
  next_attempt_at: string | null;
}

/** The outcome of one delivery attempt, written back to the row. */
export interface DeliveryUpdate {
  target: string;
  state: DeliveryState;
  /** Total attempts so far (absolute, not an increment). */
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  delivered_at: string | null;
  /**
   * When this attempt ended. A failed attempt's time is kept as the
   * delivery's first failure until it is delivered (the e-mail outage alert,
   * docs/operations.md); unset, nothing is kept.
   */
  attempted_at?: string | undefined;
}

/** A pending delivery cancelled because its target is no longer configured. */
export interface CancelledDelivery {
  lead_id: string;
  target: string;
  label: string;
}

/** A due delivery claimed by one outbox worker, with the lead it carries. */
export interface ClaimedDelivery extends DeliveryRecord {
  lease_owner: string;
  lease_expires_at: string;
  lead: LeadRecord;
}

/** The outcome of a save of a lead's stage or note. */
export type TrackingSaveResult =
  | { saved: true; tracking: LeadTracking }
  | { saved: false; reason: 'not_found' }
  /** Someone saved since `expectedRevision`: nothing was written; what they saved is returned. */
  | { saved: false; reason: 'conflict'; current: LeadTracking };

/**
 * The inbox's query (docs/operations.md#owners-pages): urgent leads still at
 * the first stage on top, then newest first, a page at a time.
 */
export interface LeadSearch {
  /** Undefined: every stage but `spam` (docs/operations.md#spam: spam is listed on its own). */
  stage?: LeadStage | undefined;
  /** A substring of the name, e-mail or phone, whatever its case (digits alone also match the phone's digits). */
  query?: string | undefined;
  /** Leads to skip (a page's start). */
  offset?: number | undefined;
  /** Leads per page, default LEAD_PAGE_SIZE, at most 200. */
  limit?: number | undefined;
}

export const LEAD_PAGE_SIZE = 50;

export interface LeadSearchResult {
  leads: LeadWithDeliveries[];
  /** How many leads match, across every page. */
  total: number;
}

/** The longest note an owner may keep with a lead. */
export const NOTE_MAX = 10_000;

/**
 * A save of a lead's stage, note and job value: each left out is kept. A job
 * value of null clears it; any value is cleared when the stage saved is not
 * `won` (LeadJobValue).
 */
export interface TrackingChanges {
  stage?: LeadStage | undefined;
  note?: string | undefined;
  job_value_cents?: number | null | undefined;
}

export function checkTracking(changes: TrackingChanges): void {
  const cents = changes.job_value_cents;
  if (
    cents !== undefined &&
    cents !== null &&
    !(Number.isSafeInteger(cents) && cents >= 0 && cents <= JOB_VALUE_MAX_CENTS)
  ) {
    throw new Error('Invalid job value: whole cents from 0 to JOB_VALUE_MAX_CENTS');
  }
  if (changes.stage !== undefined && !LEAD_STAGES.includes(changes.stage)) {
    throw new Error('Invalid lead stage');
  }
  if (changes.note !== undefined && changes.note.length > NOTE_MAX) {
    throw new Error(`A note holds at most ${NOTE_MAX} characters`);
  }
}

/**
 * A save's stage, note, whether it sets the job value (1 or 0) and the
 * value, as both stores' update binds them (unset: null, kept).
 */
export function trackingValues(changes: TrackingChanges) {
  const { stage, note, job_value_cents: cents } = changes;
  return [stage ?? null, note ?? null, cents === undefined ? 0 : 1, cents ?? null] as const;
}

/**
 * The inbox's search as the stores use it: the text lower-cased, and the
 * digits alone when it looks like a phone number ('021 555', '+64 21…'), so
 * '0215550101' finds '021 555 0101'. Empty parts are null.
 */
export function searchTerms(query: string | undefined): {
  text: string | null;
  digits: string | null;
} {
  const text = (query ?? '').trim().slice(0, 200).toLowerCase();
  if (!text) return { text: null, digits: null };
  const digits = /^[\d\s+().-]+$/.test(text) ? text.replace(/\D/g, '') : '';
  return { text, digits: digits.length >= 3 ? digits : null };
}

export type InsertResult =
  | { inserted: true }
  /** Another lead already holds the idempotency key; nothing was written. */
  | { inserted: false; existing: LeadRecord };

export interface LeadsStore {
  /**
   * Inserts the lead, its delivery rows and its photos (each at its index's
   * position) in ONE transaction: all of them or nothing. When the
   * idempotency key is already taken nothing is written and the holder is
   * returned; the unique constraint decides races between concurrent requests.
   */
  insertLead(
    lead: LeadRecord,
    deliveries: readonly NewDelivery[],
    photos?: readonly NewLeadPhoto[],
  ): Promise<InsertResult>;

  /** One photo of a lead with its bytes; null when the lead has none at that position. */
  getLeadPhoto(leadId: string, position: number): Promise<LeadPhoto | null>;

  findByIdempotencyKey(key: string): Promise<LeadRecord | null>;

  getLead(id: string): Promise<LeadWithDeliveries | null>;

  /** Sets the lead status and writes the given delivery results in one transaction. */
  settleLead(id: string, status: LeadStatus, updates: readonly DeliveryUpdate[]): Promise<void>;

  /**
   * Frees the idempotency key of a lead that was not accepted, so the
   * visitor's retry with the same key is a new submission
   * (docs/operations.md#delivery, step 4: they were told to try again). Returns false when the lead
   * is in any other status.
   */
  releaseIdempotencyKey(id: string): Promise<boolean>;

  /**
   * Claims up to `limit` pending deliveries of accepted leads that are due at
   * `now` and not leased by a live worker, leasing them to `owner` until
   * `leaseUntil`. Atomic: two workers never claim the same row at once.
   */
  claimDueDeliveries(options: {
    owner: string;
    now: string;
    leaseUntil: string;
    limit: number;
    /** Only deliveries to these targets (the ones configured now). */
    targets: readonly string[];
  }): Promise<ClaimedDelivery[]>;

  /**
   * Pending deliveries of accepted leads to any target not in `targets`
   * become `cancelled` (the target was removed from the configuration).
   * Returns the rows this call changed (a row once, whoever asks), so the
   * owner can be told which leads a target will never get.
   */
  cancelDeliveriesExcept(targets: readonly string[]): Promise<CancelledDelivery[]>;

  /**
   * Writes the result of a claimed delivery and drops the lease. Only
   * applies while `owner` still holds the lease; returns whether it did.
   */
  recordDelivery(leadId: string, owner: string, update: DeliveryUpdate): Promise<boolean>;

  /**
   * "Deliver again" (docs/operations.md#owners-pages): a delivery given up for good
   * (`failed`) of an accepted lead is `pending` again, due at `at`, so the
   * outbox's next round tries it once more the normal way (its attempts
   * count on; past the lead's 24-hour window one more failure marks it
   * failed again). False, and nothing changed, for any other delivery.
   */
  retryDelivery(leadId: string, target: string, at: string): Promise<boolean>;

  /**
   * Leads left `received` since before `olderThan` (the process died during
   * the first attempt) become not_accepted, their pending deliveries not_sent.
   * Returns how many leads changed.
   */
  expireReceived(olderThan: string): Promise<number>;

  /** The latest leads, newest first, with their deliveries. */
  listLeads(options?: { limit?: number }): Promise<LeadWithDeliveries[]>;

  /** Every lead, oldest first, with its deliveries. */
  exportLeads(): Promise<LeadWithDeliveries[]>;

  /**
   * Every lead with this e-mail address (stored trimmed and lower-cased,
   * docs/forms.md#the-lead-a-form-sends), oldest first, with its deliveries: a Privacy Act request.
   */
  findLeadsByEmail(email: string): Promise<LeadWithDeliveries[]>;

  /** Deletes these leads with all their deliveries and photos in one transaction; returns how many leads. */
  deleteLeads(ids: readonly string[]): Promise<number>;

  /**
   * Deletes every lead created before `cutoff`, with its deliveries and photos
   * (LEAD_RETENTION_DAYS, docs/operations.md#environment); returns how many. Safe to run in several
   * processes at once.
   */
  purgeCreatedBefore(cutoff: string): Promise<number>;

  /**
   * Deletes every spam lead that became spam before `cutoff` (caught on
   * arrival, or moved to spam by an owner), with its deliveries and photos
   * (SPAM_RETENTION_DAYS, docs/operations.md#spam); returns how many.
   */
  purgeSpamBefore(cutoff: string): Promise<number>;

  // -------------------------------------------------------------------------
  // Spam (docs/operations.md#spam)

  /**
   * Whether a lead created at or after `since` has this message key (the
   * repeated-message rule: messageKey in app/leads/intake/spam-rules.server.ts).
   * A lead not accepted does not count: its sender was told to try again.
   */
  hasMessageSince(messageKey: string, since: string): Promise<boolean>;

  /** How many leads are in spam. */
  countSpamLeads(): Promise<number>;

  /**
   * "Spam" on a lead that is not: it becomes spam (status and stage) for
   * `reason` at `at` (its stage changed then too), one more revision, and its deliveries still pending
   * are cancelled. Returns the number of deliveries cancelled, or null
   * when the lead is not there or already spam.
   */
  markSpam(id: string, at: string, reason: SpamReason): Promise<number | null>;

  /**
   * "Not spam": a spam lead becomes accepted at the stage `new` (one more
   * revision) and its delivery rows are replaced by these, as for a lead
   * just received; the outbox then delivers them. False, and nothing
   * changed, when the lead is not there or not spam.
   *
   * `escalateNotBefore`: as if just received, an urgent lead is escalated
   * (claimEscalations) no sooner than this, URGENT_ESCALATE_MINUTES after
   * the rescue, however long ago it came in. It is kept as the escalation's
   * claim, which no worker takes before it ends.
   *
   * `at`: when its stage changed back to `new` (now when not given).
   */
  rescueLead(
    id: string,
    deliveries: readonly NewDelivery[],
    options?: { escalateNotBefore?: string; at?: string },
  ): Promise<boolean>;

  // -------------------------------------------------------------------------
  // The owner's pages (docs/operations.md#owners-pages)

  /**
   * Saves a lead's stage, note and job value (any of them) when its revision is
   * still `expectedRevision`, and makes it one more; otherwise nothing is
   * written and the caller is told what the other save left. A save that
   * changes the stage keeps `at` (now when not given) as when it changed.
   */
  saveLeadTracking(
    id: string,
    expectedRevision: number,
    changes: TrackingChanges,
    at?: string,
  ): Promise<TrackingSaveResult>;

  /**
   * The inbox: urgent leads still `new` first, then everything newest first
   * (docs/operations.md#urgent-enquiries); filtered by stage and a search, one
   * page with the total.
   */
  searchLeads(search?: LeadSearch): Promise<LeadSearchResult>;

  /**
   * An owner opened the lead at `at`: kept when no owner had seen it yet (the
   * first time wins, whichever instance asks). Returns whether this call
   * kept it; false for a lead already seen or not there.
   */
  markLeadSeen(id: string, at: string): Promise<boolean>;

  /**
   * "Mark all as seen": every lead created at or before `upTo` that no owner
   * has seen is seen at `at` (a lead that came in after the inbox was counted
   * stays new). Returns how many.
   */
  markLeadsSeen(upTo: string, at: string): Promise<number>;

  /** How many leads outside spam no owner has seen yet ("new since you last looked"). */
  countUnseenLeads(): Promise<number>;

  /** How many deliveries were given up for good (GET /healthz). */
  countFailedDeliveries(): Promise<number>;

  // -------------------------------------------------------------------------
  // "I'm on it", escalation and the e-mail outage alert
  // (docs/operations.md, "I'm on it" and escalation)

  /**
   * An owner is on the lead: the first acknowledgement is kept (of two at
   * once, whichever instance asks, one is first) and returned; null when
   * there is no such lead.
   */
  acknowledgeLead(id: string, by: string, at: string): Promise<AcknowledgeResult | null>;

  /**
   * Claims up to `limit` urgent leads to escalate: accepted, still `new`,
   * not acknowledged, not escalated yet, created at or before `dueBefore`,
   * and not claimed by a live worker (a claim holds until `leaseUntil`).
   * Atomic: two workers never claim the same lead at once. The worker
   * sends, then calls finishEscalation; a worker that dies first leaves the
   * lead to be claimed again once its claim has expired.
   */
  claimEscalations(options: {
    dueBefore: string;
    now: string;
    leaseUntil: string;
    limit: number;
  }): Promise<LeadRecord[]>;

  /** The lead was escalated at `at`: never claimed again. */
  finishEscalation(id: string, at: string): Promise<void>;

  /**
   * Whether deliveries to `target` are failing since `failingSince` or
   * earlier: a delivery to it is pending or failed, its first failed attempt
   * at or before then, and none was delivered after that attempt. The
   * store keeps one mark per outage: `alert` is true for the one call, of
   * any instance, that finds the outage first; a call that finds none
   * clears the mark, so the next outage is alerted again.
   */
  checkTargetOutage(
    target: string,
    failingSince: string,
    at: string,
  ): Promise<{ outage: boolean; alert: boolean }>;
}

/** A lead as both stores read it back, before its deliveries and photos. */
export type StoredLead = LeadRecord &
  LeadTracking &
  LeadStageChanged &
  LeadSeen &
  LeadSpam &
  LeadAcknowledged &
  LeadJobValue;

/** Rows grouped by their lead id, in the order given. */
function groupByLead<T extends { lead_id: string }>(rows: readonly T[]): Map<string, T[]> {
  const byLead = new Map<string, T[]>();
  for (const row of rows) {
    const list = byLead.get(row.lead_id);
    if (list) list.push(row);
    else byLead.set(row.lead_id, [row]);
  }
  return byLead;
}

/** Groups delivery rows and photos' metadata under their leads, keeping the lead order. */
export function attachDeliveries(
  leads: ReadonlyArray<StoredLead>,
  deliveries: readonly DeliveryRecord[],
  photos: ReadonlyArray<LeadPhotoInfo & { lead_id: string }> = [],
): LeadWithDeliveries[] {
  const deliveriesByLead = groupByLead(deliveries);
  const photosByLead = groupByLead(photos);
  return leads.map((lead) => ({
    ...lead,
    deliveries: deliveriesByLead.get(lead.id) ?? [],
    photos: (photosByLead.get(lead.id) ?? []).map(({ lead_id: _, ...info }) => info),
  }));
}

/** The columns of a photo's metadata, as both stores select them. */
export const PHOTO_INFO_COLUMNS = 'lead_id, position, width, height, byte_size';

export function toPhotoInfo(row: Record<string, unknown>): LeadPhotoInfo & { lead_id: string } {
  return {
    lead_id: String(row.lead_id),
    position: Number(row.position),
    type: 'image/jpeg',
    width: Number(row.width),
    height: Number(row.height),
    byte_size: Number(row.byte_size),
  };
}

/**
 * The time a delivery's update records as a failed attempt (kept as its
 * first failure while none is kept yet); null for a success, or when the
 * update does not say when it was made.
 */
export function failedAttemptAt(update: DeliveryUpdate): string | null {
  return update.state !== 'delivered' && update.last_error !== null
    ? (update.attempted_at ?? null)
    : null;
}

/** The store's mark of an outage of a delivery target (checkTargetOutage). */
export const outageAlertName = (target: string) => `outage:${target}`.slice(0, 100);

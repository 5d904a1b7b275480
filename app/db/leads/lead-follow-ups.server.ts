import type { StoredLead } from './leads.server.ts';

/*
 * Follow-ups and the morning e-mail (docs/operations.md#follow-ups): the
 * leads waiting for the owner, and each owner's one e-mail a day about
 * them. Its SQLite and PostgreSQL halves are beside it.
 */

/** What a lead listed under "Follow up" and in the morning e-mail shows. */
export type FollowUpLead = Pick<
  StoredLead,
  | 'id'
  | 'name'
  | 'phone'
  | 'service'
  | 'message'
  | 'source'
  | 'created_at'
  | 'urgent'
  | 'stage'
  | 'stage_changed_at'
  | 'acknowledged_at'
>;

/** One list, the longest waiting first, at most the limit asked, with how many there are. */
export interface FollowUpList {
  leads: FollowUpLead[];
  total: number;
}

export interface FollowUps {
  /** Urgent leads still `new` that nobody said "I'm on it" to, whatever their age. */
  urgent: FollowUpList;
  /** Leads still `new` that came in at or before `newBefore`. */
  waiting: FollowUpList;
  /** Leads `quoted` since `quotedBefore` or earlier: quotes to chase. */
  quoted: FollowUpList;
}

/**
 * Where an owner's morning e-mail of a day stands: `claimed` by this call
 * (send it, then finishMorningEmail), `done` (it went, or there was
 * nothing to send), or `held` by another process's claim that has not
 * expired.
 */
export type MorningEmailClaim = 'claimed' | 'done' | 'held';

export interface LeadFollowUpStore {
  /**
   * The leads waiting for the owner: only accepted ones (never spam, nor a
   * lead the visitor was told to send again), each list oldest first.
   */
  listFollowUps(options: {
    newBefore: string;
    quotedBefore: string;
    limit: number;
  }): Promise<FollowUps>;

  /**
   * Claims an owner's morning e-mail of `day` (a New Zealand date,
   * YYYY-MM-DD) until `leaseUntil`: of several processes asking at once,
   * one gets `claimed`; the others `held` while the claim lasts, then one
   * of them may claim it again (the first died before it finished);
   * `done` once it was finished. Days more than 31 days before `day` are
   * forgotten.
   */
  claimMorningEmail(options: {
    ownerId: string;
    day: string;
    now: string;
    leaseUntil: string;
  }): Promise<MorningEmailClaim>;

  /** The owner's morning e-mail of `day` went at `at` with `leads` leads (0: nothing to send). */
  finishMorningEmail(ownerId: string, day: string, at: string, leads: number): Promise<void>;
}

/** The columns a follow-up lead is read from, in both stores. */
export const FOLLOW_UP_COLUMNS =
  'id, name, phone, service, message, source, created_at, urgent, stage, stage_changed_at, acknowledged_at';

/** The most leads one list returns. */
export const FOLLOW_UP_LIMIT_MAX = 200;

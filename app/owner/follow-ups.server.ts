import type { AppStore, FollowUpLead, FollowUps } from '../db/store.server.ts';
import { callbackPostcode } from '../leads/intake/schema.ts';
import { inboxHref } from './inbox.server.ts';

/**
 * "Follow up" at the top of the inbox (docs/operations.md#follow-ups): the
 * enquiries still new a day after they came in, then the quotes sent
 * FOLLOW_UP_QUOTED_DAYS days ago or more that are still at "Quoted". Never
 * spam. Each says why in plain words, with the customer's name, what they
 * asked for and, when the form asked, their postcode; each opens its lead.
 * The morning e-mail (morning-email.server.ts) reads the same lists.
 */

/** An enquiry still `new` this long after it came in is one to follow up. */
export const FOLLOW_UP_NEW_HOURS = 24;

/** FOLLOW_UP_QUOTED_DAYS when it is not set (server/env.server.ts). */
export const DEFAULT_FOLLOW_UP_QUOTED_DAYS = 3;

/** The most of each list the inbox shows; a link leads to the rest. */
export const FOLLOW_UP_SHOWN = 10;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The lists' limits in time, from now. */
export function followUpCutoffs(now: Date, quotedDays: number) {
  return {
    newBefore: new Date(now.getTime() - FOLLOW_UP_NEW_HOURS * HOUR_MS).toISOString(),
    quotedBefore: new Date(now.getTime() - quotedDays * DAY_MS).toISOString(),
  };
}

/** The leads waiting for the owner now, at most `limit` of each list. */
export function listFollowUps(
  store: AppStore,
  options: { now: Date; quotedDays: number; limit: number },
): Promise<FollowUps> {
  return store.listFollowUps({
    ...followUpCutoffs(options.now, options.quotedDays),
    limit: options.limit,
  });
}

const days = (count: number) => `${count} ${count === 1 ? 'day' : 'days'}`;

/**
 * Why it is listed: 'New for 2 days', 'Quoted 4 days ago'. Whole days
 * since it came in, or since it was marked quoted.
 */
export function followUpReason(
  lead: Pick<FollowUpLead, 'stage' | 'created_at' | 'stage_changed_at'>,
  now: Date,
): string {
  const since = (iso: string) =>
    Math.max(1, Math.floor((now.getTime() - Date.parse(iso)) / DAY_MS));
  return lead.stage === 'quoted'
    ? `Quoted ${days(since(lead.stage_changed_at))} ago`
    : `New for ${days(since(lead.created_at))}`;
}

/** Where the customer is, when the form asked: 'Postcode 3110' (the call-back form). */
export function followUpPlace(lead: Pick<FollowUpLead, 'source' | 'message'>): string | null {
  if (lead.source !== 'hero_form') return null;
  const code = callbackPostcode(lead.message);
  return code ? `Postcode ${code}` : null;
}

export interface FollowUpItem {
  /** The lead's page. */
  href: string;
  name: string;
  /** What they asked for: the service. */
  what: string;
  /** 'Postcode 3110', when the form asked. */
  where: string | null;
  /** 'New for 2 days', 'Quoted 4 days ago'. */
  why: string;
  urgent: boolean;
}

export interface InboxFollowUps {
  items: FollowUpItem[];
  /** Links to the rest of a list longer than the inbox shows. */
  more: Array<{ href: string; text: string }>;
}

export function followUpItem(lead: FollowUpLead, now: Date): FollowUpItem {
  return {
    href: `/admin/leads/${encodeURIComponent(lead.id)}`,
    name: lead.name,
    what: lead.service,
    where: followUpPlace(lead),
    why: followUpReason(lead, now),
    urgent: lead.urgent,
  };
}

/**
 * The inbox's "Follow up": the enquiries still new a day on, the longest
 * waiting first, then the quotes to chase; empty when nothing waits (the
 * page then shows no section at all).
 */
export async function inboxFollowUps(
  store: AppStore,
  options: { now?: Date; quotedDays?: number } = {},
): Promise<InboxFollowUps> {
  const now = options.now ?? new Date();
  const quotedDays = options.quotedDays ?? DEFAULT_FOLLOW_UP_QUOTED_DAYS;
  const { waiting, quoted } = await listFollowUps(store, {
    now,
    quotedDays,
    limit: FOLLOW_UP_SHOWN,
  });
  const more: InboxFollowUps['more'] = [];
  if (waiting.total > waiting.leads.length) {
    more.push({
      href: inboxHref({ stage: 'new', query: '', page: 1 }),
      text: `And ${waiting.total - waiting.leads.length} more still new`,
    });
  }
  if (quoted.total > quoted.leads.length) {
    more.push({
      href: inboxHref({ stage: 'quoted', query: '', page: 1 }),
      text: `And ${quoted.total - quoted.leads.length} more quotes to chase`,
    });
  }
  return {
    items: [...waiting.leads, ...quoted.leads].map((lead) => followUpItem(lead, now)),
    more,
  };
}

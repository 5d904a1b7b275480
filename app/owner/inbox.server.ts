import { ACTIVITY, activity, deletePerson } from '../leads/person-data.server.ts';
import {
  LEAD_PAGE_SIZE,
  LEAD_STAGES,
  NOTE_MAX,
  type DeliveryState,
  type LeadSource,
  type LeadStage,
  type AppStore,
  type LeadTracking,
  type LeadWithDeliveries,
} from '../db/store.server.ts';
import type { SignedInOwner } from './context.server.ts';
import { describeSiteActivity } from './site-activity.server.ts';

/**
 * What the inbox, a lead's page and the activity list decide, apart from
 * their markup (app/pages/admin; docs/operations.md "Owner's pages"): the
 * inbox's query from its URL, the words a row shows, and what a post to a
 * lead's page does. Every change is noted in the activity list, with ids,
 * counts and stages, never a person's details.
 */

export const STAGE_WORDS: Record<LeadStage, string> = {
  new: 'New',
  contacted: 'Contacted',
  quoted: 'Quoted',
  won: 'Won',
  lost: 'Lost',
  spam: 'Spam',
};

export const SOURCE_WORDS: Record<LeadSource, string> = {
  hero_form: 'call-back form',
  contact_form: 'contact form',
  quote_form: 'quote form',
};

export const DELIVERY_WORDS: Record<DeliveryState, string> = {
  pending: 'waiting to be sent',
  delivered: 'delivered',
  failed: 'failed',
  not_sent: 'not sent',
  cancelled: 'cancelled',
};

const nzShort = new Intl.DateTimeFormat('en-NZ', {
  timeZone: 'Pacific/Auckland',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** 'Wed, 5 Mar 2025, 2:05 pm': a time in New Zealand time, short enough for a phone's row. */
export function nzShortTime(iso: string): string {
  return nzShort.format(new Date(iso));
}

export interface InboxQuery {
  stage: LeadStage | undefined;
  /** The search as typed (trimmed), '' for none. */
  query: string;
  /** 1 for the first page. */
  page: number;
}

/** The inbox's filter, search and page from its URL; anything unknown is ignored. */
export function parseInboxQuery(url: URL): InboxQuery {
  const stage = url.searchParams.get('stage') ?? '';
  const page = Number(url.searchParams.get('page') ?? '1');
  return {
    stage: (LEAD_STAGES as readonly string[]).includes(stage) ? (stage as LeadStage) : undefined,
    query: (url.searchParams.get('q') ?? '').trim().slice(0, 200),
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

/** The inbox's address for this query (default parts left out). */
export function inboxHref(query: InboxQuery): string {
  const params = new URLSearchParams();
  if (query.stage) params.set('stage', query.stage);
  if (query.query) params.set('q', query.query);
  if (query.page > 1) params.set('page', String(query.page));
  const search = params.toString();
  return search ? `/admin?${search}` : '/admin';
}

export interface InboxPage {
  leads: LeadWithDeliveries[];
  total: number;
  /** Links to the pages either side, when there are any. */
  newer: string | null;
  older: string | null;
  /** 'Showing 51–100 of 120'. */
  range: string;
}

/**
 * How the owner's pages mark an urgent enquiry (docs/operations.md#urgent-enquiries):
 * in words, beside the colour.
 */
export const URGENT_WORDS = 'Urgent: glass broken now';

/**
 * One page of the inbox, 50 a page: urgent enquiries still `new` on top, then
 * newest first (the store orders them, docs/operations.md#urgent-enquiries).
 */
export async function inboxPage(store: AppStore, query: InboxQuery): Promise<InboxPage> {
  const offset = (query.page - 1) * LEAD_PAGE_SIZE;
  const { leads, total } = await store.searchLeads({
    stage: query.stage,
    query: query.query || undefined,
    offset,
    limit: LEAD_PAGE_SIZE,
  });
  const last = offset + leads.length;
  return {
    leads,
    total,
    newer: query.page > 1 ? inboxHref({ ...query, page: query.page - 1 }) : null,
    older: last < total ? inboxHref({ ...query, page: query.page + 1 }) : null,
    range: leads.length ? `Showing ${offset + 1}–${last} of ${total}` : `None of ${total}`,
  };
}

/**
 * "N new enquiries since you last marked them as seen": counted from the
 * last time the owner pressed "Mark all as seen" (markAllSeen). Reading
 * the inbox changes nothing: only an owner's POST does.
 */
export async function newSinceSeen(store: AppStore, owner: SignedInOwner): Promise<number> {
  const record = await store.getOwner(owner.id);
  return store.countLeadsSince(record?.inbox_seen_at ?? null);
}

/**
 * "Mark all as seen" on the inbox: the count starts again from `until`, the
 * time the page the owner pressed it on was counted, so an enquiry that came
 * in after that page stays new. Never later than now (a time from elsewhere
 * is not believed), and never back from a later mark (an older page's
 * button).
 */
export async function markAllSeen(
  store: AppStore,
  owner: SignedInOwner,
  until: string,
  now = new Date(),
): Promise<void> {
  const asked = Date.parse(until);
  const at = Number.isFinite(asked) ? Math.min(asked, now.getTime()) : now.getTime();
  const record = await store.getOwner(owner.id);
  const seen = record?.inbox_seen_at ? Date.parse(record.inbox_seen_at) : Number.NEGATIVE_INFINITY;
  if (at <= seen) return;
  await store.markInboxSeen(owner.id, new Date(at).toISOString());
}

/** What a post to a lead's page did, for the page to show. */
export type LeadAction =
  | { kind: 'saved' }
  | { kind: 'conflict'; current: LeadTracking; mine: { stage: LeadStage; note: string } }
  | { kind: 'retried'; label: string }
  | { kind: 'not-retried'; label: string }
  | { kind: 'confirm-delete'; count: number }
  | { kind: 'deleted'; count: number }
  | { kind: 'invalid'; message: string };

/** A posted form, as the page reads it (URLSearchParams) or as FormData. */
type PostedForm = { get(name: string): FormDataEntryValue | null };

function text(form: PostedForm, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}

/**
 * A form posted on a lead's page (each form names its `action`): save the
 * stage and note on the revision the owner saw; deliver a failed delivery
 * again; ask to delete this person's enquiries, then delete them.
 */
export async function handleLeadPost(
  store: AppStore,
  owner: SignedInOwner,
  lead: LeadWithDeliveries,
  form: PostedForm,
  now = new Date(),
): Promise<LeadAction> {
  const note = (value: ReturnType<typeof activity>) => store.recordActivity(value);
  switch (text(form, 'action')) {
    case 'save': {
      const stage = text(form, 'stage');
      const mine = { stage: stage as LeadStage, note: text(form, 'note').replace(/\r\n/g, '\n') };
      const revision = Number(text(form, 'revision'));
      if (!(LEAD_STAGES as readonly string[]).includes(stage) || !Number.isSafeInteger(revision)) {
        return { kind: 'invalid', message: 'Choose one of the stages.' };
      }
      if (mine.note.length > NOTE_MAX) {
        return { kind: 'invalid', message: `A note holds at most ${NOTE_MAX} characters.` };
      }
      const result = await store.saveLeadTracking(lead.id, revision, mine);
      if (result.saved) {
        await note(activity(owner.email, ACTIVITY.leadSaved, { lead: lead.id, stage }, now));
        return { kind: 'saved' };
      }
      if (result.reason === 'conflict') return { kind: 'conflict', current: result.current, mine };
      return { kind: 'invalid', message: 'This enquiry is no longer here.' };
    }
    case 'retry': {
      const delivery = lead.deliveries.find((d) => d.target === text(form, 'target'));
      if (!delivery) return { kind: 'invalid', message: 'There is no such delivery.' };
      const retried = await store.retryDelivery(lead.id, delivery.target, now.toISOString());
      if (!retried) return { kind: 'not-retried', label: delivery.label };
      await note(
        activity(
          owner.email,
          ACTIVITY.deliveryRetried,
          { lead: lead.id, target: delivery.target },
          now,
        ),
      );
      return { kind: 'retried', label: delivery.label };
    }
    case 'delete': {
      const count = (await store.findLeadsByEmail(lead.email)).length;
      return { kind: 'confirm-delete', count };
    }
    case 'delete-confirm': {
      const count = await deletePerson(store, lead.email);
      // A count only: the person is gone, and so is any trace of them here.
      await note(activity(owner.email, ACTIVITY.personDeleted, { count }, now));
      return { kind: 'deleted', count };
    }
    default:
      return { kind: 'invalid', message: 'That button did nothing. Try again.' };
  }
}

/** A line of the activity list in words: 'Saved an enquiry (stage won)'. */
export function describeActivity(action: string, detail: string): string {
  const parts = new Map(
    detail
      .split(',')
      .map((part) => part.split('='))
      .filter((pair): pair is [string, string] => pair.length === 2),
  );
  const count = Number(parts.get('count') ?? 0);
  const enquiries = `${count} ${count === 1 ? 'enquiry' : 'enquiries'}`;
  switch (action) {
    case ACTIVITY.leadSaved:
      return `Saved an enquiry's stage and note (stage: ${STAGE_WORDS[parts.get('stage') as LeadStage] ?? parts.get('stage') ?? '?'})`;
    case ACTIVITY.deliveryRetried:
      return `Sent an enquiry again (${(parts.get('target') ?? '').replace(':', ' ')})`;
    case ACTIVITY.personExported:
      return `Downloaded everything about a person (${enquiries})`;
    case ACTIVITY.personDeleted:
      return `Deleted a person's enquiries (${enquiries})`;
    default:
      return describeSiteActivity(action, detail) ?? (detail ? `${action} (${detail})` : action);
  }
}

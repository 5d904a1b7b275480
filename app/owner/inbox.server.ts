import { ACTIVITY, activity, deletePerson } from '../leads/person-data.server.ts';
import { telLink } from '../leads/delivery/lead-email.server.ts';
import { callbackPostcode } from '../leads/intake/schema.ts';
import {
  LEAD_PAGE_SIZE,
  LEAD_STAGES,
  NOTE_MAX,
  type DeliveryRecord,
  type LeadSource,
  type LeadStage,
  type AppStore,
  type NewDelivery,
  type SpamReason,
  type LeadTracking,
  type LeadWithDeliveries,
  type AcknowledgeResult,
  type LeadAcknowledged,
} from '../db/store.server.ts';
import type { SignedInOwner } from './context.server.ts';
import { ownerName } from './owner-name.ts';
import { parseJobValue, type ParsedJobValue } from '../leads/job-value.ts';

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

/**
 * Why an enquiry is in spam, in the owner's words (docs/operations.md#spam):
 * each rule of app/leads/intake/spam-rules.server.ts, and the owner's own
 * "Spam".
 */
export const SPAM_REASON_WORDS: Record<SpamReason, string> = {
  trap: 'Hidden field filled: only a program fills it in',
  proof: 'Failed the automatic check',
  link: 'Contains a link',
  words: 'Reads like an advert (search rankings, crypto, loans)',
  repeated: 'Same message as another enquiry',
  owner: 'Moved to spam by hand',
};

/** The stages an owner chooses in a lead's stage form: spam has its own button. */
export const CHOSEN_STAGES: readonly LeadStage[] = LEAD_STAGES.filter((stage) => stage !== 'spam');

export const SOURCE_WORDS: Record<LeadSource, string> = {
  hero_form: 'call-back form',
  contact_form: 'contact form',
  quote_form: 'quote form',
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

const nzHour = new Intl.DateTimeFormat('en-NZ', {
  timeZone: 'Pacific/Auckland',
  hour: 'numeric',
  minute: '2-digit',
});
const nzDay = new Intl.DateTimeFormat('en-NZ', {
  timeZone: 'Pacific/Auckland',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
});

/** '9:14 am on Thu, 5 Mar', in New Zealand time. */
function nzAt(iso: string): string {
  const date = new Date(iso);
  return `${nzHour.format(date)} on ${nzDay.format(date)}`;
}

/**
 * How the owner's pages name where an enquiry was sent: 'by e-mail', 'to
 * your connected app 2' (a webhook, by its position; the setting's own name
 * stays in docs/operations.md#delivery), 'to your phone' (the push).
 */
export function deliveryWay(delivery: Pick<DeliveryRecord, 'target' | 'label'>): string {
  if (delivery.target === 'email') return 'by e-mail';
  // The push to the owners' phones (docs/operations.md#push-notifications).
  if (delivery.target === 'push') return 'to your phone';
  const webhook = delivery.target.startsWith('webhook:') ? delivery.target.slice(8) : '';
  return webhook ? `to your connected app ${webhook}` : `to ${delivery.label}`;
}

/**
 * One delivery in a sentence, with no state name: 'Sent to you by e-mail at
 * 9:14 am on Thu, 5 Mar.', 'Could not be sent to your connected app 1.'
 * Without the time for the inbox's cards.
 */
export function deliverySentence(delivery: DeliveryRecord, withTime = true): string {
  const way = deliveryWay(delivery);
  switch (delivery.state) {
    case 'delivered': {
      const at = withTime && delivery.delivered_at ? ` at ${nzAt(delivery.delivered_at)}` : '';
      return `Sent ${delivery.target === 'email' ? 'to you by e-mail' : way}${at}.`;
    }
    case 'pending':
      return `Still to be sent ${way}.`;
    case 'failed':
      return `Could not be sent ${way}.`;
    case 'not_sent':
      return `Not sent ${way}.`;
    case 'cancelled':
      return `Not sent ${way}: that way of sending was turned off before it went.`;
  }
}

/**
 * What happened to an enquiry, for the top of its page: what the customer
 * was told and where it was sent, in plain words (never the stored status).
 */
export function leadSummary(lead: LeadWithDeliveries): string {
  switch (lead.status) {
    case 'spam':
      if (lead.spam_reason === 'owner') return 'Moved to spam, so nothing more is sent on to you.';
      return lead.spam_reason
        ? `Caught as spam (${SPAM_REASON_WORDS[lead.spam_reason].toLowerCase()}), so it was not sent on to you.`
        : 'Caught as spam, so it was not sent on to you.';
    case 'not_accepted':
      return 'It did not go through: the customer was asked to try again or to call.';
    case 'received':
      return 'Just arrived: it is being sent to you now.';
    case 'accepted':
      return lead.deliveries.length === 0
        ? 'Kept here only: nothing was set up to send it on to you.'
        : lead.deliveries.map((delivery) => deliverySentence(delivery)).join(' ');
  }
}

const nzDate = new Intl.DateTimeFormat('en-NZ', {
  timeZone: 'Pacific/Auckland',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/**
 * "I'm on it" in words (docs/operations.md, "I'm on it" and escalation):
 * 'Kasey is on it since 9:14 am', with the day when it was not today in
 * New Zealand ('… since 9:14 am on Thu, 5 Mar'); null while nobody is.
 */
export function onItSentence(lead: LeadAcknowledged, now = new Date()): string | null {
  if (!lead.acknowledged_at || !lead.acknowledged_by) return null;
  const at = new Date(lead.acknowledged_at);
  const today = nzDate.format(at) === nzDate.format(now);
  return `${ownerName(lead.acknowledged_by)} is on it since ${today ? nzHour.format(at) : nzAt(lead.acknowledged_at)}`;
}

/**
 * "I'm on it" from the signed-in owner: kept when nobody was on the lead
 * yet (the first stays, whoever asks again), and then noted in the
 * activity list. Null when the lead is not there.
 */
export async function acknowledgeLead(
  store: AppStore,
  owner: SignedInOwner,
  leadId: string,
  now = new Date(),
): Promise<AcknowledgeResult | null> {
  const result = await store.acknowledgeLead(leadId, owner.email, now.toISOString());
  if (result?.first) {
    await store.recordActivity(
      activity(owner.email, ACTIVITY.leadAcknowledged, { lead: leadId }, now),
    );
  }
  return result;
}

/** The longest first line of a message a card shows, in characters. */
const FIRST_LINE_MAX = 80;

/** A message's first line that is not blank, trimmed, cut at a word with '…' when long. */
function firstLine(message: string): string | null {
  const line =
    message
      .split('\n')
      .map((part) => part.trim())
      .find((part) => part !== '') ?? '';
  if (!line) return null;
  const characters = [...line];
  if (characters.length <= FIRST_LINE_MAX) return line;
  const cut = characters.slice(0, FIRST_LINE_MAX - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > FIRST_LINE_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

export interface LeadCard {
  /** The customer's phone as a call link, null when it cannot be dialled. */
  tel: string | null;
  phone: string;
  /** 'Postcode 3118' when the form asked for it. */
  place: string | null;
  /** The message's first line, short; null when there is none worth showing. */
  firstLine: string | null;
  /** No owner has opened it or marked it seen. */
  unseen: boolean;
  /** 'Kasey is on it since 9:14 am'; null while nobody is. */
  onIt: string | null;
}

/**
 * What an inbox card shows beside the name, so an enquiry can be sorted
 * without opening it. The call-back form's message is only its service type
 * and postcode (docs/forms.md#the-lead-a-form-sends): its card shows the
 * postcode and no message.
 */
export function leadCard(lead: LeadWithDeliveries, now = new Date()): LeadCard {
  const callback = lead.source === 'hero_form';
  return {
    tel: telLink(lead.phone) ?? null,
    phone: lead.phone.trim(),
    place: callback ? postcodeWords(callbackPostcode(lead.message)) : null,
    firstLine: callback ? null : firstLine(lead.message),
    unseen: lead.seen_at === null,
    onIt: onItSentence(lead, now),
  };
}

const postcodeWords = (code: string | null) => (code ? `Postcode ${code}` : null);

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
 * "N new enquiries": the ones no owner has seen yet (the store keeps, per
 * lead, when an owner first opened it or marked it seen). Reading the inbox
 * changes nothing: only opening a lead's page (openLead) or "Mark all as
 * seen" (markAllSeen) does.
 */
export async function newSinceSeen(store: AppStore): Promise<number> {
  return store.countUnseenLeads();
}

/** "Spam (3)": how many enquiries are in spam, listed on their own at /admin?stage=spam. */
export async function spamCount(store: AppStore): Promise<number> {
  return store.countSpamLeads();
}

/** The spam list's address. */
export const SPAM_HREF = inboxHref({ stage: 'spam', query: '', page: 1 });

/**
 * Request headers by which a browser says a request is not the person
 * opening the page: a prefetch or prerender (`Sec-Purpose`, and the older
 * `Purpose` and Firefox's `X-Moz`) or a link preview (`X-Purpose`).
 */
const NOT_OPENED: ReadonlyArray<readonly [string, string]> = [
  ['sec-purpose', 'prefetch'],
  ['purpose', 'prefetch'],
  ['x-moz', 'prefetch'],
  ['x-purpose', 'preview'],
];

/** Whether this request to a lead's page is the owner opening it: a GET that is no prefetch. */
export function opensLead(request: Request): boolean {
  if (request.method !== 'GET') return false;
  return !NOT_OPENED.some(([name, word]) =>
    (request.headers.get(name) ?? '').toLowerCase().includes(word),
  );
}

/** The owner opened a lead's page: it is seen from now on, for every owner. */
export async function openLead(
  store: AppStore,
  lead: LeadWithDeliveries,
  request: Request,
  now = new Date(),
): Promise<void> {
  if (lead.seen_at !== null || !opensLead(request)) return;
  await store.markLeadSeen(lead.id, now.toISOString());
}

/**
 * "Mark all as seen" on the inbox: every lead that came in up to `until`,
 * the time the page the owner pressed it on was counted, is seen now; one
 * that came in after that page stays new. Never later than now (a time
 * from elsewhere is not believed).
 */
export async function markAllSeen(store: AppStore, until: string, now = new Date()): Promise<void> {
  const asked = Date.parse(until);
  const upTo = Number.isFinite(asked) ? Math.min(asked, now.getTime()) : now.getTime();
  await store.markLeadsSeen(new Date(upTo).toISOString(), now.toISOString());
}

/** What a post to a lead's page did, for the page to show. */
/** What the owner posted in the stage form, as typed (the job value too). */
export interface MyTracking {
  stage: LeadStage;
  note: string;
  job_value: string;
}

export type LeadAction =
  | { kind: 'saved' }
  | { kind: 'conflict'; current: LeadTracking; mine: MyTracking }
  /** The job value typed could not be read: nothing was saved; the form shows it again. */
  | { kind: 'invalid-value'; message: string; mine: MyTracking }
  | { kind: 'retried'; label: string }
  | { kind: 'not-retried'; label: string }
  | { kind: 'confirm-delete'; count: number }
  | { kind: 'deleted'; count: number }
  | { kind: 'spam'; cancelled: number }
  | { kind: 'not-spam'; targets: number }
  | { kind: 'invalid'; message: string };

/**
 * How a lead reaches the owner now (server/runtime.server.ts sets it): the
 * targets configured now, and the outbox's kick. "Not spam" makes a
 * delivery for each and wakes the outbox.
 */
export interface LeadDeliveryControl {
  targets(): ReadonlyArray<{ key: string; label: string }>;
  kick(): void;
  /**
   * URGENT_ESCALATE_MINUTES: an urgent lead taken out of spam is escalated
   * this long after "Not spam", as if it had just come in.
   */
  escalateAfterMinutes: number;
}

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
  delivery?: LeadDeliveryControl,
): Promise<LeadAction> {
  const note = (value: ReturnType<typeof activity>) => store.recordActivity(value);
  switch (text(form, 'action')) {
    case 'save': {
      const stage = text(form, 'stage');
      const mine: MyTracking = {
        stage: stage as LeadStage,
        note: text(form, 'note').replace(/\r\n/g, '\n'),
        job_value: text(form, 'job_value'),
      };
      const revision = Number(text(form, 'revision'));
      if (!(LEAD_STAGES as readonly string[]).includes(stage) || !Number.isSafeInteger(revision)) {
        return { kind: 'invalid', message: 'Choose one of the stages.' };
      }
      // Into spam and out of it are the buttons below (they stop or start the sending).
      if ((stage === 'spam') !== (lead.stage === 'spam')) {
        return {
          kind: 'invalid',
          message:
            lead.stage === 'spam'
              ? 'To take it out of spam, use “Not spam”.'
              : 'To move it to spam, use the “Spam” button.',
        };
      }
      if (mine.note.length > NOTE_MAX) {
        return { kind: 'invalid', message: `A note holds at most ${NOTE_MAX} characters.` };
      }
      // The value of a won job; at any other stage the field is not read, and the store clears it.
      const value: ParsedJobValue =
        stage === 'won' ? parseJobValue(mine.job_value) : { ok: true, cents: null };
      if (!value.ok) return { kind: 'invalid-value', message: value.message, mine };
      const result = await store.saveLeadTracking(
        lead.id,
        revision,
        { stage: mine.stage, note: mine.note, job_value_cents: value.cents },
        now.toISOString(),
      );
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
      if (!retried) return { kind: 'not-retried', label: deliveryWay(delivery) };
      await note(
        activity(
          owner.email,
          ACTIVITY.deliveryRetried,
          { lead: lead.id, target: delivery.target },
          now,
        ),
      );
      return { kind: 'retried', label: deliveryWay(delivery) };
    }
    case 'spam': {
      const cancelled = await store.markSpam(lead.id, now.toISOString(), 'owner');
      if (cancelled === null) return { kind: 'invalid', message: 'It is already in spam.' };
      await note(activity(owner.email, ACTIVITY.leadSpam, { lead: lead.id, cancelled }, now));
      return { kind: 'spam', cancelled };
    }
    case 'not-spam': {
      // As if just received: a delivery to each target configured now, due now.
      const targets = delivery?.targets() ?? [];
      const rows: NewDelivery[] = targets.map((target) => ({
        target: target.key,
        label: target.label,
        state: 'pending',
        next_attempt_at: now.toISOString(),
      }));
      const escalateNotBefore = delivery
        ? new Date(now.getTime() + delivery.escalateAfterMinutes * 60_000).toISOString()
        : undefined;
      const rescued = { escalateNotBefore, at: now.toISOString() };
      if (!(await store.rescueLead(lead.id, rows, rescued))) {
        return { kind: 'invalid', message: 'It is no longer in spam.' };
      }
      if (rows.length > 0) delivery?.kick();
      await note(
        activity(owner.email, ACTIVITY.leadNotSpam, { lead: lead.id, targets: rows.length }, now),
      );
      return { kind: 'not-spam', targets: rows.length };
    }
    case 'delete': {
      const count = (await store.findLeadsByEmail(lead.email)).length;
      return { kind: 'confirm-delete', count };
    }
    case 'delete-confirm': {
      const count = await deletePerson(store, lead.email, owner);
      // A count only: the person is gone, and so is any trace of them here.
      await note(activity(owner.email, ACTIVITY.personDeleted, { count }, now));
      return { kind: 'deleted', count };
    }
    default:
      return { kind: 'invalid', message: 'That button did nothing. Try again.' };
  }
}

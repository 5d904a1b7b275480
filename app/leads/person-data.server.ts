import {
  normaliseEmail,
  type LeadPhoto,
  type AppStore,
  type LeadWithDeliveries,
  type NewActivity,
  type ReviewRequestRecord,
} from '../db/store.server.ts';
import type { SignedInOwner } from '../owner/context.server.ts';
import { removeReviewsOfLeads } from '../owner/site-review-removal.server.ts';
import { jobValueDecimal } from './job-value.ts';

/**
 * A person's data on request (Privacy Act 2020: IPP 6 access, and deletion),
 * one code path for both doors: `npm run leads -- export --email` and
 * `delete --email … --yes` (server/cli/leads-cli.ts), and the owner's lead page
 * ("Download everything about this person", "Delete this person's
 * enquiries", app/pages/admin/leads). The export is the JSON of the lead
 * record's fields (docs/operations.md "Lead record"), a person's with their
 * photos' bytes (base64), and the review requests sent to them with the
 * review each brought (docs/operations.md, "Reviews"); never a link's token
 * or its hash.
 */

/**
 * The lead record's fields of one lead, for the JSON export: its photos'
 * metadata, with their bytes as base64 (`data_base64`) when given, and its
 * review requests (`review_requests`) when given (a person's export).
 */
export function exportRecord(
  lead: LeadWithDeliveries,
  photos: readonly LeadPhoto[] = [],
  reviewRequests?: readonly ReviewRequestRecord[],
) {
  return {
    id: lead.id,
    name: lead.name,
    email: lead.email,
    phone: lead.phone,
    service: lead.service,
    message: lead.message,
    created_at: lead.created_at,
    source: lead.source,
    urgent: lead.urgent,
    status: lead.status,
    spam_reason: lead.spam_reason,
    stage: lead.stage,
    note: lead.note,
    stage_changed_at: lead.stage_changed_at,
    acknowledged_at: lead.acknowledged_at,
    acknowledged_by: lead.acknowledged_by,
    job_value_nzd: jobValueDecimal(lead.job_value_cents),
    attribution: { ...lead.attribution },
    deliveries: lead.deliveries.map((delivery) => ({
      target: delivery.label,
      state: delivery.state,
      attempts: delivery.attempts,
      next_attempt_at: delivery.next_attempt_at,
      last_error: delivery.last_error,
      delivered_at: delivery.delivered_at,
    })),
    photos: lead.photos.map((info) => {
      const bytes = photos.find(
        (photo) => photo.lead_id === lead.id && photo.position === info.position,
      );
      return {
        position: info.position,
        type: info.type,
        width: info.width,
        height: info.height,
        byte_size: info.byte_size,
        ...(bytes ? { data_base64: Buffer.from(bytes.data).toString('base64') } : {}),
      };
    }),
    ...(reviewRequests
      ? {
          review_requests: reviewRequests.map(({ lead_id: _lead, ...request }) => request),
        }
      : {}),
  };
}

/**
 * Characters a terminal may take as a command rather than text: the control
 * characters but tab and line breaks (ESC and the C1 controls CSI and OSC
 * start escape sequences), DEL, and the bidirectional overrides. The form
 * refuses them; leads stored before it did may still hold some.
 */
export const TERMINAL_CONTROLS =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON.stringify escapes the C0 controls but writes DEL, C1 and the
 * overrides as they are; escaped too, the export is safe to print to a
 * terminal and still reads back to the same values.
 */
export function toJson(
  leads: readonly LeadWithDeliveries[],
  photos: readonly LeadPhoto[] = [],
  reviewRequests?: ReadonlyMap<string, readonly ReviewRequestRecord[]>,
): string {
  const records = leads.map((lead) =>
    exportRecord(lead, photos, reviewRequests ? (reviewRequests.get(lead.id) ?? []) : undefined),
  );
  const json = JSON.stringify(records, null, 2).replace(
    TERMINAL_CONTROLS,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return `${json}\n`;
}

/**
 * Every lead held about the person with this address, oldest first, with
 * the JSON export of them: their photos too, bytes and all.
 */
export async function exportPerson(
  store: AppStore,
  email: string,
): Promise<{ leads: LeadWithDeliveries[]; json: string }> {
  const leads = await store.findLeadsByEmail(normaliseEmail(email));
  const photos: LeadPhoto[] = [];
  const reviewRequests = new Map<string, ReviewRequestRecord[]>();
  for (const lead of leads) {
    for (const info of lead.photos) {
      const photo = await store.getLeadPhoto(lead.id, info.position);
      if (photo) photos.push(photo);
    }
    reviewRequests.set(lead.id, await store.listReviewRequestsForLead(lead.id));
  }
  return { leads, json: toJson(leads, photos, reviewRequests) };
}

/**
 * A Privacy Act erasure of these leads: first any review their customer
 * sent is taken off the site (app/owner/site-review-removal.server.ts),
 * then the leads are deleted, with their deliveries and photos, in one
 * transaction of the store (which overwrites what it deletes: SQLite's
 * secure_delete); returns how many leads. `by`: the owner who asked, none
 * for `npm run leads`.
 */
export async function eraseLeads(
  store: AppStore,
  ids: readonly string[],
  by?: SignedInOwner,
): Promise<number> {
  if (ids.length === 0) return 0;
  await removeReviewsOfLeads(store, ids, by);
  return store.deleteLeads(ids);
}

/** Erases every lead of the person with this address (eraseLeads); returns how many. */
export async function deletePerson(
  store: AppStore,
  email: string,
  by?: SignedInOwner,
): Promise<number> {
  const leads = await store.findLeadsByEmail(normaliseEmail(email));
  return eraseLeads(
    store,
    leads.map((lead) => lead.id),
    by,
  );
}

/**
 * The activity list's names for what an owner (or the CLI, as 'cli') did.
 * Details name ids, counts, stages and targets, never a person: a deletion
 * keeps only its count.
 */
export const ACTIVITY = {
  leadSaved: 'lead.saved',
  deliveryRetried: 'delivery.retried',
  personExported: 'person.exported',
  personDeleted: 'person.deleted',
  /** "I'm on it", by an owner (docs/operations.md, "I'm on it" and escalation). */
  leadAcknowledged: 'lead.acknowledged',
  /** An urgent lead nobody took, pushed and e-mailed again (by the server). */
  leadEscalated: 'lead.escalated',
  leadSpam: 'lead.spam',
  leadNotSpam: 'lead.not-spam',
} as const;

export function activity(
  actor: string,
  action: (typeof ACTIVITY)[keyof typeof ACTIVITY],
  detail: Record<string, string | number>,
  at = new Date(),
): NewActivity {
  return {
    at: at.toISOString(),
    actor,
    action,
    detail: Object.entries(detail)
      .map(([key, value]) => `${key}=${value}`)
      .join(','),
  };
}

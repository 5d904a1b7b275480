/**
 * What this folder pushes to the owners' phones (docs/operations.md, "I'm
 * on it" and escalation): an urgent enquiry nobody took, pushed again, and
 * a warning (the lead e-mail not getting through, the backup). The push
 * itself (Web Push, the store's subscriptions and VAPID keys) is given as
 * a function, so this code needs no push service to run or to be tested.
 */

/** A push that names an enquiry; `escalated` when nobody said "I'm on it" in time. */
export interface LeadPush {
  type: 'lead';
  id: string;
  name: string;
  service: string;
  urgent: boolean;
  /** The lead's page: /admin/leads/ID. */
  url: string;
  escalated?: true;
}

/**
 * A warning in plain words, opening `url` (the inbox) when tapped; a later
 * one with the same `tag` replaces it on the phone.
 */
export interface AlertPush {
  type: 'notice';
  title: string;
  body: string;
  url: string;
  tag: string;
}

export type OwnerPushPayload = LeadPush | AlertPush;

/**
 * Pushes one payload to every subscribed device, whatever each asked for
 * (an escalation and a warning concern every owner); how many devices took
 * it and how many did not.
 */
export type PushToDevices = (
  payload: OwnerPushPayload,
) => Promise<{ sent: number; failed: number }>;

/** The push that says an urgent enquiry is still unanswered. */
export function escalationPush(lead: { id: string; name: string; service: string }): LeadPush {
  return {
    type: 'lead',
    id: lead.id,
    name: lead.name,
    service: lead.service,
    urgent: true,
    url: `/admin/leads/${lead.id}`,
    escalated: true,
  };
}

/**
 * What a lead form posts and is answered with (receive-lead.server.ts), and
 * what the form component reads back (app/components/forms). Browser-safe:
 * types and a few names, no imports.
 */

/** Where a form's script posts, as a program would (receive-lead.server.ts). */
export const LEAD_API_PATH = '/api/leads';

/**
 * The field the form's script adds to name its form (`hero_form`,
 * `contact_form`, `quote_form`): the API then checks the fields with that
 * form's own schema and answers in the form's terms, so a refusal marks the
 * field the visitor typed.
 */
export const FORM_FIELD = 'form';

/**
 * The field in which a form's script sends its proof of work
 * (docs/forms.md#proof-of-work): the challenge and its solution, base64 JSON,
 * as ALTCHA names it. A form posted without JavaScript has none.
 */
export const PROOF_OF_WORK_FIELD = 'altcha';

/** Where a form's script fetches a challenge to solve (server/lead-api.server.ts). */
export const LEAD_CHALLENGE_PATH = '/api/leads/challenge';

/**
 * How long a challenge may be solved and sent, in minutes (the privacy
 * policy states it); a form left open longer fetches another.
 */
export const PROOF_OF_WORK_LIFETIME_MINUTES = 20;

/**
 * Dispatched on `window` by a form's scripted submission when the lead service
 * accepted an enquiry; its `detail` is the idempotency key that enquiry
 * used. The form then takes a new key, so a second, different enquiry from
 * the same form (kept on screen, or shown again from the back-forward cache)
 * is never sent under the first one's key.
 */
export const LEAD_ACCEPTED_EVENT = 'lead-form:accepted';

/** Where a successful submission leads (docs/forms.md#submission-states). */
export const THANK_YOU_PATH = '/thank-you';

/**
 * Where an urgent enquiry leads instead (docs/operations.md#urgent-enquiries,
 * docs/screens.md): the phone number first, and what to do until help arrives.
 */
export const URGENT_THANK_YOU_PATH = '/thank-you/urgent';

/** The page after an accepted enquiry, with or without JavaScript. */
export function thankYouPath(urgent: boolean): string {
  return urgent ? URGENT_THANK_YOU_PATH : THANK_YOU_PATH;
}

/** The visitor's values, echoed so a page rendered without JavaScript keeps them. */
export type LeadFormValues = Record<string, string>;

export type LeadFormResult =
  | { ok: true; created_at: string }
  | {
      ok: false;
      /** The one visitor-facing message (docs/forms.md#messages). */
      error: string;
      /** Field name → its message, for aria-invalid. */
      fields: Record<string, string>;
      values: LeadFormValues;
    };

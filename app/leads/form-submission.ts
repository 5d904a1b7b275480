/**
 * What a lead form's post is answered with (form-actions.server.ts) and
 * what the form component reads back (app/components/forms). Browser-safe:
 * types and one field name, no imports.
 */

/**
 * A hidden field the form adds only when it submits through JavaScript.
 * Without it the post is a plain browser form post, answered with a redirect
 * to /thank-you; with it an accepted lead is answered with its data, so the
 * page can send the SPEC §7 analytics events before it moves on. A field, so
 * it is visible in every test; the script also asks for JSON (Accept), which
 * decides the form of every answer, including those given before the body
 * is read.
 */
export const SCRIPTED_SUBMIT_FIELD = 'js';

/**
 * Dispatched on `window` by a form's scripted submission when the lead service
 * accepted an enquiry; its `detail` is the idempotency key that enquiry
 * used. The form then takes a new key, so a second, different enquiry from
 * the same form (kept on screen, or shown again from the back-forward cache)
 * is never sent under the first one's key.
 */
export const LEAD_ACCEPTED_EVENT = 'lead-form:accepted';

/** Where a successful submission leads (SPEC §4). */
export const THANK_YOU_PATH = '/thank-you';

/** The visitor's values, echoed so a page rendered without JavaScript keeps them. */
export type LeadFormValues = Record<string, string>;

export type LeadFormResult =
  | { ok: true; created_at: string }
  | {
      ok: false;
      /** The one visitor-facing message (SPEC §8). */
      error: string;
      /** Field name → its message, for aria-invalid. */
      fields: Record<string, string>;
      values: LeadFormValues;
    };

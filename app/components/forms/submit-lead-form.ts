import { PHOTOS_FIELD, UNEXPECTED_ERROR_MESSAGE } from '../../leads/intake/form-rules.ts';
import {
  FORM_FIELD,
  LEAD_ACCEPTED_EVENT,
  LEAD_API_PATH,
  PROOF_OF_WORK_FIELD,
  type LeadFormResult,
} from '../../leads/intake/form-submission.ts';
import { trackLeadSubmitted, type FormSource } from '../../browser/analytics.ts';
import { loadLeadValidation } from './lead-form-validation.ts';
import { takeProofOfWork } from './proof-of-work.ts';

/** The first value of each text field, as the server reads a form body. */
function firstValues(formData: FormData): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of formData.entries()) {
    if (typeof value === 'string' && !(name in fields)) fields[name] = value;
  }
  return fields;
}

/** The form's text fields as a URL-encoded body, every value in order (as a browser posts them). */
function formBody(formData: FormData): URLSearchParams {
  const body = new URLSearchParams();
  for (const [name, value] of formData.entries()) {
    if (typeof value === 'string') body.append(name, value);
  }
  return body;
}

/**
 * The photos a form's data holds under `photos`: its files, without the
 * empty entry a browser adds for a file input with nothing chosen.
 */
function photosIn(formData: FormData): File[] {
  return formData
    .getAll(PHOTOS_FIELD)
    .filter(
      (value): value is File => typeof value !== 'string' && (value.size > 0 || !!value.name),
    );
}

/**
 * The body of a form's post to /api/leads, with the form's name in `form`.
 * Without photos, the text fields URL-encoded, exactly as before photos
 * existed; with photos (docs/forms.md#photos), `multipart/form-data`: the
 * same text fields in the same order, then each photo under `photos`, so
 * the server has read every field by the time the first file arrives.
 */
export function leadRequestBody(
  formData: FormData,
  source: FormSource,
): URLSearchParams | FormData {
  const text = formBody(formData);
  text.set(FORM_FIELD, source);
  const photos = photosIn(formData);
  if (photos.length === 0) return text;
  const body = new FormData();
  for (const [name, value] of text) body.append(name, value);
  for (const photo of photos) body.append(PHOTOS_FIELD, photo, photo.name);
  return body;
}

/**
 * An answer of POST /api/leads (receive-lead.server.ts), and nothing else: an
 * accepted lead's time, or a refusal's message with the fields it names. A
 * 403 (the origin check refuses only other sites' pages) is not one.
 */
function leadAnswer(answer: unknown, status: number): LeadFormResult | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined;
  const result = answer as Record<string, unknown>;
  if (status < 300) {
    return typeof result.created_at === 'string'
      ? { ok: true, created_at: result.created_at }
      : undefined;
  }
  if (status === 403 || typeof result.error !== 'string') return undefined;
  const fields =
    typeof result.fields === 'object' && result.fields !== null
      ? (result.fields as Record<string, string>)
      : {};
  return { ok: false, error: result.error, fields, values: {} };
}

const unexpected = (): LeadFormResult => ({
  ok: false,
  error: UNEXPECTED_ERROR_MESSAGE,
  fields: {},
  values: {},
});

/**
 * A lead form's scripted submission, without a router
 * (docs/forms.md#what-a-submission-does):
 *
 * 1. the client check with the form's own schema, before anything is sent
 *    (docs/forms.md#validation; the photo picker checked the photos as
 *    they were chosen); if the validator cannot be loaded the server still
 *    checks;
 * 2. the proof of work worked out while the visitor typed
 *    (docs/forms.md#proof-of-work), waited for at most 3 s, in `altcha`;
 *    without one by then the enquiry goes without it;
 * 3. the post to POST /api/leads, on the origin of `action` (the form's own
 *    page), of the fields the browser would post without JavaScript and
 *    `form`, the form's name (multipart with the photos, if any:
 *    leadRequestBody): the API then checks them with the form's own
 *    schema and answers in its terms (the call-back form's first and last
 *    name, postal code and service type, not the lead's name and message),
 *    so a refusal marks the field the visitor typed, with the same message
 *    as the page rendered for a post without JavaScript, and a visitor whose
 *    validator did not load is still checked by the server;
 * 4. on success the analytics events
 *    (docs/analytics.md#after-a-successful-enquiry: form_submit and the
 *    conversion with created_at as the transaction id, handed on to
 *    /thank-you's conversion) and the form told to take a new idempotency
 *    key (LEAD_ACCEPTED_EVENT); the caller then moves on to /thank-you;
 * 5. a failure that is not an answer of the API (network down, a 403 from
 *    the server's origin check, a crash) becomes the unexpected-error
 *    message in the form (docs/forms.md#messages; the form stays,
 *    docs/forms.md#submission-states).
 */
export async function submitLeadForm(
  action: string,
  formData: FormData,
  source: FormSource,
): Promise<LeadFormResult> {
  const fields = firstValues(formData);
  const rules = await loadLeadValidation().catch(() => null);
  if (rules) {
    const check =
      source === 'hero_form'
        ? rules.validateCallbackForm(fields)
        : rules.validateEnquiryForm(fields);
    if (!check.ok) return { ok: false, error: check.error, fields: check.fields, values: {} };
  }
  const proof = await takeProofOfWork();
  if (proof) formData.set(PROOF_OF_WORK_FIELD, proof);

  let result: LeadFormResult;
  try {
    const body = leadRequestBody(formData, source);
    const response = await fetch(new URL(LEAD_API_PATH, new URL(action, document.baseURI)), {
      method: 'POST',
      headers: { Accept: 'application/json' },
      body,
    });
    const answer = leadAnswer(await response.json().catch(() => undefined), response.status);
    if (!answer) {
      console.error('Lead form submission got an unexpected answer', response.status);
      return unexpected();
    }
    result = answer;
  } catch (error) {
    console.error('Lead form submission failed', error);
    return unexpected();
  }
  if (!result.ok) return result;
  trackLeadSubmitted(source, result.created_at);
  window.dispatchEvent(new CustomEvent(LEAD_ACCEPTED_EVENT, { detail: fields.idempotency_key }));
  return result;
}

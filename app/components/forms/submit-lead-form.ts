import { UNEXPECTED_ERROR_MESSAGE } from '../../leads/form-rules.ts';
import { LEAD_ACCEPTED_EVENT, type LeadFormResult } from '../../leads/form-submission.ts';
import { trackLeadSubmitted, type FormSource } from '../../lib/analytics.ts';
import { loadLeadValidation } from './lead-form-validation.ts';

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

/** An answer of app/leads/form-actions.server.ts, and nothing else. */
function isLeadFormResult(answer: unknown, status: number): answer is LeadFormResult {
  if (typeof answer !== 'object' || answer === null) return false;
  const result = answer as Record<string, unknown>;
  if (result.ok === true) return status < 300 && typeof result.created_at === 'string';
  return (
    result.ok === false &&
    typeof result.error === 'string' &&
    typeof result.fields === 'object' &&
    result.fields !== null
  );
}

const unexpected = (): LeadFormResult => ({
  ok: false,
  error: UNEXPECTED_ERROR_MESSAGE,
  fields: {},
  values: {},
});

/**
 * A lead form's scripted submission, without a router (SPEC §4, §5, §7):
 *
 * 1. the client check with the form's own schema, before anything is sent
 *    (SPEC §5); if the validator cannot be loaded the server still checks;
 * 2. the post to `action`, the form's own page, as the browser would post
 *    it without JavaScript, asking for JSON (form-actions.server.ts answers
 *    a scripted post there with the same function, and only the form shape
 *    of the answer differs). Not POST /api/leads: the page answers in the
 *    form's own terms (the call-back form's first and last name, postal code
 *    and service type, not the lead's name and message), so a refusal marks
 *    the field the visitor typed, with the same SPEC §8 message as the page
 *    rendered for a post without JavaScript; and a visitor whose validator
 *    did not load is still checked by the server against the form's schema;
 * 3. on success the SPEC §7 events (form_submit and the conversion with
 *    created_at as the transaction id, handed on to /thank-you's conversion)
 *    and the form told to take a new idempotency key (LEAD_ACCEPTED_EVENT);
 *    the caller then moves on to /thank-you;
 * 4. a failure that is not an answer of the server (network down, a 403
 *    from the server's origin check, a crash) becomes SPEC §8's
 *    unexpected-error message in the form (§4: the form stays).
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

  let result: LeadFormResult;
  try {
    const response = await fetch(new URL(action, document.baseURI), {
      method: 'POST',
      headers: { Accept: 'application/json' },
      body: formBody(formData),
    });
    const answer: unknown = await response.json().catch(() => undefined);
    if (!isLeadFormResult(answer, response.status)) {
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

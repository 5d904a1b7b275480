import { redirect, type ClientActionFunctionArgs } from 'react-router';
import { UNEXPECTED_ERROR_MESSAGE } from '../../leads/form-rules.ts';
import {
  LEAD_ACCEPTED_EVENT,
  THANK_YOU_PATH,
  type LeadFormResult,
} from '../../leads/form-submission.ts';
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

/**
 * The browser half of a lead form's route action (the route exports it as
 * `clientAction`; the server half is app/leads/form-actions.server.ts):
 *
 * 1. the client check with the form's own schema, before anything is sent
 *    (SPEC §5); if the validator cannot be loaded the server still checks;
 * 2. the route's server action, which runs the lead service;
 * 3. on success the SPEC §7 events (form_submit and the conversion with
 *    created_at as the transaction id, handed on to /thank-you's conversion),
 *    the form told to take a new idempotency key (LEAD_ACCEPTED_EVENT), THEN
 *    the move to /thank-you;
 * 4. a failure that is not an answer of the action (network down, a 403 from
 *    the server's origin check, a crash) becomes SPEC §8's unexpected-error
 *    message in the form instead of the route's error page (§4: the form stays).
 */
export function leadFormClientAction(form: 'callback' | 'enquiry', source: FormSource) {
  return async ({ request, serverAction }: ClientActionFunctionArgs): Promise<LeadFormResult> => {
    // serverAction() sends the request body itself, so read a copy.
    const fields = firstValues(await request.clone().formData());
    const rules = await loadLeadValidation().catch(() => null);
    if (rules) {
      const check =
        form === 'callback'
          ? rules.validateCallbackForm(fields)
          : rules.validateEnquiryForm(fields);
      if (!check.ok) return { ok: false, error: check.error, fields: check.fields, values: {} };
    }

    let result: LeadFormResult;
    try {
      result = await serverAction<LeadFormResult>();
    } catch (error) {
      if (error instanceof Response) throw error;
      console.error('Lead form submission failed', error);
      return { ok: false, error: UNEXPECTED_ERROR_MESSAGE, fields: {}, values: {} };
    }
    if (!result.ok) return result;
    trackLeadSubmitted(source, result.created_at);
    window.dispatchEvent(new CustomEvent(LEAD_ACCEPTED_EVENT, { detail: fields.idempotency_key }));
    throw redirect(THANK_YOU_PATH);
  };
}

export const callbackClientAction = leadFormClientAction('callback', 'hero_form');
export const contactClientAction = leadFormClientAction('enquiry', 'contact_form');
export const quoteClientAction = leadFormClientAction('enquiry', 'quote_form');

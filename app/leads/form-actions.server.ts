import { randomUUID } from 'node:crypto';
import { data, redirect, type ActionFunctionArgs } from 'react-router';
import {
  API_ERROR_MESSAGES,
  isAllowedRequestOrigin,
  readLeadRequest,
} from './lead-request.server.ts';
import { leadsContext } from './context.ts';
import {
  SCRIPTED_SUBMIT_FIELD,
  THANK_YOU_PATH,
  type LeadFormResult,
  type LeadFormValues,
} from './form-submission.ts';
import {
  callbackToLead,
  enquiryToLead,
  HONEYPOT_FIELD,
  SUBMIT_FAILED_MESSAGE,
  validateCallbackForm,
  validateEnquiryForm,
  type ValidationResult,
} from './schema.ts';

/**
 * The route actions of the three lead forms (SPEC §4, §7; CONTRACT "HTTP
 * API": the site's own forms post to the same service as POST /api/leads,
 * so they work with JavaScript turned off).
 *
 * The body is read under the API's rules (16 KiB, the two content types),
 * validated with the form's own schema (the browser ran the same one), turned
 * into a lead and handed to the lead service, which validates it once more,
 * stores it and delivers it. The server never trusts the browser.
 *
 * Answers:
 * - accepted (or spam, which must look the same): a plain form post is
 *   redirected to /thank-you; a scripted one gets `{ ok: true, created_at }`
 *   so the page sends the SPEC §7 events first, then moves on itself;
 * - anything else: the visitor-facing message with the HTTP status of the API
 *   (400, 413, 415, 429, 502) and the visitor's values, so a page rendered
 *   without JavaScript shows the message and keeps what was typed.
 */

interface LeadForm<Values> {
  /** The form's field names, echoed back for the re-render. */
  fields: readonly string[];
  validate: (input: unknown) => ValidationResult<Values>;
  toLead: (values: Values) => Record<string, string>;
}

const ECHOED_HIDDEN_FIELDS = ['idempotency_key'] as const;

/** The visitor's own text fields, as posted (never the honeypot). */
function echoValues(body: unknown, fields: readonly string[]): LeadFormValues {
  const values: LeadFormValues = {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return values;
  const record = body as Record<string, unknown>;
  for (const field of [...fields, ...ECHOED_HIDDEN_FIELDS]) {
    const value = record[field];
    if (typeof value === 'string') values[field] = value;
  }
  // A plain form post on a prerendered page carries no key; the page rendered
  // with this answer does, so a second plain post of the same form is
  // recognised as a repeat.
  values.idempotency_key ||= randomUUID();
  return values;
}

function failure(
  status: number,
  error: string,
  values: LeadFormValues,
  fields: Record<string, string> = {},
) {
  return data<LeadFormResult>({ ok: false, error, fields, values }, { status });
}

async function submitLeadForm<Values>(
  { request, context }: ActionFunctionArgs,
  form: LeadForm<Values>,
) {
  const leads = context.get(leadsContext);
  if (!leads) {
    // Only when the app runs without the production server (e.g. a bare
    // `react-router dev`): there is no lead service to call.
    console.error('Lead form posted, but no lead service is configured for this server');
    return failure(502, SUBMIT_FAILED_MESSAGE, {});
  }
  // The server's originGuard refuses these first; checked again here so the
  // action is safe wherever it is mounted.
  if (!isAllowedRequestOrigin(request, leads.siteUrl)) {
    return failure(403, API_ERROR_MESSAGES.crossOrigin, {});
  }

  const read = await readLeadRequest(request);
  if (!read.ok) return failure(read.status, read.error, {});
  const body = read.body as Record<string, unknown>;
  const values = echoValues(body, form.fields);
  const scripted = typeof body === 'object' && body?.[SCRIPTED_SUBMIT_FIELD] === '1';

  // Flagged by the server's limiter (CONTRACT LEAD_RATE_LIMIT), which has
  // already set Retry-After on the response.
  if (leads.rateLimited) return failure(429, API_ERROR_MESSAGES.tooManyRequests, values);

  const validation = form.validate(body);
  if (!validation.ok) return failure(400, validation.error, values, validation.fields);

  const result = await leads.service.submit({
    ...form.toLead(validation.value),
    idempotency_key: body.idempotency_key,
    [HONEYPOT_FIELD]: body[HONEYPOT_FIELD],
  });
  switch (result.kind) {
    case 'accepted':
    case 'duplicate':
      if (!scripted) return redirect(THANK_YOU_PATH, 303);
      return data<LeadFormResult>(
        { ok: true, created_at: result.created_at },
        { status: result.status },
      );
    case 'invalid':
      return failure(400, result.error, values, result.fields);
    case 'rejected':
      return failure(502, result.error, values);
  }
}

const CALLBACK_FORM: LeadForm<Parameters<typeof callbackToLead>[0]> = {
  fields: ['firstName', 'lastName', 'email', 'phone', 'postcode', 'serviceType'],
  validate: validateCallbackForm,
  toLead: callbackToLead,
};

/** The home page's 'Let Us Call You' form. */
export function callbackAction(args: ActionFunctionArgs) {
  return submitLeadForm(args, CALLBACK_FORM);
}

/** The contact (`contact_form`) and quote (`quote_form`) pages share one form. */
export function enquiryAction(source: 'contact_form' | 'quote_form') {
  const form: LeadForm<Parameters<typeof enquiryToLead>[0]> = {
    fields: ['name', 'email', 'phone', 'service', 'message'],
    validate: validateEnquiryForm,
    toLead: (values) => enquiryToLead(values, source),
  };
  return (args: ActionFunctionArgs) => submitLeadForm(args, form);
}

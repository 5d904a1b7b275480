import { randomUUID } from 'node:crypto';
import {
  API_ERROR_MESSAGES,
  isAllowedRequestOrigin,
  readLeadRequest,
} from './lead-request.server.ts';
import type { LeadsRequestContext } from './context.ts';
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
  type LeadSource,
  type ValidationResult,
} from './schema.ts';

/**
 * The form posts of the three lead forms (SPEC §4, §7; CONTRACT "HTTP API":
 * the site's own forms post to the same service as POST /api/leads, so they
 * work with JavaScript turned off).
 *
 * submitLeadFormPost is the whole of it and knows no web framework: a Web
 * Request in, an answer out. The page that answers a post
 * (app/pages/server-rendered/[...path].astro) turns that answer into a
 * redirect, JSON for the form's script (wantsJson) or the page rendered
 * with the message.
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
 *   (400, 403, 413, 415, 429, 502) and the visitor's values, so a page
 *   rendered without JavaScript shows the message and keeps what was typed.
 */

/** What a lead form post is answered with. */
export type LeadFormPostOutcome =
  { status: number; result: LeadFormResult } | { status: 303; redirect: string };

interface LeadForm {
  /** The form's field names, echoed back for the re-render. */
  fields: readonly string[];
  /** The form's own schema, then the lead its values make. */
  check: (input: unknown) => ValidationResult<Record<string, string>>;
}

const ECHOED_HIDDEN_FIELDS = ['idempotency_key'] as const;

/** Runs a form's schema and, when it passes, turns the values into a lead. */
function leadForm<Values>(
  fields: readonly string[],
  validate: (input: unknown) => ValidationResult<Values>,
  toLead: (values: Values) => Record<string, string>,
): LeadForm {
  return {
    fields,
    check(input) {
      const validation = validate(input);
      return validation.ok ? { ok: true, value: toLead(validation.value) } : validation;
    },
  };
}

const ENQUIRY_FIELDS = ['name', 'email', 'phone', 'service', 'message'] as const;

/**
 * Each page's form by the source it records (SPEC §7's labels): the home
 * page's 'Let Us Call You' form, and the one form the contact and quote
 * pages share.
 */
const LEAD_FORMS: Record<LeadSource, LeadForm> = {
  hero_form: leadForm(
    ['firstName', 'lastName', 'email', 'phone', 'postcode', 'serviceType'],
    validateCallbackForm,
    callbackToLead,
  ),
  contact_form: leadForm(ENQUIRY_FIELDS, validateEnquiryForm, (values) =>
    enquiryToLead(values, 'contact_form'),
  ),
  quote_form: leadForm(ENQUIRY_FIELDS, validateEnquiryForm, (values) =>
    enquiryToLead(values, 'quote_form'),
  ),
};

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
): LeadFormPostOutcome {
  return { status, result: { ok: false, error, fields, values } };
}

/**
 * One post of a lead form (`form`: the page's form, by its source), with
 * or without JavaScript. `leads` is the server's lead service for this
 * request (null where the app runs without the production server).
 */
export async function submitLeadFormPost(
  request: Request,
  leads: LeadsRequestContext | null,
  form: LeadSource,
): Promise<LeadFormPostOutcome> {
  const rules = LEAD_FORMS[form];
  if (!leads) {
    // Only when the app runs without the production server (e.g. a bare
    // `astro dev`): there is no lead service to call.
    console.error('Lead form posted, but no lead service is configured for this server');
    return failure(502, SUBMIT_FAILED_MESSAGE, {});
  }
  // The server's originGuard refuses these first; checked again here so the
  // function is safe wherever it is mounted.
  if (!isAllowedRequestOrigin(request, leads.siteUrl)) {
    return failure(403, API_ERROR_MESSAGES.crossOrigin, {});
  }

  const read = await readLeadRequest(request);
  if (!read.ok) return failure(read.status, read.error, {});
  const body = read.body as Record<string, unknown>;
  const values = echoValues(body, rules.fields);
  const scripted = typeof body === 'object' && body?.[SCRIPTED_SUBMIT_FIELD] === '1';

  // Flagged by the server's limiter (CONTRACT LEAD_RATE_LIMIT), which has
  // already set Retry-After on the response.
  if (leads.rateLimited) return failure(429, API_ERROR_MESSAGES.tooManyRequests, values);

  const check = rules.check(body);
  if (!check.ok) return failure(400, check.error, values, check.fields);

  const result = await leads.service.submit({
    ...check.value,
    idempotency_key: body.idempotency_key,
    [HONEYPOT_FIELD]: body[HONEYPOT_FIELD],
  });
  switch (result.kind) {
    case 'accepted':
    case 'duplicate':
      if (!scripted) return { status: 303, redirect: THANK_YOU_PATH };
      return { status: result.status, result: { ok: true, created_at: result.created_at } };
    case 'invalid':
      return failure(400, result.error, values, result.fields);
    case 'rejected':
      return failure(502, result.error, values);
  }
}

// ---------------------------------------------------------------------------
// For the page that answers a post (app/pages/server-rendered/[...path].astro)

/**
 * Whether the post came from the form's own script, which asks for JSON
 * (use-lead-form.ts). A browser's plain form post asks for HTML. Content
 * negotiation rather than the body's `js` field, so even an answer given
 * before the body is read (403, 413, 415) reaches the script as JSON.
 */
export function wantsJson(request: Request): boolean {
  const accept = request.headers.get('accept') ?? '';
  return /\bapplication\/json\b/i.test(accept) && !/\btext\/html\b/i.test(accept);
}

import { randomUUID } from 'node:crypto';
import {
  FORM_FIELD,
  PROOF_OF_WORK_FIELD,
  thankYouPath,
  type LeadFormResult,
  type LeadFormValues,
} from './form-submission.ts';
import type { LeadService } from '../lead-service.server.ts';
import type { ProofOfWork } from './proof-of-work.server.ts';
import type { ProofVerdict } from './spam-rules.server.ts';
import { makeSafePhoto, type SafePhotoRefusal } from '../../images/safe-photo.server.ts';
import type { NewLeadPhoto } from '../../db/store.server.ts';
import {
  PHOTO_PIXELS_MESSAGE,
  PHOTO_RULES,
  PHOTO_SIZE_MESSAGE,
  PHOTO_TYPE_MESSAGE,
  PHOTO_UNREADABLE_MESSAGE,
  PHOTOS_FIELD,
  PHOTOS_NOT_TAKEN_MESSAGE,
  PHOTOS_TOO_LARGE_MESSAGE,
} from './form-rules.ts';
import { readLeadMultipart, type MultipartPart } from './multipart.server.ts';
import { ATTRIBUTION_FIELDS } from './attribution.ts';
import { firstValues, readText, type BodyRequest } from '../../http/body.server.ts';
import {
  callbackToLead,
  enquiryToLead,
  HONEYPOT_FIELD,
  LEAD_SOURCES,
  UNEXPECTED_ERROR_MESSAGE,
  URGENT_FIELD,
  validateCallbackForm,
  validateEnquiryForm,
  validateLead,
  type LeadSource,
  type ValidationResult,
} from './schema.ts';

/**
 * The one door to the lead service (docs/forms.md, docs/operations.md "HTTP
 * API"): `receiveLead` takes a request and gives its outcome, and both ways
 * in are thin adapters of it:
 *
 * - `POST /api/leads` (server/lead-api.server.ts) answers the outcome as
 *   JSON: a program's lead, or a form's fields posted by the form's script
 *   with the form's name in `form`;
 * - a form posted without JavaScript to its page (/, /contact, /quote) is
 *   answered by an on-demand page (app/pages/on-demand/*-form.astro): a
 *   redirect to /thank-you, or the page with the message and the values.
 *
 * Before either, the server's lead guards (server/lead-api.server.ts) have
 * refused a cross-origin post (403) and counted the visitor against
 * LEAD_RATE_LIMIT; the answer to a visitor over the limit is given here:
 * before the body is read, unless it is declared small (then once it is
 * read, so a page can show the message beside what was typed).
 */

export const LEAD_BODY_LIMIT_BYTES = 16 * 1024;
export const JSON_TYPE = 'application/json';
export const FORM_TYPE = 'application/x-www-form-urlencoded';
/** A lead with photos (docs/operations.md#photos-with-an-enquiry): up to PHOTO_RULES.maxMultipartBody. */
export const MULTIPART_TYPE = 'multipart/form-data';

export const API_ERROR_MESSAGES = {
  tooLarge: 'Your request is too large. Please shorten your message or call us directly.',
  unsupportedType: `Please send the form as ${FORM_TYPE}, ${MULTIPART_TYPE} or ${JSON_TYPE}.`,
  malformed: 'The request could not be read. Please try again.',
  crossOrigin: 'Submissions from other websites are not accepted.',
  tooManyRequests: 'Too many requests. Please try again later or call us directly.',
  methodNotAllowed: 'Use POST to submit a lead.',
  challengeMethod: 'Use GET to fetch a challenge.',
} as const;

// ---------------------------------------------------------------------------
// Origin check

export interface OriginHeaders {
  origin?: string | null | undefined;
  secFetchSite?: string | null | undefined;
  host?: string | null | undefined;
}

/**
 * Cross-site request forgery guard: a browser always sends Origin on a
 * cross-origin POST, so a present Origin must be the site's own (SITE_URL's
 * origin, or the origin of the Host the request was sent to). A request
 * without Origin comes from a non-browser client or an old browser, and is
 * let through. `Sec-Fetch-Site: cross-site` is refused outright.
 */
export function isAllowedOrigin(headers: OriginHeaders, siteUrl: string): boolean {
  if (headers.secFetchSite?.trim().toLowerCase() === 'cross-site') return false;
  const origin = headers.origin?.trim();
  if (!origin) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false; // includes the opaque origin "null"
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  try {
    if (parsed.origin === new URL(siteUrl).origin) return true;
  } catch {
    // An unusable SITE_URL only leaves the Host comparison.
  }
  const host = headers.host?.trim();
  if (!host) return false;
  try {
    // Normalised through URL so "example.com:80" equals "http://example.com".
    return new URL(`${parsed.protocol}//${host}`).host === parsed.host;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------
// Body reading

export function mediaType(header: string | null | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function charsetOf(header: string | null | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(header ?? '');
  return match?.[1]?.toLowerCase();
}

/** Only the three content types, in UTF-8 (the default when no charset is given). */
export function isAcceptedContentType(header: string | null | undefined): boolean {
  const type = mediaType(header);
  const charset = charsetOf(header);
  return (
    (type === JSON_TYPE || type === FORM_TYPE || type === MULTIPART_TYPE) &&
    (!charset || charset === 'utf-8')
  );
}

/** What reading a lead's body gave: its fields, or the answer to a body that cannot be read. */
export type ReadLeadRequestResult =
  | {
      ok: true;
      body: unknown;
      /** A multipart body's photos, as posted (not yet made safe), in temporary files. */
      photos?: MultipartPart[];
      /** Removes the photos' temporary files: call it once done with them. */
      discard?: () => Promise<void>;
      /** The message for `photos` when the photos were refused while reading. */
      photoError?: string;
    }
  | {
      ok: false;
      status: 400 | 413 | 415;
      error: string;
      fields?: Record<string, string>;
      /** The text fields read before stopping (a multipart body), to show them again. */
      partial?: Record<string, string>;
    };

/**
 * A lead's body, read by the one body reader (app/http/body.server.ts) for
 * both doors: the three content types in UTF-8, no content coding, at most
 * 16 KiB (declared or streamed), a multipart body (photos) at most
 * PHOTO_RULES.maxMultipartBody. 415 before a byte is read; a JSON body must
 * be an object or an array; form fields keep their first value.
 *
 * A Web Request (an Astro page's) is a LeadRequest as it is; a Node request
 * (the API's) is one with itself as its body (server/lead-api.server.ts,
 * `leadRequestOf`), read by its events without copying its headers or
 * wrapping its stream, which cost the API about a tenth of its throughput.
 */
export type LeadRequest = BodyRequest;

export async function readLeadRequest(
  request: LeadRequest,
  options: { limitBytes?: number } = {},
): Promise<ReadLeadRequestResult> {
  const limit = options.limitBytes ?? LEAD_BODY_LIMIT_BYTES;
  const header = request.headers.get('content-type');
  const type = mediaType(header);
  const coding = request.headers.get('content-encoding')?.trim().toLowerCase();
  if (!isAcceptedContentType(header) || (coding && coding !== 'identity')) {
    return { ok: false, status: 415, error: API_ERROR_MESSAGES.unsupportedType };
  }
  if (type === MULTIPART_TYPE) {
    const read = await readLeadMultipart(request, { fieldBytes: limit });
    if (read.ok) {
      return {
        ok: true,
        body: read.fields,
        photos: read.photos,
        discard: read.discard,
        ...(read.photoError ? { photoError: read.photoError } : {}),
      };
    }
    await read.discard();
    if (read.reason === 'body') return photosTooLarge(read.fields);
    if (read.reason === 'fields') {
      return { ok: false, status: 413, error: API_ERROR_MESSAGES.tooLarge, partial: read.fields };
    }
    return { ok: false, status: 400, error: API_ERROR_MESSAGES.malformed, fields: {} };
  }
  const read = await readText(request, limit);
  if (!read.ok) {
    return read.status === 413
      ? { ok: false, status: 413, error: API_ERROR_MESSAGES.tooLarge }
      : { ok: false, status: 400, error: API_ERROR_MESSAGES.malformed, fields: {} };
  }
  const text = read.value;
  if (type === FORM_TYPE) return { ok: true, body: firstValues(new URLSearchParams(text)) };
  if (text.trim() === '') return { ok: true, body: {} };
  try {
    const body: unknown = JSON.parse(text);
    // Like body-parser's strict mode: objects and arrays only.
    if (typeof body !== 'object' || body === null) throw new Error('not an object');
    return { ok: true, body };
  } catch {
    return { ok: false, status: 400, error: API_ERROR_MESSAGES.malformed, fields: {} };
  }
}

/** A multipart body over its limit: 413, the message on `photos`. */
const photosTooLarge = (partial: Record<string, string>): ReadLeadRequestResult => ({
  ok: false,
  status: 413,
  error: PHOTOS_TOO_LARGE_MESSAGE,
  fields: { [PHOTOS_FIELD]: PHOTOS_TOO_LARGE_MESSAGE },
  partial,
});

const PHOTO_REFUSAL_MESSAGES: Record<SafePhotoRefusal, string> = {
  type: PHOTO_TYPE_MESSAGE,
  size: PHOTO_SIZE_MESSAGE,
  pixels: PHOTO_PIXELS_MESSAGE,
  unreadable: PHOTO_UNREADABLE_MESSAGE,
};

/**
 * The photos made safe (app/images/safe-photo.server.ts), one after the
 * other, or the message of the first one refused.
 */
async function safePhotos(
  photos: readonly MultipartPart[],
): Promise<{ ok: true; photos: NewLeadPhoto[] } | { ok: false; error: string }> {
  const kept: NewLeadPhoto[] = [];
  for (const photo of photos) {
    const result = await makeSafePhoto({ file: photo.file }, PHOTO_RULES);
    if (!result.ok) return { ok: false, error: PHOTO_REFUSAL_MESSAGES[result.reason] };
    kept.push({ data: result.photo.data, width: result.photo.width, height: result.photo.height });
  }
  return { ok: true, photos: kept };
}

// ---------------------------------------------------------------------------
// From a request to its outcome

/** What the door needs of the server for one request. */
export interface LeadsRequestContext {
  service: LeadService;
  /** Set by the server's rate limiter (LEAD_RATE_LIMIT), which has set Retry-After. */
  rateLimited: boolean;
  /** Where an unexpected failure is reported (never with the visitor's data). */
  onError?: (error: unknown) => void;
  /**
   * Checks the proof of work a lead brings in `altcha`
   * (docs/forms.md#proof-of-work); without it every lead has none.
   */
  proofOfWork?: ProofOfWork | undefined;
}

/** What a lead request comes to; each door turns it into its own answer. */
export type LeadOutcome =
  | {
      ok: true;
      status: 200 | 201;
      id: string;
      created_at: string;
      /** docs/operations.md#urgent-enquiries: a form post leads to the urgent thank-you page. */
      urgent: boolean;
    }
  | {
      ok: false;
      status: 400 | 413 | 415 | 429 | 502;
      error: string;
      /** Field name → its message, in the terms of what was posted (the form's or the lead's). */
      fields: Record<string, string>;
      /** The visitor's own values, so a page rendered for a plain post keeps them. */
      values: LeadFormValues;
    };

interface LeadForm {
  /** The form's field names, echoed back for the re-render. */
  fields: readonly string[];
  /** The form's own schema, then the lead its values make. */
  check: (input: unknown) => ValidationResult<Record<string, unknown>>;
}

/** Runs a form's schema and, when it passes, turns the values into a lead. */
function leadForm<Values>(
  fields: readonly string[],
  validate: (input: unknown) => ValidationResult<Values>,
  toLead: (values: Values) => Record<string, unknown>,
): LeadForm {
  return {
    fields,
    check(input) {
      const validation = validate(input);
      return validation.ok ? { ok: true, value: toLead(validation.value) } : validation;
    },
  };
}

const ENQUIRY_FIELDS = ['name', 'email', 'phone', 'service', 'message', URGENT_FIELD] as const;

/**
 * Each form by the source it records (docs/analytics.md's labels): the home
 * page's 'Let Us Call You' form, and the one form the contact and quote
 * pages share.
 */
const LEAD_FORMS: Record<LeadSource, LeadForm> = {
  hero_form: leadForm(
    ['firstName', 'lastName', 'email', 'phone', 'postcode', 'serviceType', URGENT_FIELD],
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

/**
 * The page of each form, where a plain post is sent: without JavaScript
 * nothing of the visit is known but this (docs/operations.md#where-enquiries-come-from).
 */
export const FORM_PAGE_PATHS: Record<LeadSource, string> = {
  hero_form: '/',
  contact_form: '/contact',
  quote_form: '/quote',
};

/**
 * Where the enquiry came from, as the lead service is to check it: a plain
 * post's page alone (what else it claims is not the visit's), or the fields
 * the form's script sent as the site module kept them.
 */
function attributionInput(record: Record<string, unknown>, page: LeadSource | undefined) {
  if (page) return { landing: FORM_PAGE_PATHS[page] };
  return Object.fromEntries(ATTRIBUTION_FIELDS.map((field) => [field, record[field]]));
}

const isLeadSource = (value: unknown): value is LeadSource =>
  typeof value === 'string' && (LEAD_SOURCES as readonly string[]).includes(value);

/** The visitor's own text fields, as posted (never the honeypot). */
function echoValues(record: Record<string, unknown>, form: LeadForm | undefined): LeadFormValues {
  const values: LeadFormValues = {};
  for (const field of [...(form?.fields ?? []), 'idempotency_key']) {
    const value = record[field];
    if (typeof value === 'string') values[field] = value;
  }
  // A plain post from a prerendered page carries no key; the page rendered
  // with this answer does, so a second plain post of it is recognised as a repeat.
  values.idempotency_key ||= randomUUID();
  return values;
}

const refused = (
  status: Extract<LeadOutcome, { ok: false }>['status'],
  error: string,
  values: LeadFormValues = {},
  fields: Record<string, string> = {},
): LeadOutcome => ({ ok: false, status, error, fields, values });

/**
 * One lead request, from either door. `page` is the form of the page a plain
 * post was sent to; without it the body's `form` field names the form its
 * fields come from (the form's script), and a body without one is a lead
 * as a program sends it, validated by the lead service alone.
 *
 * A form's values are checked with its own schema (the browser ran the same
 * one), so a refusal names the field the visitor typed; then they become a
 * lead and go to the lead service, which checks it once more, stores it and
 * delivers it, with the verdict on its proof of work
 * (docs/forms.md#proof-of-work). Spam looks accepted.
 */
export async function receiveLead(
  request: LeadRequest,
  context: LeadsRequestContext,
  page?: LeadSource,
): Promise<LeadOutcome> {
  // Over the limit, only a body declared small (a form without photos) is
  // read, so the page can show the message beside what was typed; any other
  // is answered without a byte read (the server closes the connection).
  if (context.rateLimited && !declaredSmall(request)) {
    return refused(429, API_ERROR_MESSAGES.tooManyRequests, page ? echoValues({}, undefined) : {});
  }
  const read = await readLeadRequest(request);
  try {
    return await answerLead(read, context, page);
  } finally {
    if (read.ok) await read.discard?.();
  }
}

/** The outcome of a lead request whose body was read. */
async function answerLead(
  read: ReadLeadRequestResult,
  context: LeadsRequestContext,
  page: LeadSource | undefined,
): Promise<LeadOutcome> {
  if (!read.ok) {
    const partial = read.partial;
    const values = partial && page ? echoValues(partial, LEAD_FORMS[page]) : {};
    return refused(read.status, read.error, values, read.fields);
  }
  const body = read.body as Record<string, unknown>;
  const record = typeof body === 'object' && !Array.isArray(body) ? body : {};
  const source = page ?? (isLeadSource(record[FORM_FIELD]) ? record[FORM_FIELD] : undefined);
  const form = source ? LEAD_FORMS[source] : undefined;
  const values = echoValues(record, form);

  if (context.rateLimited) return refused(429, API_ERROR_MESSAGES.tooManyRequests, values);

  // Photos, with a multipart body: refused while reading, or by a form
  // that takes none (the call-back form), before any is decoded.
  const posted = read.photos ?? [];
  const leadSource = source ?? record.source;
  let photoError = read.photoError;
  if (!photoError && posted.length > 0 && leadSource === 'hero_form') {
    photoError = PHOTOS_NOT_TAKEN_MESSAGE;
  }
  const photoFields: Record<string, string> = photoError ? { [PHOTOS_FIELD]: photoError } : {};

  let lead: unknown = body;
  if (form) {
    const check = form.check(record);
    if (!check.ok) return refused(400, check.error, values, { ...check.fields, ...photoFields });
    lead = {
      ...check.value,
      idempotency_key: record.idempotency_key,
      [HONEYPOT_FIELD]: record[HONEYPOT_FIELD],
      ...attributionInput(record, page),
    };
  } else if (posted.length > 0 || photoError) {
    // A program's lead is checked before its photos are decoded.
    const check = validateLead(lead);
    if (!check.ok) return refused(400, check.error, values, { ...check.fields, ...photoFields });
  }
  if (photoError) return refused(400, photoError, values, photoFields);
  let photos: NewLeadPhoto[] = [];
  if (posted.length > 0) {
    const made = await safePhotos(posted);
    if (!made.ok) return refused(400, made.error, values, { [PHOTOS_FIELD]: made.error });
    photos = made.photos;
  }
  try {
    // Checked last, once the lead is whole: a valid solution is spent
    // only by a lead that reaches the lead service.
    const proof: ProofVerdict = context.proofOfWork
      ? await context.proofOfWork.check(record[PROOF_OF_WORK_FIELD])
      : 'absent';
    const result = await context.service.submit(lead, photos, { proof });
    switch (result.kind) {
      case 'accepted':
      case 'duplicate':
        return {
          ok: true,
          status: result.status,
          id: result.id,
          created_at: result.created_at,
          urgent: result.urgent,
        };
      case 'invalid':
        return refused(400, result.error, values, result.fields);
      case 'rejected':
        return refused(502, result.error, values);
    }
  } catch (error) {
    context.onError?.(error);
    return refused(502, UNEXPECTED_ERROR_MESSAGE, values);
  }
}

/** A body declared (Content-Length) no larger than a form's without photos. */
function declaredSmall(request: LeadRequest): boolean {
  const declared = request.headers.get('content-length');
  return (
    declared !== null && /^\d{1,9}$/.test(declared) && Number(declared) <= LEAD_BODY_LIMIT_BYTES
  );
}

/** What a page rendered for a plain post shows: the way on, or the form's message and values. */
export function formPostAnswer(
  outcome: LeadOutcome,
): { redirect: string } | { status: number; result: LeadFormResult } {
  if (outcome.ok) return { redirect: thankYouPath(outcome.urgent) };
  const { status, error, fields, values } = outcome;
  return { status, result: { ok: false, error, fields, values } };
}

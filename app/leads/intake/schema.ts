import { z } from 'zod';
import {
  REQUIRED_FIELDS_MESSAGE,
  INVALID_EMAIL_MESSAGE,
  NAME_LENGTH_MESSAGE,
  NAME_PART_LENGTH_MESSAGE,
  PHONE_LENGTH_MESSAGE,
  EMAIL_LENGTH_MESSAGE,
  POSTCODE_LENGTH_MESSAGE,
  MESSAGE_LENGTH_MESSAGE,
  NAME_CHARACTERS_MESSAGE,
  PHONE_CHARACTERS_MESSAGE,
  POSTCODE_CHARACTERS_MESSAGE,
  MESSAGE_CHARACTERS_MESSAGE,
  SINGLE_LINE_FORBIDDEN,
  MESSAGE_FORBIDDEN,
  SERVICE_CHOICE_MESSAGE,
  SERVICE_TYPE_CHOICE_MESSAGE,
  SOURCE_MESSAGE,
  IDEMPOTENCY_KEY_MESSAGE,
  HONEYPOT_MESSAGE,
  LIMITS,
  SERVICE_OPTIONS,
  CALLBACK_SERVICE_TYPES,
  LEAD_SOURCES,
  HONEYPOT_FIELD,
  EMAIL_PATTERN,
  URGENT_MESSAGE,
  URGENT_VALUE,
  ATTRIBUTION_MESSAGE,
  LANDING_MESSAGE,
  REFERRER_MESSAGE,
} from './form-rules.ts';
import {
  ATTRIBUTION_FORBIDDEN,
  ATTRIBUTION_MAX,
  CAMPAIGN_FIELDS,
  HOST_PATTERN,
  LANDING_PATTERN,
  type AttributionField,
} from './attribution.ts';

/**
 * The one set of rules for every lead form (docs/forms.md#validation) and for POST
 * /api/leads (docs/operations.md#http-api). The React forms read the limits for their browser
 * constraints, run the same validate*() before submitting, and the server
 * runs it again for form posts and the API.
 *
 * Browser-safe: zod only, no node imports, no React.
 */

// ---------------------------------------------------------------------------
// Messages, limits and choices live in form-rules.ts (no zod, so the forms'
// browser constraints cost no validator bytes); re-exported here unchanged.

export * from './form-rules.ts';

const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]+$/;

// ---------------------------------------------------------------------------
// Field builders

/** Missing and null read as empty, so they get the "required" message. */
const blankIfMissing = (value: unknown) => (value === undefined || value === null ? '' : value);

/** A trimmed text field; wrong types (numbers, arrays, objects) count as not filled in. */
function text() {
  return z.string({ error: REQUIRED_FIELDS_MESSAGE }).trim();
}

function requiredText(
  max: number,
  lengthMessage: string,
  options: { min?: number; forbidden: RegExp; charactersMessage: string },
) {
  let schema = text().min(1, { error: REQUIRED_FIELDS_MESSAGE });
  const min = options.min ?? 1;
  if (min > 1) schema = schema.min(min, { error: lengthMessage });
  return z.preprocess(
    blankIfMissing,
    schema
      .max(max, { error: lengthMessage })
      .refine((value) => !options.forbidden.test(value), { error: options.charactersMessage }),
  );
}

const singleLine = (charactersMessage: string, min?: number) => ({
  min,
  forbidden: SINGLE_LINE_FORBIDDEN,
  charactersMessage,
});

const nameField = () =>
  requiredText(
    LIMITS.name.max,
    NAME_LENGTH_MESSAGE,
    singleLine(NAME_CHARACTERS_MESSAGE, LIMITS.name.min),
  );
const namePartField = () =>
  requiredText(LIMITS.namePart.max, NAME_PART_LENGTH_MESSAGE, singleLine(NAME_CHARACTERS_MESSAGE));
const phoneField = () =>
  requiredText(
    LIMITS.phone.max,
    PHONE_LENGTH_MESSAGE,
    singleLine(PHONE_CHARACTERS_MESSAGE, LIMITS.phone.min),
  );
const postcodeField = () =>
  requiredText(
    LIMITS.postcode.max,
    POSTCODE_LENGTH_MESSAGE,
    singleLine(POSTCODE_CHARACTERS_MESSAGE),
  );
const messageField = () =>
  requiredText(LIMITS.message.max, MESSAGE_LENGTH_MESSAGE, {
    forbidden: MESSAGE_FORBIDDEN,
    charactersMessage: MESSAGE_CHARACTERS_MESSAGE,
  });

/**
 * docs/forms.md#the-lead-a-form-sends: email trimmed and lowercased. The length
 * cap is RFC 5321's 254.
 */
const emailField = () =>
  z.preprocess(
    blankIfMissing,
    text()
      .toLowerCase()
      .min(1, { error: REQUIRED_FIELDS_MESSAGE })
      .max(LIMITS.email.max, { error: EMAIL_LENGTH_MESSAGE })
      .regex(EMAIL_PATTERN, { error: INVALID_EMAIL_MESSAGE })
      .refine((value) => !SINGLE_LINE_FORBIDDEN.test(value), { error: INVALID_EMAIL_MESSAGE }),
  );

function choiceField<T extends string>(options: readonly T[], message: string) {
  return z.preprocess(
    blankIfMissing,
    text()
      .min(1, { error: REQUIRED_FIELDS_MESSAGE })
      .refine((value) => value === '' || (options as readonly string[]).includes(value), {
        error: message,
      })
      .transform((value) => value as T),
  );
}

/** Optional: absent, null and '' all mean "no key" (a form may send an empty hidden input). */
const idempotencyKeyField = () =>
  z.preprocess(
    (value) => (value === null || value === '' ? undefined : value),
    z
      .string({ error: IDEMPOTENCY_KEY_MESSAGE })
      .min(LIMITS.idempotencyKey.min, { error: IDEMPOTENCY_KEY_MESSAGE })
      .max(LIMITS.idempotencyKey.max, { error: IDEMPOTENCY_KEY_MESSAGE })
      .regex(IDEMPOTENCY_KEY_PATTERN, { error: IDEMPOTENCY_KEY_MESSAGE })
      .optional(),
  );

/** Honeypot: optional text; validation never mentions it to the visitor, the service decides spam. */
const honeypotField = () =>
  z.preprocess(
    (value) => (value === null ? undefined : value),
    z
      .string({ error: HONEYPOT_MESSAGE })
      .max(LIMITS.honeypot.max, { error: HONEYPOT_MESSAGE })
      .optional(),
  );

/**
 * The urgent choice (docs/operations.md#urgent-enquiries): a form's checkbox
 * sends URGENT_VALUE when ticked and nothing otherwise; a program's JSON may
 * also say true or false. Absent, null and '' mean not urgent; anything else
 * is refused, so a typo never passes for an urgent lead or hides one.
 */
const urgentField = () =>
  z.preprocess(
    (value) =>
      value === undefined || value === null || value === '' || value === false
        ? false
        : value === URGENT_VALUE || value === true
          ? true
          : value,
    z.boolean({ error: URGENT_MESSAGE }),
  );

/**
 * Where the enquiry came from (attribution.ts): optional text of at most
 * ATTRIBUTION_MAX characters, trimmed, without control characters; absent,
 * null and blank all mean not known. `shape` checks what is left, with its
 * own message (a host name is kept in lower case). Every pattern here reads
 * each character once.
 */
function attributionField(shape?: { pattern: RegExp; message: string; lower?: boolean }) {
  let schema = z.string({ error: ATTRIBUTION_MESSAGE }).trim();
  if (shape?.lower) schema = schema.toLowerCase();
  schema = schema
    .max(ATTRIBUTION_MAX, { error: ATTRIBUTION_MESSAGE })
    .refine((value) => !ATTRIBUTION_FORBIDDEN.test(value), { error: ATTRIBUTION_MESSAGE });
  if (shape) schema = schema.regex(shape.pattern, { error: shape.message });
  return z.preprocess(
    (value) =>
      value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value,
    schema.optional(),
  );
}

const attributionFields: Record<AttributionField, ReturnType<typeof attributionField>> = {
  landing: attributionField({ pattern: LANDING_PATTERN, message: LANDING_MESSAGE }),
  referrer: attributionField({ pattern: HOST_PATTERN, message: REFERRER_MESSAGE, lower: true }),
  ...(Object.fromEntries(CAMPAIGN_FIELDS.map((field) => [field, attributionField()])) as Record<
    (typeof CAMPAIGN_FIELDS)[number],
    ReturnType<typeof attributionField>
  >),
};

// ---------------------------------------------------------------------------
// Schemas

/**
 * Home "Let Us Call You" form (docs/forms.md#home-call-back-form). The opt-in
 * checkbox is never sent, so not parsed.
 */
export const callbackFormSchema = z.object(
  {
    firstName: namePartField(),
    lastName: namePartField(),
    email: emailField(),
    phone: phoneField(),
    postcode: postcodeField(),
    // docs/forms.md#home-call-back-form: the service type starts as Home Glass.
    serviceType: z.preprocess(
      (value) => (value === undefined || value === null || value === '' ? 'Home Glass' : value),
      choiceField(CALLBACK_SERVICE_TYPES, SERVICE_TYPE_CHOICE_MESSAGE),
    ),
    urgent: urgentField(),
  },
  { error: REQUIRED_FIELDS_MESSAGE },
);
export type CallbackFormValues = z.output<typeof callbackFormSchema>;

/**
 * Contact and quote forms (docs/forms.md#contact-and-quote-forms): the same
 * fields on both pages.
 */
export const enquiryFormSchema = z.object(
  {
    name: nameField(),
    email: emailField(),
    phone: phoneField(),
    service: choiceField(SERVICE_OPTIONS, SERVICE_CHOICE_MESSAGE),
    message: messageField(),
    urgent: urgentField(),
  },
  { error: REQUIRED_FIELDS_MESSAGE },
);
export type EnquiryFormValues = z.output<typeof enquiryFormSchema>;

/**
 * POST /api/leads and the lead service (docs/operations.md#http-api). The service
 * allowed depends on the source: the home form sends its service type, the
 * contact and quote forms one of the nine options.
 */
export const leadInputSchema = z
  .object(
    {
      name: nameField(),
      email: emailField(),
      phone: phoneField(),
      service: z.preprocess(
        blankIfMissing,
        text()
          .min(1, { error: REQUIRED_FIELDS_MESSAGE })
          .max(LIMITS.service.max, { error: SERVICE_CHOICE_MESSAGE }),
      ),
      message: messageField(),
      source: choiceField(LEAD_SOURCES, SOURCE_MESSAGE),
      idempotency_key: idempotencyKeyField(),
      [HONEYPOT_FIELD]: honeypotField(),
      urgent: urgentField(),
      ...attributionFields,
    },
    { error: REQUIRED_FIELDS_MESSAGE },
  )
  .superRefine((value, ctx) => {
    // Runs even when other fields failed, so guard the types.
    const { source, service } = value as { source: unknown; service: unknown };
    if (typeof service !== 'string' || service === '' || service.length > LIMITS.service.max) {
      return;
    }
    if (typeof source !== 'string' || !(LEAD_SOURCES as readonly string[]).includes(source)) {
      return;
    }
    const allowed: readonly string[] =
      source === 'hero_form' ? CALLBACK_SERVICE_TYPES : SERVICE_OPTIONS;
    if (!allowed.includes(service)) {
      ctx.addIssue({
        code: 'custom',
        path: ['service'],
        message: source === 'hero_form' ? SERVICE_TYPE_CHOICE_MESSAGE : SERVICE_CHOICE_MESSAGE,
      });
    }
  });
export type LeadInput = z.output<typeof leadInputSchema>;

// ---------------------------------------------------------------------------
// Validation results

export type ValidationResult<T> =
  { ok: true; value: T } | { ok: false; error: string; fields: Record<string, string> };

/**
 * The order in which failed rules are reported as the single visitor-facing
 * message: docs/forms.md#validation checks "all required fields" first, then
 * the email pattern; the length and choice rules (which the browser checks
 * too) follow.
 */
const MESSAGE_PRIORITY: readonly string[] = [
  REQUIRED_FIELDS_MESSAGE,
  INVALID_EMAIL_MESSAGE,
  NAME_LENGTH_MESSAGE,
  NAME_PART_LENGTH_MESSAGE,
  EMAIL_LENGTH_MESSAGE,
  PHONE_LENGTH_MESSAGE,
  POSTCODE_LENGTH_MESSAGE,
  NAME_CHARACTERS_MESSAGE,
  PHONE_CHARACTERS_MESSAGE,
  POSTCODE_CHARACTERS_MESSAGE,
  SERVICE_TYPE_CHOICE_MESSAGE,
  SERVICE_CHOICE_MESSAGE,
  MESSAGE_LENGTH_MESSAGE,
  MESSAGE_CHARACTERS_MESSAGE,
  SOURCE_MESSAGE,
  URGENT_MESSAGE,
  LANDING_MESSAGE,
  REFERRER_MESSAGE,
  ATTRIBUTION_MESSAGE,
  IDEMPOTENCY_KEY_MESSAGE,
  HONEYPOT_MESSAGE,
];

function priority(message: string): number {
  const index = MESSAGE_PRIORITY.indexOf(message);
  return index === -1 ? MESSAGE_PRIORITY.length : index;
}

/**
 * Form submissions arrive as FormData or URLSearchParams from a form post and
 * in the browser; read the first value of each text field.
 */
function toPlainInput(input: unknown): unknown {
  const isFormData = typeof FormData !== 'undefined' && input instanceof FormData;
  if (isFormData || input instanceof URLSearchParams) {
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const [key, value] of (input as FormData | URLSearchParams).entries()) {
      if (typeof value === 'string' && !(key in out)) out[key] = value;
    }
    return out;
  }
  return input;
}

function validateWith<S extends z.ZodType>(
  schema: S,
  input: unknown,
): ValidationResult<z.output<S>> {
  const result = schema.safeParse(toPlainInput(input));
  if (result.success) return { ok: true, value: result.data };

  const issues = [...result.error.issues];
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path[0];
    if (key === undefined) continue;
    const name = String(key);
    const current = fields[name];
    // One message per field: the highest-priority one (e.g. "required" over "invalid email").
    if (current === undefined || priority(issue.message) < priority(current)) {
      fields[name] = issue.message;
    }
  }
  // The first rule that fails, in that order; ties go to the earlier field.
  let first = issues[0];
  for (const issue of issues) {
    if (first === undefined || priority(issue.message) < priority(first.message)) first = issue;
  }
  const error =
    first !== undefined && priority(first.message) < MESSAGE_PRIORITY.length
      ? first.message
      : REQUIRED_FIELDS_MESSAGE;
  return { ok: false, error, fields };
}

export function validateLead(input: unknown): ValidationResult<LeadInput> {
  return validateWith(leadInputSchema, input);
}

export function validateCallbackForm(input: unknown): ValidationResult<CallbackFormValues> {
  return validateWith(callbackFormSchema, input);
}

export function validateEnquiryForm(input: unknown): ValidationResult<EnquiryFormValues> {
  return validateWith(enquiryFormSchema, input);
}

// ---------------------------------------------------------------------------
// Form values to lead input

/** How a call-back lead's message names the postal code (callbackToLead, callbackPostcode). */
const POSTCODE_LABEL = 'Postal code: ';

/**
 * docs/forms.md#the-lead-a-form-sends: name joins first and last; message
 * combines service type and postal code.
 */
export function callbackToLead(values: CallbackFormValues) {
  return {
    name: `${values.firstName} ${values.lastName}`,
    email: values.email,
    phone: values.phone,
    service: values.serviceType,
    message: `Service type: ${values.serviceType}. ${POSTCODE_LABEL}${values.postcode}`,
    source: 'hero_form' as const,
    urgent: values.urgent,
  };
}

/**
 * The postal code back out of a call-back lead's message (callbackToLead
 * writes it last), for the owner's inbox; null when there is none.
 */
export function callbackPostcode(message: string): string | null {
  const at = message.lastIndexOf(POSTCODE_LABEL);
  const code = at === -1 ? '' : message.slice(at + POSTCODE_LABEL.length).trim();
  return code || null;
}

/**
 * The contact and quote forms send the same fields; only the source differs
 * (docs/forms.md#the-three-forms).
 */
export function enquiryToLead(values: EnquiryFormValues, source: 'contact_form' | 'quote_form') {
  return { ...values, source };
}

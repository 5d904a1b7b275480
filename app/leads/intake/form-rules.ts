/**
 * The constants of the lead forms (docs/forms.md#validation, #messages): visitor-facing messages,
 * limits, choices and field names. Split from schema.ts without zod so the
 * forms can set their browser constraints from them without shipping the
 * validator in the page's first JavaScript (the home budget,
 * e2e/route-budget-and-axe.spec.ts); the forms load schema.ts on first use
 * for the client check. schema.ts
 * re-exports everything here, so both are one set of rules.
 *
 * Browser-safe: no imports.
 */

// ---------------------------------------------------------------------------
// Visitor-facing messages (docs/forms.md#messages), exported so forms and tests use the same text.

export const REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields';
export const INVALID_EMAIL_MESSAGE = 'Please enter a valid email address';
export const SUBMIT_FAILED_MESSAGE =
  'Unable to submit your request. Please try again or call us directly.';
export const UNEXPECTED_ERROR_MESSAGE = 'An unexpected error occurred. Please try again.';

export const NAME_LENGTH_MESSAGE = 'Please enter a name of 2 to 100 characters';
export const NAME_PART_LENGTH_MESSAGE =
  'Please enter a first and last name of at most 49 characters each';
export const PHONE_LENGTH_MESSAGE = 'Please enter a phone number of 8 to 20 characters';
export const EMAIL_LENGTH_MESSAGE = 'Please enter an email address of at most 254 characters';
export const POSTCODE_LENGTH_MESSAGE = 'Please enter a postal code of at most 10 characters';
export const MESSAGE_LENGTH_MESSAGE = 'Please keep your message under 1000 characters';
export const NAME_CHARACTERS_MESSAGE = 'Please enter a valid name';
export const PHONE_CHARACTERS_MESSAGE = 'Please enter a valid phone number';
export const POSTCODE_CHARACTERS_MESSAGE = 'Please enter a valid postal code';
export const MESSAGE_CHARACTERS_MESSAGE = 'Please remove unusual characters from your message';
export const SERVICE_CHOICE_MESSAGE = 'Please choose a service from the list';
export const SERVICE_TYPE_CHOICE_MESSAGE = 'Please choose Home Glass or Business Glass';
export const SOURCE_MESSAGE = 'Unknown form source';
export const IDEMPOTENCY_KEY_MESSAGE =
  'idempotency_key must be 8 to 100 characters of letters, digits, "_" or "-"';
export const HONEYPOT_MESSAGE = 'Unexpected field value';
export const PHOTO_COUNT_MESSAGE = 'Please choose at most 3 photos';
export const PHOTO_TYPE_MESSAGE = 'Please choose photos in JPEG, PNG or WebP format';
export const PHOTO_SIZE_MESSAGE = 'Please choose photos of at most 10 MB each';
export const PHOTO_PIXELS_MESSAGE = 'Please choose photos of at most 40 megapixels';
export const PHOTO_UNREADABLE_MESSAGE =
  'One of the photos could not be read. Please choose another or send it without photos.';
export const PHOTOS_TOO_LARGE_MESSAGE = 'Your photos are too large to send together';
/** The call-back form takes no photos. */
export const PHOTOS_NOT_TAKEN_MESSAGE =
  'This form takes no photos. Please send them with the contact or quote form.';
/** A program's mistake, never a visitor's: the forms' checkbox sends URGENT_VALUE or nothing. */
export const URGENT_MESSAGE = 'urgent must be "yes" (or true in JSON), or left out';
/**
 * Where the enquiry came from (attribution.ts): a program's mistake or a
 * forged post, never a visitor's (the forms send what the site module kept,
 * cut to the limit, without control characters).
 */
export const ATTRIBUTION_MESSAGE =
  'landing, referrer, utm_source, utm_medium, utm_campaign, utm_term, utm_content and gclid must each be text of at most 200 characters, without control characters';
export const LANDING_MESSAGE =
  'landing must be a path on this site with its query, starting with a single "/"';
export const REFERRER_MESSAGE = 'referrer must be a host name only, such as www.google.com';

// ---------------------------------------------------------------------------
// Limits (docs/forms.md#contact-and-quote-forms, #home-call-back-form). Forms
// set minLength/maxLength from these. zod 4 counts Unicode code points while
// the browser's maxLength counts UTF-16 units, so anything the browser lets
// through also passes here.

export const LIMITS = {
  name: { min: 2, max: 100 },
  /**
   * First and last name on the call-back form. 49 each keeps
   * `first + ' ' + last` within the 100-character name limit of the lead.
   */
  namePart: { min: 1, max: 49 },
  phone: { min: 8, max: 20 },
  email: { max: 254 },
  postcode: { max: 10 },
  message: { max: 1000 },
  /** Service names are short; the cap only keeps junk out of the store. */
  service: { max: 100 },
  idempotencyKey: { min: 8, max: 100 },
  /** Honeypot: any value marks spam, but even bots get a bounded field. */
  honeypot: { max: 2000 },
} as const;

/**
 * Service options of the contact and quote forms, in display order
 * (docs/forms.md#contact-and-quote-forms).
 */
export const SERVICE_OPTIONS = [
  'Shower Installations',
  'Windows',
  'Doors',
  'Cat Doors',
  'Splashbacks',
  'All Glass Repairs',
  'Balustrades',
  'Retrofit',
  'Pool Fence',
] as const;
export type ServiceOption = (typeof SERVICE_OPTIONS)[number];

/** Service types of the home call-back form (docs/forms.md#home-call-back-form). */
export const CALLBACK_SERVICE_TYPES = ['Home Glass', 'Business Glass'] as const;
export type CallbackServiceType = (typeof CALLBACK_SERVICE_TYPES)[number];

export const LEAD_SOURCES = ['hero_form', 'contact_form', 'quote_form'] as const;
export type LeadSource = (typeof LEAD_SOURCES)[number];

/**
 * Name of the hidden honeypot input. Real people leave it empty. It must mean
 * nothing to browser autofill and password managers: they fill fields by name,
 * id and label, and a trap they fill (`website` was one: it reads as a URL)
 * turns a real enquiry into spam (docs/forms.md#honeypot). So no word such as name, mail,
 * phone, tel, address, post, code, company, url, web, site, user or pass.
 */
export const HONEYPOT_FIELD = 'glaze_check';

/**
 * Photos with an enquiry (docs/operations.md#photos-with-an-enquiry): the
 * repeated multipart field of the contact and quote forms and of
 * `POST /api/leads`, and its limits. A kept photo is re-encoded as JPEG no
 * larger than `maxEdge` on its long edge.
 */
export const PHOTOS_FIELD = 'photos';
export const PHOTO_RULES = {
  maxCount: 3,
  maxBytes: 10 * 1024 * 1024,
  maxPixels: 40_000_000,
  maxEdge: 2048,
  /** The body limit of a multipart post (every other body: 16 KiB). */
  maxMultipartBody: 32 * 1024 * 1024,
  types: ['image/jpeg', 'image/png', 'image/webp'],
} as const;

/**
 * A job photo the owner uploads on /admin/site (docs/operations.md#site-content):
 * straight from a phone, so larger than an enquiry's; the same formats and
 * pixel limit, kept re-encoded as JPEG no larger than `maxEdge`.
 */
export const JOB_PHOTO_RULES = {
  maxBytes: 20 * 1024 * 1024,
  maxPixels: PHOTO_RULES.maxPixels,
  maxEdge: 2560,
  types: PHOTO_RULES.types,
} as const;

/**
 * Urgent enquiries (docs/operations.md#urgent-enquiries): an optional
 * checkbox on all three forms, sent as `urgent=yes`.
 */
export const URGENT_FIELD = 'urgent';
export const URGENT_VALUE = 'yes';
export const URGENT_LABEL = 'Glass broken now: I need it made safe';

/**
 * Control characters (C0, DEL, C1: among them ESC, CSI and OSC, which start
 * a terminal's escape sequences) and the bidirectional overrides that can
 * rewrite how a line reads in a terminal, a spreadsheet or an e-mail: never
 * in a single-line field (name, phone, e-mail, postal code).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const SINGLE_LINE_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
/** The same in a message, where line breaks and tabs are fine. */
export const MESSAGE_FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/**
 * docs/forms.md#email-pattern: text, at sign, text, dot, text, no spaces. Deliberately not an
 * <input pattern>: the browser would stop the post with its own bubble, and
 * the visitor would never see the message 'Please enter a valid email address'
 * (the server answers a post without JavaScript with it, the client check
 * shows it with JavaScript).
 *
 * It runs on whatever a visitor sends, even past the length limit, so it is
 * written to take linear time: after the at sign, one character, then up to
 * the first dot after it, then the rest. Each repeated part ends where the
 * next one needs a character it cannot take (the at sign, the dot, the end),
 * so a failing match never retries a run from each of its positions (the
 * plainer `[^\s@]+\.[^\s@]+$` took quadratic time on a long run of dots).
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@][^\s@.]*\.[^\s@]+$/;

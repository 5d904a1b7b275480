/**
 * Where an enquiry came from (docs/operations.md#where-enquiries-come-from):
 * the first page of the visit and the site that sent the visitor there,
 * with the campaign tags and the Google click id of that first page's
 * address. The site module keeps them for the visit (app/browser/site.ts),
 * the forms send them as fields of these names, the lead schema checks them
 * (schema.ts) and the lead keeps them as `attribution`.
 *
 * Browser-safe: no imports, so the site module takes only the names.
 */

/** The campaign tags and the click id, read from the landing page's query. */
export const CAMPAIGN_FIELDS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
  'gclid',
] as const;

/** Every field of the attribution, as the forms send it and the lead keeps it. */
export const ATTRIBUTION_FIELDS = ['landing', 'referrer', ...CAMPAIGN_FIELDS] as const;
export type AttributionField = (typeof ATTRIBUTION_FIELDS)[number];

/**
 * The lead's `attribution`: each value at most ATTRIBUTION_MAX characters,
 * null when not known. `landing` is a path on this site with its query
 * (`/?utm_source=google`), `referrer` the host name of the site the visitor
 * came from (`www.google.com`), never this site's.
 */
export type LeadAttribution = Record<AttributionField, string | null>;

/** The longest value of any attribution field. */
export const ATTRIBUTION_MAX = 200;

/**
 * Control characters and bidirectional overrides: never in an attribution
 * field. The same characters as SINGLE_LINE_FORBIDDEN (form-rules.ts, whose
 * test checks they agree), kept here so the site module, which checks what
 * it keeps, takes this small module and not the forms' rules.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const ATTRIBUTION_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** `landing`: a path on this site with its query and fragment: one "/", then no space. */
export const LANDING_PATTERN = /^\/(?!\/)\S*$/;
/**
 * `referrer`: a host name, labels of letters, digits and hyphens between
 * single dots. Each character is read once (a dot starts every repeat).
 */
export const HOST_PATTERN = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*$/i;

/** A lead of which nothing is known: a lead stored before attribution was kept. */
export const NO_ATTRIBUTION: Readonly<LeadAttribution> = {
  landing: null,
  referrer: null,
  utm_source: null,
  utm_medium: null,
  utm_campaign: null,
  utm_term: null,
  utm_content: null,
  gclid: null,
};

/** The attribution fields out of a checked lead, null for each one not given. */
export function attributionOf(
  values: Partial<Record<AttributionField, string | null | undefined>>,
): LeadAttribution {
  const attribution = { ...NO_ATTRIBUTION };
  for (const field of ATTRIBUTION_FIELDS) attribution[field] = values[field] ?? null;
  return attribution;
}

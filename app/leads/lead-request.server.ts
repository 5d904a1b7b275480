/**
 * The HTTP rules of a lead submission (CONTRACT "HTTP API") that do not
 * depend on the server framework: the visitor-facing messages, the origin
 * check, and reading a body under the API's rules from a Web Request. Used by
 * the form actions here and by POST /api/leads (server/lead-api.server.ts),
 * so both doors to the lead service apply the same rules.
 */

export const LEAD_BODY_LIMIT_BYTES = 16 * 1024;
export const JSON_TYPE = 'application/json';
export const FORM_TYPE = 'application/x-www-form-urlencoded';

export const API_ERROR_MESSAGES = {
  tooLarge: 'Your request is too large. Please shorten your message or call us directly.',
  unsupportedType: `Please send the form as ${FORM_TYPE} or ${JSON_TYPE}.`,
  malformed: 'The request could not be read. Please try again.',
  crossOrigin: 'Submissions from other websites are not accepted.',
  tooManyRequests: 'Too many requests. Please try again later or call us directly.',
  methodNotAllowed: 'Use POST to submit a lead.',
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

/** The same check for a Web Request (a form post, submitLeadFormPost in form-actions.server.ts). */
export function isAllowedRequestOrigin(request: globalThis.Request, siteUrl: string): boolean {
  return isAllowedOrigin(
    {
      origin: request.headers.get('origin'),
      secFetchSite: request.headers.get('sec-fetch-site'),
      host: request.headers.get('host') ?? new URL(request.url).host,
    },
    siteUrl,
  );
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

/** Only the two content types, in UTF-8 (the default when no charset is given). */
export function isAcceptedContentType(header: string | null | undefined): boolean {
  const type = mediaType(header);
  const charset = charsetOf(header);
  return (type === JSON_TYPE || type === FORM_TYPE) && (!charset || charset === 'utf-8');
}

/** 415 for anything but the two accepted content types, before reading a byte. */
export type ReadLeadRequestResult =
  | { ok: true; body: unknown }
  | { ok: false; status: 400 | 413 | 415; error: string; fields?: Record<string, string> };

/**
 * The body rules of the API for a Web Request (a form post, answered by
 * app/pages/server-rendered/[...path].astro through submitLeadFormPost,
 * where Express's parsers do not run): same content types, same 16 KiB limit.
 * Form fields keep their first value.
 */
export async function readLeadRequest(
  request: globalThis.Request,
  options: { limitBytes?: number } = {},
): Promise<ReadLeadRequestResult> {
  const limit = options.limitBytes ?? LEAD_BODY_LIMIT_BYTES;
  const header = request.headers.get('content-type');
  const type = mediaType(header);
  if (!isAcceptedContentType(header)) {
    return { ok: false, status: 415, error: API_ERROR_MESSAGES.unsupportedType };
  }
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await request.body?.cancel().catch(() => undefined);
    return { ok: false, status: 413, error: API_ERROR_MESSAGES.tooLarge };
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > limit) {
          await reader.cancel().catch(() => undefined);
          return { ok: false, status: 413, error: API_ERROR_MESSAGES.tooLarge };
        }
        chunks.push(value);
      }
    } catch {
      return { ok: false, status: 400, error: API_ERROR_MESSAGES.malformed, fields: {} };
    }
  }
  const text = new TextDecoder().decode(Buffer.concat(chunks));
  if (type === FORM_TYPE) {
    const fields: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const [key, value] of new URLSearchParams(text)) {
      if (!(key in fields)) fields[key] = value;
    }
    return { ok: true, body: fields };
  }
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

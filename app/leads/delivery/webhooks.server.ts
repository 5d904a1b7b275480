import { Webhook } from 'standardwebhooks';
import type { LeadAttribution, LeadRecord } from '../../db/store.server.ts';
import type { PhotoLinks } from './signed-photo-links.server.ts';
import { webhookLabel, webhookTargetKey } from './target-names.ts';
import {
  photosToSend,
  type DeliverOptions,
  type DeliveryOutcome,
  type DeliveryTarget,
  type LeadPhotoSource,
} from './targets.server.ts';

/**
 * Webhook delivery (docs/operations.md#delivery, step 2): one JSON POST
 * to an address of LEAD_WEBHOOK_URLS, with its own timeout; a 2xx answer is
 * a success. A webhook is a delivery target (targets.server.ts) used by the
 * first attempt and by the outbox alike.
 *
 * With LEAD_WEBHOOK_SECRET every request is signed the Standard Webhooks way
 * (webhook-id, webhook-timestamp, webhook-signature: HMAC-SHA256 over
 * "id.timestamp.body"), with the `standardwebhooks` library receivers use to
 * verify it. The id is the lead's, the same on every retry.
 */

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 8000;
export const DEFAULT_USER_AGENT = 'TaurangaGlassWebsite-Leads/1.0';
/** docs/forms.md#messages: the failure text carries the receiver's body, cut short. */
export const BODY_EXCERPT_CHARS = 200;
/** Never read more than this of a receiver's answer. */
const BODY_READ_LIMIT_BYTES = 4096;

/**
 * docs/operations.md#webhook-answers: answers that no retry can change. Everything else that
 * is not 2xx (408, 429, 5xx, a redirect, a dropped connection, a timeout) is
 * retried: an unknown failure must not lose a lead.
 */
export const PERMANENT_REFUSAL_STATUSES: ReadonlySet<number> = new Set([
  400, 401, 403, 404, 410, 422,
]);

/** The JSON object every webhook receives (docs/operations.md#webhook-payload). */
export interface WebhookPayload {
  id: string;
  name: string;
  email: string;
  phone: string;
  service: string;
  message: string;
  created_at: string;
  source: string;
  /** The visitor ticked "Glass broken now" (docs/operations.md#urgent-enquiries). */
  urgent: boolean;
  /**
   * Where the enquiry came from (docs/operations.md#where-enquiries-come-from):
   * the eight fields, each null when not known.
   */
  attribution: LeadAttribution;
  /** The photos sent with the enquiry, by position; empty when there are none. */
  photos: WebhookPhoto[];
  /** Only on a lead sent by `leads test-delivery`. */
  test?: true;
}

/**
 * A photo in the webhook's JSON: a signed link that works without a session
 * until 7 days after the delivery (signed-photo-links.server.ts), the JPEG's size
 * in pixels and its length in bytes.
 */
export interface WebhookPhoto {
  url: string;
  width: number;
  height: number;
  bytes: number;
}

export function toWebhookPayload(
  lead: LeadRecord,
  options: { test?: boolean | undefined; photos?: readonly WebhookPhoto[] } = {},
): WebhookPayload {
  return {
    id: lead.id,
    name: lead.name,
    email: lead.email,
    phone: lead.phone,
    service: lead.service,
    message: lead.message,
    created_at: lead.created_at,
    source: lead.source,
    urgent: lead.urgent,
    attribution: { ...lead.attribution },
    photos: [...(options.photos ?? [])],
    ...(options.test ? { test: true as const } : {}),
  };
}

/**
 * The lead's stored photos as the webhook lists them, each with a link
 * signed now. A photo the store could not keep has no link to give, so it
 * is left out.
 */
export async function webhookPhotos(
  lead: LeadRecord,
  options: DeliverOptions | undefined,
  photos: WebhookPhotoOptions | undefined,
  nowMs: number,
): Promise<WebhookPhoto[]> {
  if (!photos) return [];
  const sent = (await photosToSend(lead, options, photos.source)).filter((photo) => photo.stored);
  return Promise.all(
    sent.map(async (photo) => ({
      url: await photos.links.link(lead.id, photo.position + 1, nowMs),
      width: photo.width,
      height: photo.height,
      bytes: photo.byte_size,
    })),
  );
}

/** Loopback hosts may be plain http:// (a receiver on the same machine, tests). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    /^127(?:\.\d{1,3}){3}$/.test(host)
  );
}

/** What a webhook needs to list a lead's photos: the store, and the links' signer. */
export interface WebhookPhotoOptions {
  source: LeadPhotoSource;
  links: PhotoLinks;
}

export interface WebhookOptions {
  /** List each lead's photos as signed links; without it `photos` is always empty. */
  photos?: WebhookPhotoOptions | undefined;
  timeoutMs?: number;
  userAgent?: string;
  /** LEAD_WEBHOOK_SECRET (`whsec_…`): sign every request. */
  secret?: string | undefined;
  /** Injectable for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Milliseconds since the epoch, for Retry-After dates and signatures. */
  now?: () => number;
}

/** Reads at most a few KiB of a response as text, then lets the rest go. */
export async function readExcerpt(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < BODY_READ_LIMIT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const text = new TextDecoder().decode(Buffer.concat(chunks)).replace(/\s+/g, ' ').trim();
  return text.length > BODY_EXCERPT_CHARS ? `${text.slice(0, BODY_EXCERPT_CHARS)}…` : text;
}

export function describeError(error: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `timed out after ${timeoutMs} ms`;
  if (error instanceof Error) {
    // fetch wraps network errors: "fetch failed" with the useful part in cause.
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

/** What the owner can do about a webhook's answer, in plain words (`leads test-delivery`). */
function adviceFor(status: number): string {
  if (status === 401 || status === 403) return "check the address's token";
  if (status === 404 || status === 410) return 'check the address: the service does not know it';
  if (status === 400 || status === 422) return 'the service did not accept the enquiry it was sent';
  if (status >= 300 && status < 400) return 'the address moved: use the address it points to';
  return 'the service had a problem; real enquiries are retried for 24 hours';
}

/** Retry-After in seconds or as an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, nowMs: number): number | undefined {
  if (!header) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - nowMs) : undefined;
}

/**
 * The address itself, any part of its path or query, and its host must
 * never reach a stored row or a log: a receiver may echo the address, or
 * part of it, in an error page, and a network error names the host it could
 * not reach ("getaddrinfo ENOTFOUND <host>"). A push subscription's
 * endpoint is the same kind of secret (push.server.ts).
 */
export function withoutAddress(
  text: string,
  url: string,
  placeholder = '[webhook address]',
): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    return text.split(url).join(placeholder);
  }
  const hostLabels = parsed.hostname.split('.');
  const parts = [
    url,
    parsed.href,
    `${parsed.pathname}${parsed.search}`,
    parsed.search,
    parsed.pathname,
    // A token is a long path segment or query value…
    ...parsed.pathname.split('/'),
    ...[...parsed.searchParams.values()],
    // …or the host's first label (tok3n.hooks.example.com).
    parsed.host,
    parsed.hostname,
    ...(hostLabels.length > 2 ? [hostLabels[0] ?? ''] : []),
  ]
    .filter((part) => part.length >= 6)
    .sort((a, b) => b.length - a.length);
  let safe = text;
  for (const part of parts) safe = safe.split(part).join(placeholder);
  return safe;
}

/** POSTs the payload to one address. Never throws; the outcome says what happened. */
export async function postWebhook(
  url: string,
  payload: WebhookPayload,
  options: WebhookOptions = {},
): Promise<DeliveryOutcome> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/plain;q=0.9, */*;q=0.1',
    'User-Agent': options.userAgent ?? DEFAULT_USER_AGENT,
    // Outbox retries repeat the lead id, so receivers can de-duplicate.
    'Idempotency-Key': payload.id,
  };
  if (options.secret) {
    const id = `msg_${payload.id}`;
    const timestamp = new Date(now());
    headers['webhook-id'] = id;
    headers['webhook-timestamp'] = String(Math.floor(timestamp.getTime() / 1000));
    headers['webhook-signature'] = new Webhook(options.secret).sign(id, timestamp, body);
  }
  const controller = new AbortController();
  let timedOut = false;
  // The timeout covers the whole exchange, reading the answer included.
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  try {
    const response = await doFetch(url, {
      method: 'POST',
      headers,
      body,
      // A redirected POST would turn into a GET; count a 3xx as a failure instead.
      redirect: 'manual',
      signal: controller.signal,
    });
    const status = response.status;
    if (status >= 200 && status < 300) {
      await response.body?.cancel().catch(() => undefined);
      return { ok: true, detail: `HTTP ${status}` };
    }
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), now());
    const excerpt = await readExcerpt(response);
    const reason = response.statusText ? ` ${response.statusText}` : '';
    const error = withoutAddress(`HTTP ${status}${reason}${excerpt ? `: ${excerpt}` : ''}`, url);
    return {
      ok: false,
      permanent: PERMANENT_REFUSAL_STATUSES.has(status),
      error,
      status,
      summary: `${status}${reason}`,
      advice: adviceFor(status),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  } catch (error) {
    const message = withoutAddress(describeError(error, timedOut, timeoutMs), url);
    return {
      ok: false,
      permanent: false,
      error: message,
      summary: timedOut
        ? `no answer within ${timeoutMs / 1000} s`
        : `could not connect (${message})`,
      advice: timedOut
        ? 'check the address, and that the service answers quickly'
        : 'check the address, and that the service is running',
    };
  } finally {
    clearTimeout(timer);
  }
}

/** One address of LEAD_WEBHOOK_URLS as a delivery target; `position` counts from 0. */
export function webhookTarget(
  url: string,
  position: number,
  options: WebhookOptions = {},
): DeliveryTarget {
  return {
    key: webhookTargetKey(position),
    label: webhookLabel(position),
    async deliver(lead, deliverOptions) {
      let photos: WebhookPhoto[];
      try {
        photos = await webhookPhotos(
          lead,
          deliverOptions,
          options.photos,
          (options.now ?? Date.now)(),
        );
      } catch (error) {
        // Never sent without the photos it has: tried again like any failure.
        return {
          ok: false,
          permanent: false,
          error: `could not list the lead's photos: ${error instanceof Error ? error.message : String(error)}`,
          summary: "the lead's photos could not be read",
          advice: 'check that the lead store is running',
        };
      }
      return postWebhook(
        url,
        toWebhookPayload(lead, { test: deliverOptions?.test, photos }),
        options,
      );
    },
  };
}

/**
 * Every address of LEAD_WEBHOOK_URLS, in order, each named by its position
 * in the list; a repeated address is dropped (its position is left unused).
 */
export function webhookTargets(
  urls: readonly string[],
  options: WebhookOptions = {},
): DeliveryTarget[] {
  return urls.flatMap((url, position) =>
    urls.indexOf(url) === position ? [webhookTarget(url, position, options)] : [],
  );
}

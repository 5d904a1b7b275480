import type { LeadRecord } from './store.server.ts';

/**
 * Webhook delivery (SPEC §7 step 2, CONTRACT "Delivery" 2): one JSON POST
 * per configured address, all at once, each with its own timeout; a 2xx
 * answer is a success. Used for the immediate attempt by the lead service
 * and for retries by the outbox.
 */

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 8000;
export const DEFAULT_USER_AGENT = 'TaurangaGlassWebsite-Leads/1.0';
/** SPEC §8: the failure text carries the receiver's body, cut short. */
export const BODY_EXCERPT_CHARS = 200;
/** Never read more than this of a receiver's answer. */
const BODY_READ_LIMIT_BYTES = 4096;

/** The JSON object every webhook receives (CONTRACT "Lead record"). */
export interface WebhookPayload {
  id: string;
  name: string;
  email: string;
  phone: string;
  service: string;
  message: string;
  created_at: string;
  source: string;
}

export function toWebhookPayload(lead: LeadRecord): WebhookPayload {
  return {
    id: lead.id,
    name: lead.name,
    email: lead.email,
    phone: lead.phone,
    service: lead.service,
    message: lead.message,
    created_at: lead.created_at,
    source: lead.source,
  };
}

export interface WebhookOptions {
  timeoutMs?: number;
  userAgent?: string;
  /** Injectable for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
}

export type WebhookAttempt =
  | { url: string; ok: true; status: number }
  | { url: string; ok: false; status?: number; error: string };

/** Reads at most a few KiB of a response as text, then lets the rest go. */
async function readExcerpt(response: Response): Promise<string> {
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

function describeError(error: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `timed out after ${timeoutMs} ms`;
  if (error instanceof Error) {
    // fetch wraps network errors: "fetch failed" with the useful part in cause.
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

/** POSTs the payload to one address. Never throws; the outcome says what happened. */
export async function postWebhook(
  url: string,
  payload: WebhookPayload,
  options: WebhookOptions = {},
): Promise<WebhookAttempt> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const doFetch = options.fetch ?? fetch;
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
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/plain;q=0.9, */*;q=0.1',
        'User-Agent': options.userAgent ?? DEFAULT_USER_AGENT,
        // Outbox retries repeat the lead id, so receivers can de-duplicate.
        'Idempotency-Key': payload.id,
      },
      body: JSON.stringify(payload),
      // A redirected POST would turn into a GET; count a 3xx as a failure instead.
      redirect: 'manual',
      signal: controller.signal,
    });
    if (response.status >= 200 && response.status < 300) {
      await response.body?.cancel().catch(() => undefined);
      return { url, ok: true, status: response.status };
    }
    const excerpt = await readExcerpt(response);
    const error = `HTTP ${response.status}${excerpt ? ` ${excerpt}` : ''}`;
    return { url, ok: false, status: response.status, error };
  } catch (error) {
    return { url, ok: false, error: describeError(error, timedOut, timeoutMs) };
  } finally {
    clearTimeout(timer);
  }
}

/** POSTs to every address concurrently (CONTRACT "Delivery" 2). Never throws. */
export function postToWebhooks(
  urls: readonly string[],
  payload: WebhookPayload,
  options: WebhookOptions = {},
): Promise<WebhookAttempt[]> {
  return Promise.all(urls.map((url) => postWebhook(url, payload, options)));
}

/** SPEC §8: 'All webhooks failed' followed by each failure. Logged, never shown. */
export class AllWebhooksFailedError extends Error {
  override name = 'AllWebhooksFailedError';
  readonly attempts: readonly WebhookAttempt[];

  constructor(attempts: readonly WebhookAttempt[]) {
    const details = attempts
      .map((attempt) => `${attempt.url}: ${attempt.ok ? `HTTP ${attempt.status}` : attempt.error}`)
      .join('; ');
    super(`All webhooks failed${details ? `: ${details}` : ''}`);
    this.attempts = attempts;
  }
}

/**
 * The SPEC §7 webhook helper: sends to all and resolves with the attempts
 * when at least one answered 2xx; rejects with AllWebhooksFailedError otherwise.
 */
export async function sendLeadToWebhooks(
  urls: readonly string[],
  payload: WebhookPayload,
  options: WebhookOptions = {},
): Promise<WebhookAttempt[]> {
  const attempts = await postToWebhooks(urls, payload, options);
  if (!attempts.some((attempt) => attempt.ok)) throw new AllWebhooksFailedError(attempts);
  return attempts;
}

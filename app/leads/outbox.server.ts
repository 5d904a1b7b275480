import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import {
  storeErrorForLog,
  type ClaimedDelivery,
  type DeliveryUpdate,
  type LeadStore,
} from './store.server.ts';
import {
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  postWebhook,
  toWebhookPayload,
  type WebhookOptions,
} from './webhooks.server.ts';

/**
 * The durable outbox (CONTRACT "Delivery" 3): failed webhook deliveries of
 * ACCEPTED leads are retried first after about 5 s, then with doubling
 * waits capped at 15 minutes, for up to 24 hours after the lead was created;
 * then the delivery is marked failed. Every retry's schedule lives in the
 * store, and claims are leases that expire, so a restart (even after a
 * SIGKILL mid-delivery) picks up where the last process stopped.
 */

export interface RetryPolicy {
  /** Wait before the first retry. */
  baseDelayMs: number;
  /** Cap on any single wait. */
  maxDelayMs: number;
  /** Retries stop this long after the lead's created_at. */
  maxAgeMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseDelayMs: 5000,
  maxDelayMs: 15 * 60 * 1000,
  maxAgeMs: 24 * 60 * 60 * 1000,
};

/**
 * Wait after the `failedAttempts`-th failed attempt: base, 2×base, 4×base…,
 * never more than the cap. With the defaults: 5 s, 10 s, 20 s, … 15 min.
 */
export function retryDelayMs(
  failedAttempts: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'> = DEFAULT_RETRY_POLICY,
): number {
  const exponent = Math.max(0, Math.floor(failedAttempts) - 1);
  // 2^exponent overflows to Infinity for big exponents; min() still caps it.
  return Math.min(policy.baseDelayMs * 2 ** exponent, policy.maxDelayMs);
}

/**
 * What to do after a failed attempt: retry at the returned time, or give up
 * (null) when that time would fall beyond created_at + maxAge.
 */
export function nextRetryAt(
  createdAt: string,
  failedAttempts: number,
  nowMs: number,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): string | null {
  const deadline = Date.parse(createdAt) + policy.maxAgeMs;
  const at = nowMs + retryDelayMs(failedAttempts, policy);
  return Number.isFinite(deadline) && at <= deadline ? new Date(at).toISOString() : null;
}

export interface OutboxOptions {
  store: LeadStore;
  logger: Logger;
  /** Per-attempt webhook timeout (CONTRACT LEAD_WEBHOOK_TIMEOUT_MS). */
  timeoutMs?: number;
  /** How often to look for due deliveries (default 1 s). */
  pollIntervalMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Deliveries claimed per round. */
  batchSize?: number;
  /**
   * How long a claim stays leased. Must exceed the webhook timeout, so a
   * live worker never loses its lease mid-attempt; default timeout + 30 s.
   */
  leaseMs?: number;
  /**
   * A lead still `received` after this long was left behind by a process
   * that died mid-request; it is marked not_accepted. Default: 2 × timeout + 60 s.
   */
  receivedTimeoutMs?: number;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
  userAgent?: string;
  fetch?: WebhookOptions['fetch'];
  /** Identifies this worker's leases; defaults to host, pid and a random part. */
  owner?: string;
}

export interface Outbox {
  /** Starts polling. Idempotent. */
  start(): void;
  /** Stops polling and waits for in-flight deliveries to be recorded. */
  stop(): Promise<void>;
  /** Runs a round soon (after a new lead was committed). */
  kick(): void;
  /** Runs rounds until nothing is due; returns how many deliveries were attempted. */
  runOnce(): Promise<number>;
  /**
   * The schedule after a failed immediate attempt, used by the lead service
   * so the first retry follows the same policy as the outbox's own.
   */
  scheduleRetry(createdAt: string, failedAttempts: number): string | null;
  readonly policy: RetryPolicy;
}

export function createOutbox(options: OutboxOptions): Outbox {
  const { store, logger } = options;
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const batchSize = options.batchSize ?? 10;
  const leaseMs = options.leaseMs ?? timeoutMs + 30_000;
  const receivedTimeoutMs = options.receivedTimeoutMs ?? 2 * timeoutMs + 60_000;
  const now = options.now ?? Date.now;
  const owner = options.owner ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const log = logger.child({ component: 'lead-outbox' });

  let running = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<number> | undefined;
  let kicked = false;

  async function deliver(claim: ClaimedDelivery): Promise<void> {
    const attempts = claim.attempts + 1;
    const result = await postWebhook(claim.url, toWebhookPayload(claim.lead), {
      timeoutMs,
      userAgent: options.userAgent,
      fetch: options.fetch,
    });
    const at = now();
    let update: DeliveryUpdate;
    if (result.ok) {
      update = {
        url: claim.url,
        state: 'delivered',
        attempts,
        next_attempt_at: null,
        last_error: null,
        delivered_at: new Date(at).toISOString(),
      };
      log.info({ leadId: claim.lead_id, attempts }, 'Lead webhook delivered by the outbox');
    } else {
      const retryAt = nextRetryAt(claim.lead.created_at, attempts, at, policy);
      update = {
        url: claim.url,
        state: retryAt === null ? 'failed' : 'pending',
        attempts,
        next_attempt_at: retryAt,
        last_error: result.error,
        delivered_at: null,
      };
      if (retryAt === null) {
        // CONTRACT "Delivery" 3: retries end 24 hours after the lead.
        log.error(
          { leadId: claim.lead_id, attempts, err: new Error(`${claim.url}: ${result.error}`) },
          'Lead webhook delivery failed for good; retries exhausted',
        );
      } else {
        log.warn(
          { leadId: claim.lead_id, attempts, retryAt, error: `${claim.url}: ${result.error}` },
          'Lead webhook delivery failed; will retry',
        );
      }
    }
    const recorded = await store.recordDelivery(claim.lead_id, owner, update);
    if (!recorded) {
      log.warn({ leadId: claim.lead_id }, 'Outbox lease lost before the result was recorded');
    }
  }

  async function round(): Promise<number> {
    const at = now();
    const expired = await store.expireReceived(new Date(at - receivedTimeoutMs).toISOString());
    if (expired > 0) {
      log.warn({ count: expired }, 'Leads left undecided by a stopped process marked not accepted');
    }
    const claims = await store.claimDueDeliveries({
      owner,
      now: new Date(at).toISOString(),
      leaseUntil: new Date(at + leaseMs).toISOString(),
      limit: batchSize,
    });
    await Promise.all(
      claims.map((claim) =>
        deliver(claim).catch((error: unknown) => {
          // The lease expires and the row is claimed again; nothing is lost.
          log.error(
            { err: storeErrorForLog(error), leadId: claim.lead_id },
            'Outbox could not record a delivery',
          );
        }),
      ),
    );
    return claims.length;
  }

  async function drain(): Promise<number> {
    let total = 0;
    do {
      kicked = false;
      for (;;) {
        const count = await round();
        total += count;
        // A full batch means more may be due; stop() only lets the current round finish.
        if (count < batchSize || stopping) break;
      }
    } while (kicked && !stopping);
    return total;
  }

  /** One drain at a time per worker; a kick during a drain asks it for another pass. */
  function exclusive(): Promise<number> {
    if (current) {
      kicked = true;
      return current.then(() => 0);
    }
    const run = drain().finally(() => {
      current = undefined;
    });
    current = run;
    return run;
  }

  async function runOnce(): Promise<number> {
    while (current) await current.catch(() => undefined);
    return exclusive();
  }

  function schedule(delayMs: number): void {
    if (!running) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      exclusive()
        .catch((error: unknown) =>
          log.error({ err: storeErrorForLog(error) }, 'Outbox round failed'),
        )
        .finally(() => schedule(pollIntervalMs));
    }, delayMs);
    // Polling alone must not keep the process alive at shutdown.
    timer.unref();
  }

  return {
    policy,
    start() {
      if (running) return;
      running = true;
      stopping = false;
      schedule(0);
    },
    async stop() {
      running = false;
      stopping = true;
      clearTimeout(timer);
      timer = undefined;
      await current?.catch(() => undefined);
    },
    kick() {
      if (!running) return;
      if (current) kicked = true;
      else schedule(0);
    },
    runOnce,
    scheduleRetry: (createdAt, failedAttempts) =>
      nextRetryAt(createdAt, failedAttempts, now(), policy),
  };
}

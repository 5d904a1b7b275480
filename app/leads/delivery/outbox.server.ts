import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';
import {
  storeErrorForLog,
  type ClaimedDelivery,
  type DeliveryUpdate,
  type LeadRecord,
  type AppStore,
  type LeadWithDeliveries,
} from '../../db/store.server.ts';
import type { DeliveryOutcome, DeliveryTarget } from './targets.server.ts';
import { DEFAULT_WEBHOOK_TIMEOUT_MS } from './webhooks.server.ts';

/**
 * The durable outbox (docs/operations.md#delivery, step 3): failed deliveries of
 * ACCEPTED leads are retried on a schedule of 5 s, then doubling waits capped
 * at 15 minutes (each wait drawn at random up to that: full jitter), for up
 * to 24 hours after the lead was created; then the delivery is marked
 * failed. A permanent refusal is marked failed at once. Every retry's
 * schedule lives in the store, and claims are leases that expire, so a
 * restart (even after a SIGKILL mid-delivery) picks up where the last process
 * stopped, and several processes on one PostgreSQL deliver each lead once.
 * Only the targets configured now are delivered to: a webhook is known by
 * its position, so a new address at a position takes over the deliveries
 * waiting there; those of a target that is gone are cancelled, logged at
 * error level and reported to the owner (`onRemovedTarget`).
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
 * The longest wait after the `failedAttempts`-th failed attempt: base,
 * 2×base, 4×base…, never more than the cap. With the defaults: 5 s, 10 s,
 * 20 s, … 15 min.
 */
export function retryDelayMs(
  failedAttempts: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'> = DEFAULT_RETRY_POLICY,
): number {
  const exponent = Math.max(0, Math.floor(failedAttempts) - 1);
  // 2^exponent overflows to Infinity for big exponents; min() still caps it.
  return Math.min(policy.baseDelayMs * 2 ** exponent, policy.maxDelayMs);
}

export interface RetryOptions {
  /** The receiver's Retry-After: never retry sooner than this. */
  retryAfterMs?: number | undefined;
  /** A number in [0, 1); Math.random by default, fixed in tests. */
  random?: () => number;
  /**
   * The target's own retry window (DeliveryTarget.retryWindowMs), when
   * shorter than the policy's maxAgeMs.
   */
  maxAgeMs?: number | undefined;
}

/** The schedule of one target: the outbox's, within the target's own retry window. */
export function scheduleFor(
  target: Pick<DeliveryTarget, 'retryWindowMs'>,
  schedule: (createdAt: string, failedAttempts: number, options?: RetryOptions) => string | null,
): (createdAt: string, failedAttempts: number, options?: RetryOptions) => string | null {
  if (target.retryWindowMs === undefined) return schedule;
  const maxAgeMs = target.retryWindowMs;
  return (createdAt, failedAttempts, options) =>
    schedule(createdAt, failedAttempts, { ...options, maxAgeMs });
}

/**
 * What to do after a failed attempt: retry at the returned time, or give up
 * (null) when that time would fall beyond created_at + maxAge (or the
 * target's shorter window, options.maxAgeMs).
 *
 * Full jitter (a uniform wait between 0 and the schedule's wait): after an
 * outage, every waiting lead would otherwise come back to the receiver in
 * the same second. A receiver's Retry-After (429, 503) is honoured as the
 * earliest time.
 */
export function nextRetryAt(
  createdAt: string,
  failedAttempts: number,
  nowMs: number,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  options: RetryOptions = {},
): string | null {
  const window = Math.min(policy.maxAgeMs, options.maxAgeMs ?? Infinity);
  const deadline = Date.parse(createdAt) + window;
  const random = options.random ?? Math.random;
  const jittered = Math.floor(random() * retryDelayMs(failedAttempts, policy));
  const wait = Math.max(jittered, options.retryAfterMs ?? 0);
  const at = nowMs + wait;
  return Number.isFinite(deadline) && at <= deadline ? new Date(at).toISOString() : null;
}

export interface OutboxOptions {
  store: AppStore;
  logger: Logger;
  /** The targets configured now; pending deliveries to any other target are cancelled and reported. */
  targets: readonly DeliveryTarget[];
  /**
   * The longest a target may take (LEAD_WEBHOOK_TIMEOUT_MS, docs/operations.md#environment); leases
   * and the wait for undecided leads are derived from it.
   */
  timeoutMs?: number;
  /** How often to look for due deliveries (default 1 s). */
  pollIntervalMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Deliveries claimed per round. */
  batchSize?: number;
  /**
   * How long a claim stays leased. Must exceed the target's timeout, so a
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
  /** The jitter's random source; injectable for tests. */
  random?: () => number;
  /** Identifies this worker's leases; defaults to host, pid and a random part. */
  owner?: string;
  /** Told once when a delivery is given up for good (the owner's alert e-mail). */
  onGivenUp?: GivenUpHandler | undefined;
  /**
   * Told once per removed target when its pending deliveries are cancelled
   * (the owner's report e-mail), by the worker that cancelled them.
   */
  onRemovedTarget?: RemovedTargetHandler | undefined;
  /**
   * True while the process is too busy answering requests for background
   * work (the server passes `eventLoopBusy()`). While it is, each round waits
   * `pollIntervalMs` at a time, for at most `maxYieldMs`, then runs anyway:
   * a burst of enquiries is stored at full speed and its e-mails follow when
   * it has passed, and a load that never passes still gets a round every
   * `maxYieldMs`. Never busy by default.
   */
  busy?: () => boolean;
  /** The longest a round waits for `busy` to clear (default 10 s). */
  maxYieldMs?: number;
}

/**
 * `busy` for the outbox: the event loop was active at least `threshold` of
 * the time since the last verdict (at least `windowMs` ago; a shorter window
 * keeps the last verdict). Only the process's own loop counts, so other work
 * on the machine does not hold deliveries back.
 */
export function eventLoopBusy(threshold = 0.9, windowMs = 500): () => boolean {
  let since = performance.eventLoopUtilization();
  let verdict = false;
  return () => {
    const window = performance.eventLoopUtilization(since);
    if (window.idle + window.active < windowMs) return verdict;
    since = performance.eventLoopUtilization();
    verdict = window.utilization >= threshold;
    return verdict;
  };
}

/** A delivery given up for good: a permanent refusal, or 24 hours of retries. */
export type GivenUpHandler = (
  lead: LeadRecord,
  target: DeliveryTarget,
  outcome: Extract<DeliveryOutcome, { ok: false }>,
) => void;

/** The most leads a removed target's report lists; the error log counts them all. */
export const REMOVED_TARGET_REPORT_MAX = 50;

/** The pending deliveries of a target no longer configured, now cancelled. */
export interface RemovedTargetReport {
  /** The target's label ('webhook 3'). */
  label: string;
  /** How many deliveries were cancelled. */
  count: number;
  /**
   * Their leads, oldest first, at most REMOVED_TARGET_REPORT_MAX (none when
   * the store could not be read at that moment; `count` still says how many).
   */
  leads: LeadRecord[];
}

export type RemovedTargetHandler = (report: RemovedTargetReport) => void;

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
   * The schedule after a failed attempt, used by the lead service so the
   * first retry follows the same policy as the outbox's own.
   */
  scheduleRetry(createdAt: string, failedAttempts: number, options?: RetryOptions): string | null;
  readonly policy: RetryPolicy;
}

/**
 * The row update after an attempt of `attempts` (absolute count) on a lead
 * created at `createdAt`: delivered; failed for good (a permanent refusal, or
 * no retry left within the window); or pending again at the next time.
 */
export function deliveryUpdateAfter(
  target: string,
  outcome: DeliveryOutcome,
  attempts: number,
  createdAt: string,
  nowMs: number,
  schedule: (createdAt: string, failedAttempts: number, options?: RetryOptions) => string | null,
): DeliveryUpdate {
  const attemptedAt = new Date(nowMs).toISOString();
  if (outcome.ok && outcome.nothingToSend) {
    return {
      target,
      state: 'not_sent',
      attempts,
      next_attempt_at: null,
      last_error: null,
      delivered_at: null,
      attempted_at: attemptedAt,
    };
  }
  if (outcome.ok) {
    return {
      target,
      state: 'delivered',
      attempts,
      next_attempt_at: null,
      last_error: null,
      delivered_at: attemptedAt,
      attempted_at: attemptedAt,
    };
  }
  const retryAt = outcome.permanent
    ? null
    : schedule(createdAt, attempts, { retryAfterMs: outcome.retryAfterMs });
  return {
    target,
    state: retryAt === null ? 'failed' : 'pending',
    attempts,
    next_attempt_at: retryAt,
    last_error: outcome.permanent ? `refused: ${outcome.error}` : outcome.error,
    delivered_at: null,
    // Kept as the delivery's first failure (the e-mail outage push).
    attempted_at: attemptedAt,
  };
}

function withoutDeliveries(lead: LeadWithDeliveries): LeadRecord {
  const { deliveries: _deliveries, ...record } = lead;
  return record;
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
  const targets = new Map(options.targets.map((target) => [target.key, target]));
  const targetKeys = [...targets.keys()];
  const busy = options.busy ?? (() => false);
  const maxYieldMs = options.maxYieldMs ?? 10_000;

  let running = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<number> | undefined;
  let kicked = false;
  let cancelledChecked = false;
  /** The store failing every round is one outage, logged when it starts and when it ends. */
  let storeDown = false;

  const scheduleRetry = (createdAt: string, failedAttempts: number, retry: RetryOptions = {}) =>
    nextRetryAt(createdAt, failedAttempts, now(), policy, { random: options.random, ...retry });

  async function deliver(claim: ClaimedDelivery, target: DeliveryTarget): Promise<void> {
    const attempts = claim.attempts + 1;
    const outcome = await target.deliver(claim.lead);
    const update = deliveryUpdateAfter(
      claim.target,
      outcome,
      attempts,
      claim.lead.created_at,
      now(),
      scheduleFor(target, scheduleRetry),
    );
    const context = { leadId: claim.lead_id, target: target.label, attempts };
    if (outcome.ok && outcome.nothingToSend) {
      log.info({ ...context, detail: outcome.detail }, 'Nobody to deliver the lead to; not sent');
    } else if (outcome.ok) {
      log.info(context, 'Lead delivered by the outbox');
    } else if (update.state === 'failed') {
      // Given up for good: a permanent refusal, or 24 hours of retries
      // (docs/operations.md#delivery, step 3).
      log.error(
        { ...context, status: outcome.status, error: outcome.error },
        outcome.permanent
          ? 'Lead delivery refused for good; not retried'
          : 'Lead delivery failed for good; retries exhausted',
      );
    } else {
      log.warn(
        { ...context, retryAt: update.next_attempt_at, error: outcome.error },
        'Lead delivery failed; will retry',
      );
    }
    const recorded = await store.recordDelivery(claim.lead_id, owner, update);
    if (!recorded) {
      log.warn({ leadId: claim.lead_id }, 'Outbox lease lost before the result was recorded');
    } else if (!outcome.ok && update.state === 'failed') {
      // Only the worker that recorded it: the owner hears of it once.
      options.onGivenUp?.(claim.lead, target, outcome);
    }
  }

  /**
   * Pending deliveries to a target no longer configured (a position beyond
   * the list now, a removed e-mail) get no more retries: they are cancelled,
   * which the store does once whichever worker asks, and that worker tells
   * the log at error level and the owner.
   */
  async function cancelRemovedTargets(): Promise<void> {
    const byLabel = new Map<string, string[]>();
    for (const { label, lead_id } of await store.cancelDeliveriesExcept(targetKeys)) {
      byLabel.set(label, [...(byLabel.get(label) ?? []), lead_id]);
    }
    for (const [label, leadIds] of byLabel) {
      log.error(
        { target: label, count: leadIds.length, leadIds: leadIds.slice(0, 100) },
        'Delivery target no longer configured: its pending deliveries are cancelled; the leads stay in the store',
      );
      if (!options.onRemovedTarget) continue;
      let leads: LeadRecord[] = [];
      try {
        const found = await Promise.all(
          leadIds.slice(0, REMOVED_TARGET_REPORT_MAX).map((id) => store.getLead(id)),
        );
        leads = found
          .flatMap((lead) => (lead ? [withoutDeliveries(lead)] : []))
          .sort((a, b) => a.created_at.localeCompare(b.created_at));
      } catch (error) {
        log.warn(
          { err: storeErrorForLog(error), target: label },
          'Could not read the leads of a removed target; the report gives their number only',
        );
      }
      options.onRemovedTarget({ label, count: leadIds.length, leads });
    }
  }

  async function round(): Promise<number> {
    if (!cancelledChecked) {
      await cancelRemovedTargets();
      cancelledChecked = true;
    }
    const at = now();
    const expired = await store.expireReceived(new Date(at - receivedTimeoutMs).toISOString());
    if (expired > 0) {
      log.warn({ count: expired }, 'Leads left undecided by a stopped process marked not accepted');
    }
    if (targetKeys.length === 0) return 0;
    const claims = await store.claimDueDeliveries({
      owner,
      now: new Date(at).toISOString(),
      leaseUntil: new Date(at + leaseMs).toISOString(),
      limit: batchSize,
      targets: targetKeys,
    });
    await Promise.all(
      claims.map((claim) => {
        const target = targets.get(claim.target);
        // Claims are limited to configured targets; a lease simply expires otherwise.
        if (!target) return Promise.resolve();
        return deliver(claim, target).catch((error: unknown) => {
          // The lease expires and the row is claimed again; nothing is lost.
          log.error(
            { err: storeErrorForLog(error), leadId: claim.lead_id },
            'Outbox could not record a delivery',
          );
        });
      }),
    );
    return claims.length;
  }

  /** Waits while the process is busy, at most maxYieldMs (see OutboxOptions.busy). */
  async function yieldWhileBusy(): Promise<void> {
    const started = performance.now();
    let yielded = false;
    while (!stopping && busy() && performance.now() - started < maxYieldMs) {
      yielded = true;
      await new Promise((resolve) => setTimeout(resolve, pollIntervalMs));
    }
    if (yielded) {
      log.debug(
        { waitedMs: Math.round(performance.now() - started) },
        'Outbox waited for a busy server',
      );
    }
  }

  async function drain(): Promise<number> {
    let total = 0;
    do {
      kicked = false;
      for (;;) {
        await yieldWhileBusy();
        if (stopping) break;
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
        .then(
          () => {
            if (storeDown) log.info('Outbox reaches the lead store again');
            storeDown = false;
          },
          (error: unknown) => {
            if (!storeDown) {
              log.error(
                { err: storeErrorForLog(error) },
                'Outbox cannot reach the lead store; retrying every round',
              );
            }
            storeDown = true;
          },
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
    scheduleRetry,
  };
}

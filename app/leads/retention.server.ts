import type { Logger } from 'pino';
import { retentionCutoff, SPAM_RETENTION_DAYS } from './retention.ts';
import { storeErrorForLog, type AppStore } from '../db/store.server.ts';

/**
 * LEAD_RETENTION_DAYS (docs/operations.md#environment): the server deletes leads older than the
 * retention at start and once a day after, keeping the privacy policy's
 * promise; spam goes SPAM_RETENTION_DAYS after it was caught or moved
 * there (docs/operations.md#spam); expired rate-limit counts, spent proofs
 * of work, owner sessions and one-time links go at the same time. Deleting is
 * idempotent, so several processes on one database may all run it. A store
 * that is down is tried again an hour later.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const RETRY_MS = 60 * 60 * 1000;

export interface RetentionPurge {
  /** Purges now, then daily. */
  start(): void;
  stop(): void;
  /** One purge; resolves with the number of leads deleted (spam included). */
  runOnce(): Promise<number>;
}

export function createRetentionPurge(options: {
  store: AppStore;
  days: number;
  logger: Logger;
  intervalMs?: number;
  retryMs?: number;
  now?: () => number;
}): RetentionPurge {
  const { store, days } = options;
  const now = options.now ?? Date.now;
  const log = options.logger.child({ component: 'lead-retention' });
  let timer: NodeJS.Timeout | undefined;
  let running = false;

  async function runOnce(): Promise<number> {
    const cutoff = retentionCutoff(days, now());
    const deleted = await store.purgeCreatedBefore(cutoff);
    const spam = await store.purgeSpamBefore(retentionCutoff(SPAM_RETENTION_DAYS, now()));
    await store.purgeRateLimits();
    await store.purgeSpentProofsOfWork();
    // The owner's expired sessions and unused links (not personal data; no use kept).
    await store.purgeExpiredSignIns(new Date(now()).toISOString());
    if (deleted > 0) log.info({ deleted, cutoff, days }, 'Leads past their retention deleted');
    if (spam > 0) {
      log.info({ deleted: spam, days: SPAM_RETENTION_DAYS }, 'Spam past its retention deleted');
    }
    return deleted + spam;
  }

  function schedule(delayMs: number) {
    if (!running) return;
    timer = setTimeout(() => {
      runOnce().then(
        () => schedule(options.intervalMs ?? DAY_MS),
        (error: unknown) => {
          log.error({ err: storeErrorForLog(error) }, 'Retention purge failed; trying again later');
          schedule(options.retryMs ?? RETRY_MS);
        },
      );
    }, delayMs);
    timer.unref();
  }

  return {
    start() {
      if (running) return;
      running = true;
      schedule(0);
    },
    stop() {
      running = false;
      clearTimeout(timer);
    },
    runOnce,
  };
}

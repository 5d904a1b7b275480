import type { Logger } from 'pino';
import { storeErrorForLog } from '../../db/store.server.ts';

/**
 * A job that looks at the store now and then, one look at a time: the
 * escalation of urgent leads, the morning e-mail and the lead e-mail's
 * outage watch (docs/operations.md, "I'm on it" and escalation; follow-ups).
 *
 * `runOnce` starts a look, or joins the one under way, so a test (or the
 * timer) never runs two at once. The timer waits `intervalMs` after a look
 * ends before the next; it never keeps the process alive. A store that
 * cannot be reached is logged once, and once again when it is back, not at
 * every look. `stop` ends the timer and waits for a look under way.
 */
export interface StoreLoop<T> {
  start(): void;
  stop(): Promise<void>;
  runOnce(): Promise<T>;
}

export interface StoreLoopOptions<T> {
  /** What the log lines call it: "Escalation", "Morning e-mail". */
  name: string;
  log: Logger;
  intervalMs: number;
  /** One look. */
  look: () => Promise<T>;
}

export function createStoreLoop<T>({
  name,
  log,
  intervalMs,
  look,
}: StoreLoopOptions<T>): StoreLoop<T> {
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<T> | undefined;
  let storeDown = false;

  function runOnce(): Promise<T> {
    current ??= look().finally(() => {
      current = undefined;
    });
    return current;
  }

  function schedule(): void {
    timer = setTimeout(() => {
      runOnce()
        .then(
          () => {
            if (storeDown) log.info(`${name} reaches the lead store again`);
            storeDown = false;
          },
          (error: unknown) => {
            if (!storeDown) {
              log.error({ err: storeErrorForLog(error) }, `${name} cannot reach the lead store`);
            }
            storeDown = true;
          },
        )
        .finally(() => {
          if (timer) schedule();
        });
    }, intervalMs);
    timer.unref();
  }

  return {
    start() {
      if (!timer) schedule();
    },
    async stop() {
      clearTimeout(timer);
      timer = undefined;
      await current?.catch(() => undefined);
    },
    runOnce,
  };
}

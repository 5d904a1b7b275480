import type { Logger } from 'pino';
import type { AppStore } from '../../db/store.server.ts';
import { createStoreLoop, type StoreLoop } from './store-loop.server.ts';
import { listFollowUps } from '../../owner/follow-ups.server.ts';
import {
  MORNING_EMAIL_LISTED,
  morningLists,
  type MorningLists,
} from '../../owner/morning-email.server.ts';

/**
 * The owners' morning e-mail (docs/operations.md#follow-ups): at 7:30 New
 * Zealand time each owner is e-mailed the urgent leads nobody said "I'm on
 * it" to, the leads still new a day on and the quotes to chase; nothing
 * when all three are empty.
 *
 * Every process looks once a minute. From 7:30 on a New Zealand day (the
 * platform's time zone data says when that is, daylight saving included:
 * Intl.DateTimeFormat with Pacific/Auckland, no offset kept here), it
 * claims each owner's e-mail of that day in the store, as escalation
 * claims a lead: one conditional write that one process wins, holding for
 * `leaseMs`, marked done once sent (or found empty). So several processes
 * on one PostgreSQL send it once; a process restarted after 7:30 sends the
 * day's e-mail if nobody has; one that dies before sending leaves it to
 * another once its claim expires; one that could not send tries again at
 * the next expiry. The day is always today's: a process down all day never
 * sends yesterday's.
 */

export interface MorningEmailOptions {
  store: AppStore;
  logger: Logger;
  /** FOLLOW_UP_QUOTED_DAYS. */
  quotedDays: number;
  /** E-mails one owner the lists as they are at `now`; false when it could not be sent. */
  emailOwner: (to: string, lists: MorningLists, now: Date) => Promise<boolean>;
  /** How often to look (default a minute). */
  pollIntervalMs?: number;
  /** How long a claim holds (default 5 minutes). */
  leaseMs?: number;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
}

/** `runOnce` sends the day's e-mails due now and says how many were sent. */
export type MorningEmailLoop = StoreLoop<number>;

/** 7:30 am, in minutes since midnight. */
export const MORNING_EMAIL_AT_MINUTES = 7 * 60 + 30;

const NZ_PARTS = new Intl.DateTimeFormat('en-NZ', {
  timeZone: 'Pacific/Auckland',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** The New Zealand date (YYYY-MM-DD) of an instant, and its minutes since midnight there. */
export function nzLocalTime(at: Date): { day: string; minutes: number } {
  const parts: Record<string, string> = {};
  for (const part of NZ_PARTS.formatToParts(at)) parts[part.type] = part.value;
  return {
    day: `${parts.year}-${parts.month}-${parts.day}`,
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

export function createMorningEmail(options: MorningEmailOptions): MorningEmailLoop {
  const { store } = options;
  const log = options.logger.child({ component: 'morning-email' });
  const now = options.now ?? Date.now;
  const leaseMs = options.leaseMs ?? 5 * 60_000;
  const pollIntervalMs = options.pollIntervalMs ?? 60_000;
  /** The owners whose e-mail of `day` this process found done: not claimed again that day. */
  let finished: { day: string; owners: Set<string> } = { day: '', owners: new Set() };

  async function round(): Promise<number> {
    const at = new Date(now());
    const { day, minutes } = nzLocalTime(at);
    if (minutes < MORNING_EMAIL_AT_MINUTES) return 0;
    if (finished.day !== day) finished = { day, owners: new Set() };
    let lists: MorningLists | undefined;
    let sent = 0;
    // An owner added later in the day is claimed at the next look.
    for (const owner of await store.listOwners()) {
      if (finished.owners.has(owner.id)) continue;
      const claim = await store.claimMorningEmail({
        ownerId: owner.id,
        day,
        now: at.toISOString(),
        leaseUntil: new Date(at.getTime() + leaseMs).toISOString(),
      });
      if (claim === 'done') {
        finished.owners.add(owner.id);
        continue;
      }
      if (claim === 'held') continue;
      lists ??= morningLists(
        await listFollowUps(store, {
          now: at,
          quotedDays: options.quotedDays,
          limit: MORNING_EMAIL_LISTED,
        }),
      );
      if (lists.count === 0) {
        await store.finishMorningEmail(owner.id, day, new Date(now()).toISOString(), 0);
        finished.owners.add(owner.id);
        continue;
      }
      if (!(await options.emailOwner(owner.email, lists, at))) {
        // The claim runs out and the next look tries again.
        log.error({ ownerId: owner.id, day }, 'Morning e-mail not sent; trying again');
        continue;
      }
      await store.finishMorningEmail(owner.id, day, new Date(now()).toISOString(), lists.count);
      finished.owners.add(owner.id);
      sent += 1;
      log.info({ ownerId: owner.id, day, leads: lists.count }, 'Morning e-mail sent');
    }
    return sent;
  }

  return createStoreLoop({
    name: 'Morning e-mail',
    log,
    intervalMs: pollIntervalMs,
    look: round,
  });
}

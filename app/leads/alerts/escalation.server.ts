import type { Logger } from 'pino';
import type { AppStore, LeadRecord } from '../../db/store.server.ts';
import { SERVER_ACTOR } from '../../owner/site-activity.server.ts';
import { ACTIVITY, activity } from '../person-data.server.ts';
import { escalationPush, type PushToDevices } from './owner-push.server.ts';
import { createStoreLoop, type StoreLoop } from './store-loop.server.ts';

/**
 * Escalation (docs/operations.md, "I'm on it" and escalation): an urgent
 * lead nobody said "I'm on it" to within URGENT_ESCALATE_MINUTES is pushed
 * again to every subscribed device and e-mailed to every owner, once.
 *
 * Why a claim in the store and not a delivery row of the outbox: whether to
 * escalate depends on the lead (acknowledged? still new? spam?), decided at
 * the moment it is due, and "I'm on it" must win or lose against it
 * atomically. The claim is one conditional UPDATE on the lead's own row
 * (the acknowledgement is another), so several processes on one
 * PostgreSQL, or one process restarted, escalate each lead once, and an
 * acknowledged lead never. A delivery row would also show among the
 * lead's deliveries, its exports and the failed count, and would keep the
 * minutes configured when the lead arrived.
 *
 * A claim holds for `leaseMs`; the lead is marked escalated once sent. A
 * process that dies between the two leaves it to be claimed again when the
 * claim expires: an owner may then hear twice, never not at all. When
 * neither the push nor any e-mail got through, it is tried again at the
 * next claim, for at most an hour. With no device subscribed and no mail
 * server, there is nobody to tell: it is logged and marked, nothing more.
 */

export interface EscalationOptions {
  store: AppStore;
  logger: Logger;
  /** URGENT_ESCALATE_MINUTES. */
  minutes: number;
  /** Pushes to every subscribed device; unset: no push is set up. */
  push?: PushToDevices | undefined;
  /** E-mails one owner about the lead; false when it could not be sent. Unset: no e-mail set up. */
  emailOwner?: ((to: string, lead: LeadRecord) => Promise<boolean>) | undefined;
  /** How often to look for leads to escalate (default 15 s). */
  pollIntervalMs?: number;
  /** How long a claim holds (default 2 minutes). */
  leaseMs?: number;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
}

/** `runOnce` escalates every lead due now and says how many were escalated. */
export type Escalation = StoreLoop<number>;

/** Past this long after it was due, an escalation nothing could send is given up (and logged). */
const GIVE_UP_AFTER_MS = 60 * 60_000;

export function createEscalation(options: EscalationOptions): Escalation {
  const { store } = options;
  const log = options.logger.child({ component: 'escalation' });
  const now = options.now ?? Date.now;
  const dueAfterMs = options.minutes * 60_000;
  const leaseMs = options.leaseMs ?? 2 * 60_000;
  const pollIntervalMs = options.pollIntervalMs ?? 15_000;

  /** Pushes and e-mails it: how many devices and owners it was sent to, and how many took it. */
  async function send(lead: LeadRecord): Promise<{ tried: number; reached: number }> {
    let tried = 0;
    let reached = 0;
    if (options.push) {
      try {
        const { sent, failed } = await options.push(escalationPush(lead));
        tried += sent + failed;
        reached += sent;
      } catch (error) {
        tried += 1;
        log.error({ err: error, leadId: lead.id }, 'Escalation not pushed');
      }
    }
    if (options.emailOwner) {
      for (const owner of await store.listOwners()) {
        tried += 1;
        if (await options.emailOwner(owner.email, lead)) reached += 1;
      }
    }
    return { tried, reached };
  }

  async function escalate(lead: LeadRecord, at: number): Promise<boolean> {
    const { tried, reached } = await send(lead);
    const overdue = at - Date.parse(lead.created_at) - dueAfterMs > GIVE_UP_AFTER_MS;
    if (tried > 0 && reached === 0 && !overdue) {
      log.warn({ leadId: lead.id }, 'Escalation reached nobody; trying again');
      return false;
    }
    await store.finishEscalation(lead.id, new Date(now()).toISOString());
    if (reached === 0) {
      // No device subscribed and no mail server, or an hour of failures: nothing to note.
      if (tried > 0) log.error({ leadId: lead.id }, 'Escalation reached nobody; given up');
      else log.warn({ leadId: lead.id }, 'Urgent lead unanswered, and no phone or e-mail to tell');
      return false;
    }
    await store.recordActivity(
      activity(
        SERVER_ACTOR,
        ACTIVITY.leadEscalated,
        { lead: lead.id, minutes: options.minutes },
        new Date(now()),
      ),
    );
    log.info({ leadId: lead.id, minutes: options.minutes, reached }, 'Urgent lead escalated');
    return true;
  }

  async function round(): Promise<number> {
    let escalated = 0;
    for (;;) {
      const at = now();
      const claimed = await store.claimEscalations({
        dueBefore: new Date(at - dueAfterMs).toISOString(),
        now: new Date(at).toISOString(),
        leaseUntil: new Date(at + leaseMs).toISOString(),
        limit: 10,
      });
      const results = await Promise.all(claimed.map((lead) => escalate(lead, at)));
      escalated += results.filter(Boolean).length;
      if (claimed.length < 10) return escalated;
    }
  }

  return createStoreLoop({ name: 'Escalation', log, intervalMs: pollIntervalMs, look: round });
}

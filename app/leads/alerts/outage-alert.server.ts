import type { Logger } from 'pino';
import type { AppStore } from '../../db/store.server.ts';
import type { AlertPush, PushToDevices } from './owner-push.server.ts';
import { createStoreLoop, type StoreLoop } from './store-loop.server.ts';

/**
 * Silent failure is not silent (docs/operations.md, "I'm on it" and
 * escalation): when the lead e-mail has been failing for an hour (a
 * delivery to it pending or failed, its first failed attempt an hour old
 * or more, nothing delivered by e-mail since), every subscribed device
 * gets one push saying so, once per outage. The store decides "once"
 * (checkTargetOutage keeps one mark per outage, cleared when an e-mail is
 * delivered again), so several processes and restarts push it once.
 */

export const EMAIL_OUTAGE_PUSH: AlertPush = {
  type: 'notice',
  title: 'Enquiry e-mails are not getting through',
  body: 'New enquiries are in your inbox on the website. Tell whoever looks after your e-mail.',
  url: '/admin',
  tag: 'email-outage',
};

/** How long the e-mail must have been failing before the owners are told. */
export const OUTAGE_ALERT_AFTER_MS = 60 * 60_000;

export interface OutageWatchOptions {
  store: Pick<AppStore, 'checkTargetOutage'>;
  logger: Logger;
  /** Pushes to every subscribed device; unset: no push is set up (the outage is still logged). */
  push?: PushToDevices | undefined;
  /** The delivery target watched (default the lead e-mail's, `email`). */
  target?: string;
  /** How often to look (default a minute). */
  checkEveryMs?: number;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
}

/** `runOnce` looks now: 'alerted' when this look found a new outage (and pushed), 'outage' or 'none'. */
export type OutageWatch = StoreLoop<'alerted' | 'outage' | 'none'>;

export function createOutageWatch(options: OutageWatchOptions): OutageWatch {
  const log = options.logger.child({ component: 'outage-alert' });
  const target = options.target ?? 'email';
  const now = options.now ?? Date.now;
  async function look(): Promise<'alerted' | 'outage' | 'none'> {
    const at = now();
    const { outage, alert } = await options.store.checkTargetOutage(
      target,
      new Date(at - OUTAGE_ALERT_AFTER_MS).toISOString(),
      new Date(at).toISOString(),
    );
    if (!alert) return outage ? 'outage' : 'none';
    log.error({ target }, 'Lead e-mail failing for an hour; telling the owners’ devices');
    if (options.push) {
      try {
        const { sent, failed } = await options.push(EMAIL_OUTAGE_PUSH);
        log.info({ sent, failed }, 'E-mail outage pushed');
      } catch (error) {
        log.error({ err: error }, 'E-mail outage not pushed');
      }
    }
    return 'alerted';
  }

  return createStoreLoop({
    name: 'The e-mail outage watch',
    log,
    intervalMs: options.checkEveryMs ?? 60_000,
    look,
  });
}

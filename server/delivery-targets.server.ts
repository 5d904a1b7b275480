import type { Logger } from 'pino';
import {
  emailSender,
  shippedIdentity,
  vapidSubject,
  type IdentitySource,
} from '../app/content/served-identity.ts';
import type { AppStore } from '../app/db/store.server.ts';
import type { PushToDevices } from '../app/leads/alerts/owner-push.server.ts';
import {
  pushTarget,
  pushToEveryDevice,
  type PushSender,
} from '../app/leads/delivery/push.server.ts';
import { emailTarget, type EmailTarget } from '../app/leads/delivery/lead-email.server.ts';
import type { PhotoLinks } from '../app/leads/delivery/signed-photo-links.server.ts';
import type { DeliveryTarget, LeadPhotoSource } from '../app/leads/delivery/targets.server.ts';
import { webhookTargets } from '../app/leads/delivery/webhooks.server.ts';
import type { Env } from './env.server.ts';

/**
 * The delivery targets the environment configures (docs/operations.md#delivery):
 * each address of LEAD_WEBHOOK_URLS, then the e-mail when LEAD_EMAIL_TO is
 * set, then, given the store, the push to the owners' phones
 * (docs/operations.md#push-notifications). The server and `leads
 * test-delivery` build them the same way.
 */
export interface DeliveryTargets {
  targets: DeliveryTarget[];
  email: EmailTarget | undefined;
  /**
   * Pushes a warning or a reminder to every owner's device (the same
   * sender as the push target); undefined without the store.
   */
  pushToDevices: PushToDevices | undefined;
  close(): void;
}

export function createDeliveryTargets(
  env: Env,
  logger?: Logger,
  options: {
    tls?: { ca?: string | Buffer };
    /**
     * Where the leads' photos are, and the signer of their links: the
     * server's store. Without it (`leads test-delivery`) no photo is sent.
     */
    photos?: { source: LeadPhotoSource; links: PhotoLinks } | undefined;
    /** The business identity served now (the sender's name and default address); the shipped one without it. */
    identity?: IdentitySource;
    /**
     * The store that keeps the owners' devices and the VAPID keys: with it,
     * every lead is also pushed to the owners' phones (the server); without
     * it, not (`leads test-delivery`).
     */
    push?: Pick<
      AppStore,
      'listPushSubscriptions' | 'deletePushSubscriptionByEndpoint' | 'getOrCreateVapidKeys'
    >;
  } = {},
): DeliveryTargets {
  const targets: DeliveryTarget[] = webhookTargets(env.LEAD_WEBHOOK_URLS, {
    timeoutMs: env.LEAD_WEBHOOK_TIMEOUT_MS,
    secret: env.LEAD_WEBHOOK_SECRET,
    photos: options.photos,
  });
  const email =
    env.LEAD_EMAIL_TO.length > 0 && env.SMTP_URL
      ? emailTarget({
          smtp: env.SMTP_URL,
          to: env.LEAD_EMAIL_TO,
          sender: emailSender(options.identity ?? shippedIdentity, env.LEAD_EMAIL_FROM),
          siteUrl: env.SITE_URL,
          photos: options.photos?.source,
          timeoutMs: env.LEAD_WEBHOOK_TIMEOUT_MS,
          logger,
          tls: options.tls,
        })
      : undefined;
  if (email) targets.push(email);
  const sender: PushSender | undefined = options.push && {
    store: options.push,
    subject: vapidSubject(options.identity ?? shippedIdentity, env.VAPID_SUBJECT),
    timeoutMs: env.LEAD_WEBHOOK_TIMEOUT_MS,
    logger: logger?.child({ component: 'push' }),
  };
  if (sender) targets.push(pushTarget(sender));
  return {
    targets,
    email,
    pushToDevices: sender && pushToEveryDevice(sender),
    close: () => email?.close(),
  };
}

/*
 * The owners' phones and computers that receive a push for each enquiry
 * (docs/operations.md#push-notifications), and the site's VAPID key pair
 * that signs those pushes. Its SQLite and PostgreSQL halves are beside it.
 */

/** What a device wants pushed: every enquiry, or the urgent ones only. */
export const PUSH_NOTIFY = ['all', 'urgent'] as const;
export type PushNotify = (typeof PUSH_NOTIFY)[number];

/** The longest endpoint the store keeps (the push services' are about 200 characters). */
export const PUSH_ENDPOINT_MAX = 2000;
/** The longest device label the store keeps. */
export const PUSH_DEVICE_MAX = 100;

/**
 * A browser's push subscription (`PushSubscription.toJSON()`) for one
 * owner: where to send (the endpoint, a capability URL: anyone holding it
 * can push to the device, so it is never logged or shown), the keys to
 * encrypt to (p256dh, auth, base64url), what the device wants, and a
 * coarse label for the owner's list ("Android phone, Chrome").
 */
export interface NewPushSubscription {
  owner_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  notify: PushNotify;
  device: string;
  created_at: string;
}

export interface PushSubscriptionRecord extends NewPushSubscription {
  id: string;
}

/**
 * The site's VAPID key pair (RFC 8292), as web-push's generateVAPIDKeys()
 * makes it: the public key a 65-byte uncompressed P-256 point, the private
 * key 32 bytes, both base64url without padding.
 */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export interface PushStore {
  /**
   * Keeps a subscription for its owner. The same endpoint again (the
   * browser subscribed anew, or another owner signed in on that device)
   * replaces the earlier one, keeping its id: never two rows for one
   * endpoint. Null when the owner does not exist or was removed.
   */
  addPushSubscription(subscription: NewPushSubscription): Promise<PushSubscriptionRecord | null>;

  /** One owner's subscriptions, oldest first. */
  listOwnerPushSubscriptions(ownerId: string): Promise<PushSubscriptionRecord[]>;

  /** Every owner's subscriptions, oldest first (what a push is sent to). */
  listPushSubscriptions(): Promise<PushSubscriptionRecord[]>;

  /**
   * Deletes one subscription of this owner (the owner's "remove"); another
   * owner's is left alone. The deleted subscription, or null.
   */
  deletePushSubscription(id: string, ownerId: string): Promise<PushSubscriptionRecord | null>;

  /**
   * Deletes the subscription of this endpoint, whoever's it is: the push
   * service answered 404 or 410, so the browser has dropped it. True when
   * one was deleted.
   */
  deletePushSubscriptionByEndpoint(endpoint: string): Promise<boolean>;

  /**
   * The site's VAPID key pair: made once (web-push's generateVAPIDKeys)
   * the first time any process asks, and the same for every process on the
   * store after that, so every push is signed alike and the browsers'
   * subscriptions, made with its public key, stay valid.
   */
  getOrCreateVapidKeys(): Promise<VapidKeys>;
}

/**
 * A short, plain label for a device, from its User-Agent: the kind of
 * device and the browser ("Android phone, Chrome", "iPhone, Safari",
 * "Windows computer, Firefox"), never a version number or a model. Only
 * plain substring tests, so any header is read in linear time.
 */
export function pushDeviceLabel(userAgent: string | undefined): string {
  const ua = (userAgent ?? '').slice(0, 1000);
  const has = (word: string) => ua.includes(word);
  const device = has('iPhone')
    ? 'iPhone'
    : has('iPad')
      ? 'iPad'
      : has('Android')
        ? has('Mobile')
          ? 'Android phone'
          : 'Android tablet'
        : has('CrOS')
          ? 'Chromebook'
          : has('Macintosh') || has('Mac OS X')
            ? 'Mac'
            : has('Windows')
              ? 'Windows computer'
              : has('Linux')
                ? 'Linux computer'
                : 'Device';
  const browser = has('SamsungBrowser')
    ? 'Samsung Internet'
    : has('Edg/') || has('EdgA/') || has('EdgiOS/')
      ? 'Edge'
      : has('OPR/') || has('Opera')
        ? 'Opera'
        : has('Firefox/') || has('FxiOS/')
          ? 'Firefox'
          : has('Chrome/') || has('CriOS/') || has('Chromium/')
            ? 'Chrome'
            : has('Safari/') || device === 'iPhone' || device === 'iPad'
              ? // A web app on an iPhone's home screen leaves "Safari/" out.
                'Safari'
              : '';
  return browser ? `${device}, ${browser}` : device;
}

import { createHash } from 'node:crypto';
import { z } from 'zod';
import { PUSH_ENDPOINT_MAX } from '../db/push/push.server.ts';
import { pushDeviceLabel, type AppStore, type PushNotify } from '../db/store.server.ts';
import { isLoopbackHost } from '../leads/delivery/webhooks.server.ts';
import type { SignedInOwner } from './context.server.ts';
import { nzShortTime } from './inbox.server.ts';
import { deviceSlug } from './owner-activity.ts';

/**
 * The owner's devices that get a push for each enquiry
 * (docs/operations.md, "Owner's pages", /admin/notifications), apart from
 * their markup: a browser's subscription as POST /admin/push receives it
 * (`PushSubscription.toJSON()` and `notify`), checked before the store
 * (app/db/push) keeps it; the owner's devices in words; removing one; and
 * each change in the activity list, by the kind of device only (never the
 * endpoint, which lets whoever holds it push to the phone, nor the keys).
 */

export const PUSH_ACTIVITY = {
  added: 'push.added',
  removed: 'push.removed',
} as const;

/** What a device gets, as the page says it. */
export const NOTIFY_WORDS: Record<PushNotify, string> = {
  all: 'Every enquiry',
  urgent: 'Urgent enquiries only',
};

/** A subscription's keys: base64url (padding allowed, as some browsers send it), bounded. */
const BASE64URL = /^[A-Za-z0-9_-]{1,200}={0,2}$/;
const keyOf = (bytes: number, first?: number) =>
  z
    .string()
    .regex(BASE64URL)
    .refine((value) => {
      const decoded = Buffer.from(value, 'base64url');
      return decoded.length === bytes && (first === undefined || decoded[0] === first);
    });

/** Where the push service takes the device's pushes: https, or plain http on this machine (the tests' stand-in). */
const endpointSchema = z
  .string()
  .max(PUSH_ENDPOINT_MAX)
  .refine((value) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return false;
    }
    if (url.username !== '' || url.password !== '') return false;
    return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  });

const subscriptionSchema = z.object({
  endpoint: endpointSchema,
  keys: z.object({
    // An uncompressed P-256 public key (RFC 8291): 65 bytes, the first 4.
    p256dh: keyOf(65, 4),
    // The authentication secret: 16 bytes.
    auth: keyOf(16),
  }),
  notify: z.enum(['all', 'urgent']),
});

export interface PushSubscriptionInput {
  endpoint: string;
  p256dh: string;
  auth: string;
  notify: PushNotify;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const REFUSED: Record<string, string> = {
  endpoint:
    'This browser’s notification address cannot be used. Try again, or use another browser.',
  keys: 'This browser did not send what notifications need. Try again, or use another browser.',
  notify: 'Choose “Every enquiry” or “Urgent enquiries only”.',
};

/** A subscription as a browser posts it, checked; or why not, in plain words. */
export function parsePushSubscription(body: unknown): Parsed<PushSubscriptionInput> {
  const parsed = subscriptionSchema.safeParse(body);
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]?.path[0] ?? 'keys');
    return { ok: false, message: REFUSED[field] ?? REFUSED.keys! };
  }
  const { endpoint, keys, notify } = parsed.data;
  return { ok: true, value: { endpoint, p256dh: keys.p256dh, auth: keys.auth, notify } };
}

/** The kind of device in a label ("Android phone, Chrome"), as the activity list keeps it: `android-phone`. */
function deviceKind(label: string): string {
  return deviceSlug(label.split(',')[0] ?? '');
}

/**
 * Keeps a browser's subscription for the owner (the same browser again
 * replaces its earlier one: what it gets may change), labelled from its
 * User-Agent, and notes it in the activity list.
 */
export async function addPushDevice(
  store: AppStore,
  owner: SignedInOwner,
  body: unknown,
  userAgent: string | undefined,
  now = new Date(),
): Promise<Parsed<{ id: string }>> {
  const parsed = parsePushSubscription(body);
  if (!parsed.ok) return parsed;
  const device = pushDeviceLabel(userAgent);
  const at = now.toISOString();
  const kept = await store.addPushSubscription({
    owner_id: owner.id,
    ...parsed.value,
    device,
    created_at: at,
  });
  if (!kept) return { ok: false, message: 'You are no longer an owner here.' };
  await store.recordActivity({
    at,
    actor: owner.email,
    action: PUSH_ACTIVITY.added,
    detail: `device=${deviceKind(device)},notify=${parsed.value.notify}`,
  });
  return { ok: true, value: { id: kept.id } };
}

/** Removes one of the owner's own devices; false when it is not theirs or already gone. */
export async function removePushDevice(
  store: AppStore,
  owner: SignedInOwner,
  id: string,
  now = new Date(),
): Promise<boolean> {
  const removed = await store.deletePushSubscription(id, owner.id);
  if (!removed) return false;
  await store.recordActivity({
    at: now.toISOString(),
    actor: owner.email,
    action: PUSH_ACTIVITY.removed,
    detail: `device=${deviceKind(removed.device)}`,
  });
  return true;
}

/** One of the owner's devices as the Notifications page lists it. */
export interface PushDevice {
  id: string;
  label: string;
  /** When it was added, New Zealand time. */
  added: string;
  addedAt: string;
  gets: string;
  /**
   * A mark of its subscription (the first 16 characters of the endpoint's
   * SHA-256, base64url), so the page's script can say which one is this
   * phone; it opens nothing, unlike the endpoint itself.
   */
  mark: string;
}

/** The mark of a subscription's endpoint (PushDevice.mark), as the page's script makes it too. */
export function endpointMark(endpoint: string): string {
  return createHash('sha256').update(endpoint, 'utf8').digest('base64url').slice(0, 16);
}

export async function listPushDevices(store: AppStore, ownerId: string): Promise<PushDevice[]> {
  const rows = await store.listOwnerPushSubscriptions(ownerId);
  return rows.map((row) => ({
    id: row.id,
    label: row.device,
    added: nzShortTime(row.created_at),
    addedAt: row.created_at,
    gets: NOTIFY_WORDS[row.notify],
    mark: endpointMark(row.endpoint),
  }));
}

/** Whether any owner's device gets enquiry alerts (the inbox says so when none does). */
export async function anyPushDevice(store: AppStore): Promise<boolean> {
  return (await store.listPushSubscriptions()).length > 0;
}

import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import webpush from 'web-push';
import { z } from 'zod';
import type {
  AppStore,
  LeadRecord,
  PushSubscriptionRecord,
  VapidKeys,
} from '../../db/store.server.ts';
import type { PushToDevices } from '../alerts/owner-push.server.ts';
import type { DeliveryOutcome, DeliveryTarget } from './targets.server.ts';
import {
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  describeError,
  isLoopbackHost,
  parseRetryAfter,
  readExcerpt,
  withoutAddress,
} from './webhooks.server.ts';

/**
 * The push to the owners' phones (docs/operations.md#push-notifications):
 * every lead that is not spam, to each device that wants it, as a delivery
 * target of the outbox. web-push signs each request (VAPID, RFC 8292) and
 * encrypts the payload to the device (RFC 8291, aes128gcm): its
 * generateRequestDetails gives the request sendNotification would send,
 * and fetch sends it, so a plain http:// endpoint on a loopback address
 * (the tests' push service) is reached as well as an https:// one, with
 * the webhooks' timeout and handling of answers.
 *
 * An endpoint is a capability URL: whoever holds it can push to that
 * device. Like a webhook's address it is never logged or stored anywhere
 * but its subscription's row; failures name the device by its row's id.
 */

/** The push target's key and label in the delivery rows, logs and exports. */
export const PUSH_TARGET_KEY = 'push';
export const PUSH_TARGET_LABEL = 'push';

/** A failed push is retried for this long after the lead came in; then the news is stale. */
export const PUSH_RETRY_WINDOW_MS = 10 * 60 * 1000;

/** How long a push service keeps a push for a device that is off or out of reach (seconds). */
export const PUSH_TTL_SECONDS = 10 * 60;

/**
 * Answers of a push service no retry can change, besides 404 and 410 (the
 * subscription is gone, and deleted): a malformed request, a VAPID key the
 * subscription was not made with, a payload too large.
 */
export const PUSH_PERMANENT_STATUSES: ReadonlySet<number> = new Set([400, 401, 403, 413]);

/** A VAPID subject Apple accepts: a mailto: address, or an https:// URL not on localhost. */
export function isVapidSubject(value: string): boolean {
  if (value.startsWith('mailto:'))
    return z.email().safeParse(value.slice('mailto:'.length)).success;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '' && !isLoopbackHost(url.hostname);
  } catch {
    return false;
  }
}

/**
 * Whether a subscription's endpoint may be pushed to: `https://`, or plain
 * `http://` on a loopback address only, as for webhooks; never with a user
 * name or password.
 */
export function isPushEndpointAllowed(endpoint: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username !== '' || url.password !== '') return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
}

/** What the service worker receives for a lead, encrypted to each device. */
export interface LeadPushPayload {
  type: 'lead';
  id: string;
  name: string;
  service: string;
  urgent: boolean;
  /** The lead's page among the owner's pages. */
  url: string;
}

export function leadPushPayload(lead: LeadRecord): LeadPushPayload {
  return {
    type: 'lead',
    id: lead.id,
    name: lead.name,
    service: lead.service,
    urgent: lead.urgent,
    url: `/admin/leads/${lead.id}`,
  };
}

/**
 * A push's Topic header (RFC 8030 §5.4: at most 32 characters of base64url):
 * a push service keeps only the newest undelivered push of a topic, so a
 * retry replaces the copy still waiting for a device instead of adding one.
 * Derived from what the push is about (`kind`: 'lead', 'escalation'…) and
 * its id, so each kind of push of one lead has its own.
 */
export function pushTopic(kind: string, id: string): string {
  return createHash('sha256').update(`${kind}:${id}`).digest('base64url').slice(0, 32);
}

/** What pushToOwnerDevices needs: the store, who signs, and how long to wait. */
export interface PushSender {
  store: Pick<
    AppStore,
    'listPushSubscriptions' | 'deletePushSubscriptionByEndpoint' | 'getOrCreateVapidKeys'
  >;
  /** The VAPID subject, read at each push: VAPID_SUBJECT, or mailto: the served business e-mail. */
  subject: () => string;
  /** The longest one device's push may take (LEAD_WEBHOOK_TIMEOUT_MS). */
  timeoutMs?: number | undefined;
  logger?: Logger | undefined;
  /** Injectable for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Milliseconds since the epoch, for Retry-After dates. */
  now?: () => number;
}

/** One push, for pushToOwnerDevices. */
export interface PushMessage {
  /** The JSON the service worker receives (a lead's: leadPushPayload). */
  payload: unknown;
  /**
   * Sent with `Urgency: high` (a phone in power saving wakes for it), and
   * also to the devices that want urgent pushes only.
   */
  urgent: boolean;
  /** pushTopic(kind, id): a retry replaces the copy still waiting. */
  topic: string;
  /** The owners whose devices get it; every owner's when omitted. */
  ownerIds?: readonly string[] | undefined;
  /** To every device, whatever it asked for (a warning that concerns every owner). */
  toEveryDevice?: boolean | undefined;
  /** How long a push service keeps it for a device out of reach (default PUSH_TTL_SECONDS). */
  ttlSeconds?: number | undefined;
}

/** One device's push that failed (not 404 or 410: those delete the subscription). */
export interface PushFailure {
  /** The subscription's id, never its endpoint. */
  subscriptionId: string;
  /** The push service's answer, when it answered. */
  status?: number;
  /** What went wrong, safe to store and log: the endpoint is never in it. */
  error: string;
  /** No retry can change it (PUSH_PERMANENT_STATUSES, a subscription that cannot be used). */
  permanent: boolean;
  retryAfterMs?: number;
}

export interface PushReport {
  /** The devices the push was for. */
  devices: number;
  /** Accepted by the push service. */
  sent: number;
  /** Gone (404 or 410): their subscriptions are deleted. */
  gone: number;
  failures: PushFailure[];
}

type DeviceResult = { kind: 'sent' } | { kind: 'gone' } | ({ kind: 'failed' } & PushFailure);

/**
 * The site's VAPID keys, read from the store once per sender (they never
 * change once made); asked again after a failure.
 */
function vapidKeysOf(sender: PushSender): () => Promise<VapidKeys> {
  let keys: Promise<VapidKeys> | undefined;
  return () => {
    keys ??= sender.store.getOrCreateVapidKeys().catch((error: unknown) => {
      keys = undefined;
      throw error;
    });
    return keys;
  };
}

const senderKeys = new WeakMap<PushSender, () => Promise<VapidKeys>>();

async function pushToDevice(
  sender: PushSender,
  subscription: PushSubscriptionRecord,
  body: string,
  message: PushMessage,
  keys: VapidKeys,
): Promise<DeviceResult> {
  const timeoutMs = sender.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const endpoint = subscription.endpoint;
  const failed = (failure: Omit<PushFailure, 'subscriptionId'>): DeviceResult => ({
    kind: 'failed',
    subscriptionId: subscription.id,
    ...failure,
    error: withoutAddress(failure.error, endpoint, '[push endpoint]'),
  });
  if (!isPushEndpointAllowed(endpoint)) {
    return failed({
      error: 'endpoint refused: https:// only, or http:// on a loopback address',
      permanent: true,
    });
  }
  let request: webpush.RequestDetails;
  try {
    request = webpush.generateRequestDetails(
      { endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      body,
      {
        vapidDetails: { subject: sender.subject(), ...keys },
        TTL: message.ttlSeconds ?? PUSH_TTL_SECONDS,
        urgency: message.urgent ? 'high' : 'normal',
        topic: message.topic,
        contentEncoding: 'aes128gcm',
      },
    );
  } catch (error) {
    // Keys a browser could not have made, or a subject web-push refuses.
    return failed({
      error: `could not sign or encrypt the push: ${describeError(error, false, timeoutMs)}`,
      permanent: true,
    });
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) headers[name] = String(value);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  try {
    const response = await (sender.fetch ?? fetch)(request.endpoint, {
      method: request.method,
      headers,
      body: request.body ? new Uint8Array(request.body) : undefined,
      redirect: 'manual',
      signal: controller.signal,
    });
    const status = response.status;
    if (status >= 200 && status < 300) {
      await response.body?.cancel().catch(() => undefined);
      return { kind: 'sent' };
    }
    if (status === 404 || status === 410) {
      await response.body?.cancel().catch(() => undefined);
      // The browser dropped the subscription (uninstalled, permission taken
      // back, expired): it will never take a push again.
      await sender.store.deletePushSubscriptionByEndpoint(endpoint);
      sender.logger?.info(
        { subscriptionId: subscription.id, status },
        'Push subscription gone; deleted',
      );
      return { kind: 'gone' };
    }
    const retryAfterMs = parseRetryAfter(
      response.headers.get('retry-after'),
      (sender.now ?? Date.now)(),
    );
    const excerpt = await readExcerpt(response);
    const reason = response.statusText ? ` ${response.statusText}` : '';
    return failed({
      status,
      error: `HTTP ${status}${reason}${excerpt ? `: ${excerpt}` : ''}`,
      permanent: PUSH_PERMANENT_STATUSES.has(status),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  } catch (error) {
    return failed({ error: describeError(error, timedOut, timeoutMs), permanent: false });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Pushes one message to the devices of these owners (every owner's when
 * `ownerIds` is omitted) that want it: every device for an urgent message,
 * only those that want every enquiry otherwise. All at once, each with its
 * timeout. A device whose push service answers 404 or 410 is gone: its
 * subscription is deleted and it counts as done. Never throws for a
 * device's failure (the report lists them, without endpoints, and each is
 * logged); throws only when the store cannot be read.
 *
 * The lead target below uses it, and so can any other push to the owners
 * (a reminder of an unanswered urgent lead, a warning that the lead e-mail
 * is failing): give each its own `topic` (pushTopic) so its retries replace
 * rather than repeat.
 */
export async function pushToOwnerDevices(
  sender: PushSender,
  message: PushMessage,
): Promise<PushReport> {
  const owners = message.ownerIds ? new Set(message.ownerIds) : undefined;
  const devices = (await sender.store.listPushSubscriptions()).filter(
    (subscription) =>
      (!owners || owners.has(subscription.owner_id)) &&
      (message.toEveryDevice === true || message.urgent || subscription.notify === 'all'),
  );
  const report: PushReport = { devices: devices.length, sent: 0, gone: 0, failures: [] };
  if (devices.length === 0) return report;
  let keysOf = senderKeys.get(sender);
  if (!keysOf) {
    keysOf = vapidKeysOf(sender);
    senderKeys.set(sender, keysOf);
  }
  const keys = await keysOf();
  const body = JSON.stringify(message.payload);
  const results = await Promise.all(
    devices.map((device) =>
      pushToDevice(sender, device, body, message, keys).catch((error: unknown): DeviceResult => ({
        // Only the deletion of a gone subscription can throw: tried again next time.
        kind: 'failed',
        subscriptionId: device.id,
        error: withoutAddress(describeError(error, false, 0), device.endpoint, '[push endpoint]'),
        permanent: false,
      })),
    ),
  );
  for (const result of results) {
    if (result.kind === 'sent') report.sent += 1;
    else if (result.kind === 'gone') report.gone += 1;
    else {
      const { kind: _kind, ...failure } = result;
      report.failures.push(failure);
      sender.logger?.warn(
        { subscriptionId: failure.subscriptionId, status: failure.status, error: failure.error },
        'Push to a device failed',
      );
    }
  }
  return report;
}

/**
 * The pushes other than a new lead's (app/leads/alerts: an urgent lead
 * still unanswered, the lead e-mail or the backup failing), to every
 * owner's every device, whatever each asked for: a lead's push again with
 * Urgency high and a topic of its own (`escalation`), a warning with the
 * topic of its tag, so a later one replaces it. How many devices took it
 * and how many did not (a gone device is neither).
 */
export function pushToEveryDevice(sender: PushSender): PushToDevices {
  return async (payload) => {
    const report = await pushToOwnerDevices(sender, {
      payload,
      urgent: payload.type === 'lead',
      toEveryDevice: true,
      topic:
        payload.type === 'lead'
          ? pushTopic(payload.escalated ? 'escalation' : 'lead', payload.id)
          : pushTopic('notice', payload.tag),
    });
    return { sent: report.sent, failed: report.failures.length };
  };
}

/** "2 of 3 devices: HTTP 500 Internal Server Error…": the delivery row's error. */
function describeFailures(report: PushReport): string {
  const first = report.failures[0];
  const count = `${report.failures.length} of ${report.devices} device${report.devices === 1 ? '' : 's'}`;
  return `${count}: ${first?.error ?? 'failed'}`;
}

/**
 * The push target: each lead that is not spam, to every device that wants
 * it (notify `all`, or `urgent` when the lead is), from the outbox once the
 * lead is accepted (notifyOnly: it tells the owner, it does not keep the
 * lead), retried for PUSH_RETRY_WINDOW_MS.
 *
 * One delivery row per lead, not per device: when one device of several
 * fails, the retry pushes to every device that wants it again. The topic
 * (the lead's) makes the push service replace a copy still waiting for a
 * device, and the service worker shows a lead's notification with the
 * lead's id as its tag, so a device that already had it has it replaced,
 * not doubled (docs/decisions/0014-push-through-the-outbox.md).
 */
export function pushTarget(sender: PushSender): DeliveryTarget {
  return {
    key: PUSH_TARGET_KEY,
    label: PUSH_TARGET_LABEL,
    notifyOnly: true,
    retryWindowMs: PUSH_RETRY_WINDOW_MS,
    async deliver(lead, options): Promise<DeliveryOutcome> {
      // Never a test lead nor spam (whose rows are never pending anyway).
      if (options?.test || lead.status === 'spam') {
        return { ok: true, detail: 'not pushed', nothingToSend: true };
      }
      let report: PushReport;
      try {
        report = await pushToOwnerDevices(sender, {
          payload: leadPushPayload(lead),
          urgent: lead.urgent,
          topic: pushTopic('lead', lead.id),
        });
      } catch (error) {
        return {
          ok: false,
          permanent: false,
          error: `could not read the devices: ${describeError(error, false, 0)}`,
        };
      }
      if (report.devices === 0) return { ok: true, detail: 'no device', nothingToSend: true };
      if (report.failures.length === 0) {
        return { ok: true, detail: `pushed to ${report.sent}, ${report.gone} gone` };
      }
      const retryAfter = report.failures.flatMap((failure) =>
        failure.retryAfterMs === undefined ? [] : [failure.retryAfterMs],
      );
      const status = report.failures.find((failure) => failure.status !== undefined)?.status;
      return {
        ok: false,
        permanent: report.failures.every((failure) => failure.permanent),
        error: describeFailures(report),
        ...(status === undefined ? {} : { status }),
        ...(retryAfter.length > 0 ? { retryAfterMs: Math.max(...retryAfter) } : {}),
      };
    },
  };
}

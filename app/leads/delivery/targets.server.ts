import type { LeadPhotoInfo, LeadRecord, AppStore, NewLeadPhoto } from '../../db/store.server.ts';

/**
 * A delivery target (docs/operations.md#delivery): somewhere every lead goes, such as
 * each address of LEAD_WEBHOOK_URLS. The first attempt (lead-service), the
 * outbox's retries, `leads list`, the exports and the privacy deletion all
 * see a target through this one description.
 *
 * A target's `key` and `label` are stored with each delivery row and written
 * to logs, exports and e-mails, so neither may carry a secret: a webhook
 * address often holds a token in its path, its query or its host, so a
 * webhook is named by its position alone ('webhook 2').
 */

export type DeliveryOutcome =
  | {
      ok: true;
      detail?: string;
      /**
       * Nobody to send it to (the push, when no owner's device wants it):
       * done, and recorded as `not_sent`, never as delivered.
       */
      nothingToSend?: boolean;
    }
  | {
      ok: false;
      /**
       * The target refused the lead for good (a 401, a 410…): retrying
       * cannot help, so the delivery is marked failed at once.
       */
      permanent: boolean;
      /** What went wrong, safe to store and log (no secret). */
      error: string;
      /** The receiver's HTTP status, when it answered. */
      status?: number;
      /** The receiver asked to wait this long before the next attempt (Retry-After). */
      retryAfterMs?: number;
      /** The answer in a few words, for people ('401 Unauthorized'). */
      summary?: string;
      /** What the owner can do about it ('check the address's token'). */
      advice?: string;
    };

export interface DeliverOptions {
  /** A lead marked as a test (`leads test-delivery`): delivered, never stored. */
  test?: boolean;
  /**
   * The photos of a lead the store could not keep (the first attempt in
   * `delivered` mode, docs/operations.md#delivery): the e-mail attaches
   * them, and no link can point to them. Without it, a lead's photos are
   * the store's.
   */
  unstoredPhotos?: readonly NewLeadPhoto[];
}

/** Where a target reads a lead's photos (docs/operations.md#photos-with-an-enquiry): the store. */
export type LeadPhotoSource = Pick<AppStore, 'getLead' | 'getLeadPhoto'>;

/** A photo a delivery sends: its metadata, and its bytes when asked for. */
export interface PhotoToSend extends LeadPhotoInfo {
  /** Null when it is gone (the lead was deleted meanwhile). */
  read(): Promise<Uint8Array | null>;
  /** Whether the store keeps it, so a link can point to it. */
  stored: boolean;
}

/**
 * The photos a delivery of `lead` sends, by position: none for a test lead,
 * those given when the store could not keep them, else the store's. Throws
 * when the store cannot be read (the delivery is then retried).
 */
export async function photosToSend(
  lead: LeadRecord,
  options: DeliverOptions | undefined,
  source: LeadPhotoSource | undefined,
): Promise<PhotoToSend[]> {
  if (options?.test) return [];
  if (options?.unstoredPhotos) {
    return options.unstoredPhotos.map((photo, position) => ({
      position,
      type: 'image/jpeg',
      width: photo.width,
      height: photo.height,
      byte_size: photo.data.byteLength,
      read: () => Promise.resolve(photo.data),
      stored: false,
    }));
  }
  if (!source) return [];
  const stored = await source.getLead(lead.id);
  return (stored?.photos ?? []).map((info) => ({
    ...info,
    read: async () => (await source.getLeadPhoto(lead.id, info.position))?.data ?? null,
    stored: true,
  }));
}

export interface DeliveryTarget {
  /** Stable identity stored with every delivery row ('webhook:2', 'email'). */
  readonly key: string;
  /** How people see it in logs, `leads list`, exports and e-mails: 'webhook 2', 'email'. */
  readonly label: string;
  /** Delivers one lead. Never throws: the outcome says what happened. */
  deliver(lead: LeadRecord, options?: DeliverOptions): Promise<DeliveryOutcome>;
  /**
   * A notification of the lead, not a place that keeps it (the push to the
   * owners' phones, push.server.ts): delivered by the outbox once the lead
   * is accepted, never in the first attempt, and never what makes a lead
   * accepted in `delivered` mode (docs/operations.md#delivery).
   */
  readonly notifyOnly?: boolean;
  /**
   * How long after the lead's creation a failed delivery is retried, when
   * shorter than the outbox's 24 hours (the push: 10 minutes, after which
   * the news is stale). The outbox's schedule is the same (nextRetryAt).
   */
  readonly retryWindowMs?: number;
}

export interface TargetAttempt {
  target: DeliveryTarget;
  outcome: DeliveryOutcome;
}

/** Every target at once (docs/operations.md#delivery, step 2); never throws. */
export function deliverToTargets(
  targets: readonly DeliveryTarget[],
  lead: LeadRecord,
  options?: DeliverOptions,
): Promise<TargetAttempt[]> {
  return Promise.all(
    targets.map(async (target) => {
      try {
        return { target, outcome: await target.deliver(lead, options) };
      } catch (error) {
        // A target must not throw; if one does, it is a failure worth retrying.
        const outcome: DeliveryOutcome = {
          ok: false,
          permanent: false,
          error: error instanceof Error ? error.message : String(error),
        };
        return { target, outcome };
      }
    }),
  );
}

/**
 * docs/forms.md#messages: 'All webhooks failed' followed by each failure. Logged, never
 * shown to the visitor; each target is named by its label, never its address.
 */
export class AllTargetsFailedError extends Error {
  override name = 'AllTargetsFailedError';

  constructor(attempts: readonly TargetAttempt[]) {
    const details = attempts
      .map(({ target, outcome }) => `${target.label}: ${outcome.ok ? 'ok' : outcome.error}`)
      .join('; ');
    super(`All webhooks failed${details ? `: ${details}` : ''}`);
  }
}

/** Duplicate keys would make two targets share one delivery row. */
export function assertDistinctKeys(targets: readonly DeliveryTarget[]): void {
  const seen = new Set<string>();
  for (const target of targets) {
    if (seen.has(target.key)) throw new Error(`Two delivery targets share the key ${target.key}`);
    seen.add(target.key);
  }
}

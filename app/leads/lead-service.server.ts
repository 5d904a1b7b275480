import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import {
  deliveryUpdateAfter,
  nextRetryAt,
  scheduleFor,
  type GivenUpHandler,
  type Outbox,
} from './delivery/outbox.server.ts';
import {
  HONEYPOT_FIELD,
  SUBMIT_FAILED_MESSAGE,
  UNEXPECTED_ERROR_MESSAGE,
  validateLead,
} from './intake/schema.ts';
import {
  storeErrorForLog,
  type DeliveryUpdate,
  type LeadRecord,
  type LeadStatus,
  type AppStore,
  type NewDelivery,
  type NewLeadPhoto,
} from '../db/store.server.ts';
import {
  AllTargetsFailedError,
  assertDistinctKeys,
  deliverToTargets,
  type DeliveryTarget,
  type TargetAttempt,
} from './delivery/targets.server.ts';
import { DEFAULT_WEBHOOK_TIMEOUT_MS } from './delivery/webhooks.server.ts';
import { attributionOf } from './intake/attribution.ts';
import {
  messageKey,
  REPEAT_WINDOW_MS,
  spamReason,
  type ProofVerdict,
} from './intake/spam-rules.server.ts';

/**
 * One submission, end to end, as docs/operations.md#delivery describes it. Called by
 * receiveLead (receive-lead.server.ts), the one door of the API and the forms.
 *
 * Logs carry the lead id, source and counts, never the visitor's name,
 * email, phone or message.
 */

/**
 * LEAD_ACCEPT, docs/operations.md#environment (`webhook` is the earlier name of
 * `delivered`, mapped by the environment).
 */
export type AcceptMode = 'delivered' | 'stored';

export type SubmitResult =
  | {
      kind: 'accepted';
      status: 201;
      id: string;
      created_at: string;
      spam: boolean;
      /** The lead is urgent (docs/operations.md#urgent-enquiries): a form leads to /thank-you/urgent. */
      urgent: boolean;
    }
  | { kind: 'duplicate'; status: 200; id: string; created_at: string; urgent: boolean }
  | { kind: 'invalid'; status: 400; error: string; fields: Record<string, string> }
  | { kind: 'rejected'; status: 502; error: string };

/** The JSON body of docs/operations.md#http-api for a result. */
export function resultBody(
  result: SubmitResult,
): { id: string; created_at: string } | { error: string; fields?: Record<string, string> } {
  switch (result.kind) {
    case 'accepted':
    case 'duplicate':
      return { id: result.id, created_at: result.created_at };
    case 'invalid':
      return { error: result.error, fields: result.fields };
    case 'rejected':
      return { error: result.error };
  }
}

export interface LeadServiceOptions {
  store: AppStore;
  /** Where every lead goes: each webhook of LEAD_WEBHOOK_URLS, and the e-mail of LEAD_EMAIL_TO. */
  targets: readonly DeliveryTarget[];
  acceptMode: AcceptMode;
  /**
   * The longest a target takes (default 8 s, LEAD_WEBHOOK_TIMEOUT_MS:
   * docs/operations.md#environment).
   */
  timeoutMs?: number;
  logger: Logger;
  /** Retries failed deliveries of accepted leads; kicked after a new stored lead. */
  outbox?: Outbox | undefined;
  /** Told when a first attempt is refused for good for an accepted lead. */
  onGivenUp?: GivenUpHandler | undefined;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
  /**
   * How long a request waits for an earlier, still undecided request with
   * the same idempotency key (default: timeout + 5 s).
   */
  duplicateWaitMs?: number;
}

/** What the door a lead came through knows of it besides its fields. */
export interface SubmitContext {
  /**
   * What the proof-of-work check said (docs/operations.md#spam); `absent`
   * when none was sent (a form without JavaScript, a program).
   */
  proof?: ProofVerdict;
}

export interface LeadService {
  /**
   * One lead, with its photos already made safe (app/images/safe-photo.server.ts),
   * stored in the lead's own transaction.
   */
  submit(
    input: unknown,
    photos?: readonly NewLeadPhoto[],
    context?: SubmitContext,
  ): Promise<SubmitResult>;
}

/** 'webhook 2: HTTP 503 …' for each failed target. */
const failedLabels = (attempts: readonly TargetAttempt[]) =>
  attempts.flatMap(({ target, outcome }) =>
    outcome.ok ? [] : [`${target.label}: ${outcome.error}`],
  );

const rejected = (error = SUBMIT_FAILED_MESSAGE): SubmitResult => ({
  kind: 'rejected',
  status: 502,
  error,
});

const accepted = (lead: LeadRecord, spam = false): SubmitResult => ({
  kind: 'accepted',
  status: 201,
  id: lead.id,
  created_at: lead.created_at,
  spam,
  urgent: lead.urgent,
});

const duplicate = (lead: LeadRecord): SubmitResult => ({
  kind: 'duplicate',
  status: 200,
  id: lead.id,
  created_at: lead.created_at,
  urgent: lead.urgent,
});

/**
 * The stored idempotency key: the form's key and a digest of what was sent.
 * A double click or a network retry sends the same enquiry with the same key
 * and is stored once; a different enquiry sent with a key already used (a
 * form restored from the back-forward cache after a success) is a new lead,
 * never answered with the first one's result.
 */
export function idempotencyIdentity(
  key: string,
  lead: Pick<LeadRecord, 'name' | 'email' | 'phone' | 'service' | 'message' | 'source'>,
): string {
  const body = JSON.stringify([
    lead.name,
    lead.email,
    lead.phone,
    lead.service,
    lead.message,
    lead.source,
  ]);
  return `${key}.${createHash('sha256').update(body, 'utf8').digest('base64url').slice(0, 22)}`;
}

export function createLeadService(options: LeadServiceOptions): LeadService {
  const { store, acceptMode, outbox } = options;
  const targets = [...options.targets];
  assertDistinctKeys(targets);
  // The targets that keep the lead (webhooks, the e-mail): the first attempt
  // goes to them, and one of them taking it makes a lead accepted. A
  // notification (the push) follows from the outbox once it is accepted.
  const keepers = targets.filter((target) => !target.notifyOnly);
  const notifiers = targets.filter((target) => target.notifyOnly);
  if (acceptMode === 'delivered' && keepers.length === 0) {
    throw new Error('LEAD_ACCEPT=delivered needs at least one delivery target');
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  const duplicateWaitMs = options.duplicateWaitMs ?? timeoutMs + 5000;
  const log = options.logger.child({ component: 'lead-service' });

  const scheduleRetry: Outbox['scheduleRetry'] = (createdAt, failedAttempts, retry) =>
    outbox
      ? outbox.scheduleRetry(createdAt, failedAttempts, retry)
      : nextRetryAt(createdAt, failedAttempts, now(), undefined, retry);

  /**
   * The answer for a request whose idempotency key is held by `existing`,
   * or null when the key was freed and the insert should be tried again.
   */
  async function answerForExisting(existing: LeadRecord): Promise<SubmitResult | null> {
    const key = existing.idempotency_key;
    let holder: LeadRecord | null = existing;
    let waited = false;
    const giveUpAt = Date.now() + duplicateWaitMs;
    // The first request is still deciding (delivered mode): wait for its answer.
    while (holder && holder.status === 'received') {
      if (Date.now() >= giveUpAt) {
        log.warn({ leadId: holder.id }, 'Duplicate request gave up waiting for the first one');
        return rejected();
      }
      await sleep(50);
      waited = true;
      holder = key === null ? null : await store.findByIdempotencyKey(key);
    }
    if (!holder) return null;
    switch (holder.status) {
      case 'accepted':
      case 'spam':
        return duplicate(holder);
      case 'not_accepted':
        // Concurrent duplicate: the first request's answer. A later retry
        // (the visitor was told to try again) is a new submission.
        if (waited) return rejected();
        await store.releaseIdempotencyKey(holder.id);
        return null;
      default:
        return rejected();
    }
  }

  /** Inserts, resolving idempotency conflicts; an answer when the key was already used. */
  async function commit(
    lead: LeadRecord,
    deliveries: readonly NewDelivery[],
    photos: readonly NewLeadPhoto[],
  ): Promise<SubmitResult | null> {
    for (let round = 0; round < 3; round++) {
      const result = await store.insertLead(lead, deliveries, photos);
      if (result.inserted) return null;
      const answer = await answerForExisting(result.existing);
      if (answer) return answer;
    }
    throw new Error('Idempotency key kept conflicting');
  }

  function deliveryUpdates(
    attempts: readonly TargetAttempt[],
    leadAccepted: boolean,
    lead: LeadRecord,
  ): DeliveryUpdate[] {
    return attempts.map(({ target, outcome }): DeliveryUpdate => {
      // docs/operations.md#delivery, steps 3 and 4: retried only for an accepted lead.
      if (outcome.ok || leadAccepted) {
        return deliveryUpdateAfter(
          target.key,
          outcome,
          1,
          lead.created_at,
          now(),
          scheduleFor(target, scheduleRetry),
        );
      }
      return {
        target: target.key,
        state: 'not_sent',
        attempts: 1,
        next_attempt_at: null,
        last_error: outcome.error,
        delivered_at: null,
        attempted_at: new Date(now()).toISOString(),
      };
    });
  }

  /**
   * Whether an earlier lead of the last 24 hours had this message. A store
   * that cannot answer answers no: a real enquiry is never kept back for it.
   */
  async function seenBefore(key: string): Promise<boolean> {
    try {
      return await store.hasMessageSince(key, new Date(now() - REPEAT_WINDOW_MS).toISOString());
    } catch (error) {
      log.warn({ err: storeErrorForLog(error) }, 'Repeated-message check skipped: store failed');
      return false;
    }
  }

  async function submit(
    input: unknown,
    photos: readonly NewLeadPhoto[],
    submitContext: SubmitContext,
  ): Promise<SubmitResult> {
    const validation = validateLead(input);
    if (!validation.ok) {
      return { kind: 'invalid', status: 400, error: validation.error, fields: validation.fields };
    }
    const value = validation.value;
    const proof = submitContext.proof ?? 'absent';
    // docs/operations.md#spam: the rules, in spam-rules.server.ts.
    const reason = await spamReason(
      {
        name: value.name,
        message: value.message,
        source: value.source,
        email: value.email,
        phone: value.phone,
        trap: value[HONEYPOT_FIELD] ?? '',
        proof,
      },
      seenBefore,
    );
    const spam = reason !== null;
    const status: LeadStatus = spam ? 'spam' : acceptMode === 'stored' ? 'accepted' : 'received';
    const lead: LeadRecord = {
      id: randomUUID(),
      name: value.name,
      email: value.email,
      phone: value.phone,
      service: value.service,
      message: value.message,
      created_at: new Date(now()).toISOString(),
      source: value.source,
      status,
      idempotency_key: null,
      urgent: value.urgent,
      attribution: attributionOf(value),
      spam_reason: reason,
      message_key: messageKey(value),
    };
    if (value.idempotency_key) {
      lead.idempotency_key = idempotencyIdentity(value.idempotency_key, lead);
    }
    // With the proof-of-work's verdict, so the log shows what each lead brought.
    const context = { leadId: lead.id, source: lead.source, photos: photos.length, proof };
    // In delivered mode the rows wait, unclaimable, while the lead is `received`.
    // A spam lead has none: it goes to no target ("Not spam" makes them).
    const deliveries: NewDelivery[] = spam
      ? []
      : targets.map((target) => ({
          target: target.key,
          label: target.label,
          state: 'pending',
          next_attempt_at: lead.created_at,
        }));

    // docs/operations.md#delivery, step 1: the store first.
    let stored = false;
    try {
      const answer = await commit(lead, deliveries, photos);
      if (answer) {
        log.info(
          { ...context, kind: answer.kind },
          'Lead submission answered from its idempotency key',
        );
        return answer;
      }
      stored = true;
    } catch (error) {
      if (acceptMode === 'stored') {
        log.error(
          { err: storeErrorForLog(error), ...context },
          'Lead store failed; submission refused',
        );
        return rejected();
      }
      log.error(
        { err: storeErrorForLog(error), ...context },
        'Lead store failed; delivering to the targets only',
      );
    }

    if (spam) {
      // Looks like success so bots learn nothing; never delivered.
      log.info({ ...context, stored, reason }, 'Lead kept as spam, not delivered');
      return accepted(lead, true);
    }

    if (acceptMode === 'stored') {
      log.info({ ...context, targets: targets.length }, 'Lead accepted (stored)');
      if (targets.length > 0) outbox?.kick();
      return accepted(lead);
    }

    // delivered mode: accepted only if a target takes it now
    // (docs/operations.md#delivery, steps 2-3).
    // A lead the store could not keep still carries its photos to the e-mail
    // (and none to a webhook: no link could show them); a lead without
    // photos says so, so no target asks the store (which may be down).
    const attempts = await deliverToTargets(
      keepers,
      lead,
      stored && photos.length > 0 ? undefined : { unstoredPhotos: photos },
    );
    const delivered = attempts.filter((attempt) => attempt.outcome.ok).length;
    const leadAccepted = delivered > 0;

    if (stored) {
      try {
        const updates = deliveryUpdates(attempts, leadAccepted, lead);
        // A notification's row stays pending, due now, for the outbox; of a
        // lead not accepted it is never sent, like the others.
        const notified: DeliveryUpdate[] = leadAccepted
          ? []
          : notifiers.map((target) => ({
              target: target.key,
              state: 'not_sent',
              attempts: 0,
              next_attempt_at: null,
              last_error: null,
              delivered_at: null,
            }));
        await store.settleLead(lead.id, leadAccepted ? 'accepted' : 'not_accepted', [
          ...updates,
          ...notified,
        ]);
        if (leadAccepted && notifiers.length > 0) outbox?.kick();
        attempts.forEach(({ target, outcome }, index) => {
          if (!outcome.ok && updates[index]?.state === 'failed') {
            log.error(
              { ...context, target: target.label, status: outcome.status, error: outcome.error },
              'Lead delivery refused for good; not retried',
            );
            options.onGivenUp?.(lead, target, outcome);
          }
        });
      } catch (error) {
        // The visitor's answer follows the targets; an accepted lead left
        // `received` is later marked not_accepted, which the log explains.
        log.error(
          { err: storeErrorForLog(error), ...context, accepted: leadAccepted },
          'Could not record the lead decision',
        );
      }
    } else if (leadAccepted && delivered < keepers.length) {
      log.warn(
        { ...context, failed: failedLabels(attempts) },
        'Failed deliveries cannot be retried: the lead store was unavailable',
      );
    }

    if (leadAccepted) {
      if (delivered < keepers.length) {
        log.warn(
          { ...context, failed: failedLabels(attempts) },
          'Some targets failed; the outbox retries them',
        );
      }
      log.info({ ...context, targets: keepers.length, delivered }, 'Lead accepted');
      return accepted(lead);
    }
    log.error(
      { err: new AllTargetsFailedError(attempts), ...context, targets: keepers.length },
      'Lead not accepted',
    );
    return rejected();
  }

  return {
    async submit(input, photos = [], submitContext = {}) {
      try {
        return await submit(input, photos, submitContext);
      } catch (error) {
        // docs/forms.md#messages: a failure that is not a standard one. Nothing above throws
        // after a commit that accepted the lead, so the visitor may retry.
        log.error({ err: storeErrorForLog(error) }, 'Unexpected error during lead submission');
        return rejected(UNEXPECTED_ERROR_MESSAGE);
      }
    },
  };
}

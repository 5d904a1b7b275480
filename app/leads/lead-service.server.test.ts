import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLeadService, resultBody, type LeadServiceOptions } from './lead-service.server.ts';
import { photoLinks } from './delivery/signed-photo-links.server.ts';
import { createOutbox, type Outbox } from './delivery/outbox.server.ts';
import {
  HONEYPOT_FIELD,
  INVALID_EMAIL_MESSAGE,
  REQUIRED_FIELDS_MESSAGE,
  SUBMIT_FAILED_MESSAGE,
  UNEXPECTED_ERROR_MESSAGE,
} from './intake/schema.ts';
import type { AppStore } from '../db/store.server.ts';
import { webhookTargets } from './delivery/webhooks.server.ts';
import type { DeliveryTarget } from './delivery/targets.server.ts';
import {
  captureLogger,
  eventually,
  POSTGRES_SKIP_MESSAGE,
  startReceiver,
  STORE_BACKENDS,
  TEST_DATABASE_URL,
  type CapturedLogger,
  type Receiver,
  type StoreHarness,
} from './testing/test-support.server.ts';
import { NO_ATTRIBUTION } from './intake/attribution.ts';

const input = {
  name: 'Aroha Ngata',
  email: 'Aroha@Example.co.nz',
  phone: '021 555 0101',
  service: 'Windows',
  message: 'Cracked pane in the lounge window',
  source: 'quote_form',
};
if (!TEST_DATABASE_URL) console.warn(`Lead service on ${POSTGRES_SKIP_MESSAGE}`);

const PERSONAL = ['Aroha', 'aroha@example.co.nz', '021 555 0101', 'Cracked pane'];

/**
 * A stand-in for a failing database: a real store whose chosen operations
 * throw, like a disk-full SQLite file or an unreachable PostgreSQL would.
 */
class FailingStore implements AppStore {
  readonly kind: AppStore['kind'];
  readonly failing: Set<keyof AppStore>;
  readonly #inner: AppStore;
  constructor(inner: AppStore, failing: Array<keyof AppStore>) {
    this.#inner = inner;
    this.kind = inner.kind;
    this.failing = new Set(failing);
  }
  #guard(name: keyof AppStore) {
    if (this.failing.has(name)) {
      const error = new Error(`disk I/O error during ${name}`);
      // Like pg's `detail`: must never reach the logs.
      Object.assign(error, { detail: 'Failing row contains (aroha@example.co.nz)' });
      throw error;
    }
  }
  insertLead: AppStore['insertLead'] = async (...args) => {
    this.#guard('insertLead');
    return this.#inner.insertLead(...args);
  };
  findByIdempotencyKey: AppStore['findByIdempotencyKey'] = async (...args) => {
    this.#guard('findByIdempotencyKey');
    return this.#inner.findByIdempotencyKey(...args);
  };
  getLead: AppStore['getLead'] = async (...args) => this.#inner.getLead(...args);
  getLeadPhoto: AppStore['getLeadPhoto'] = async (...args) => this.#inner.getLeadPhoto(...args);
  getOrCreateSecret: AppStore['getOrCreateSecret'] = async (...args) => {
    this.#guard('getOrCreateSecret');
    return this.#inner.getOrCreateSecret(...args);
  };
  settleLead: AppStore['settleLead'] = async (...args) => {
    this.#guard('settleLead');
    return this.#inner.settleLead(...args);
  };
  releaseIdempotencyKey: AppStore['releaseIdempotencyKey'] = async (...args) =>
    this.#inner.releaseIdempotencyKey(...args);
  claimDueDeliveries: AppStore['claimDueDeliveries'] = async (...args) =>
    this.#inner.claimDueDeliveries(...args);
  recordDelivery: AppStore['recordDelivery'] = async (...args) =>
    this.#inner.recordDelivery(...args);
  expireReceived: AppStore['expireReceived'] = async (...args) =>
    this.#inner.expireReceived(...args);
  listLeads: AppStore['listLeads'] = async (...args) => this.#inner.listLeads(...args);
  exportLeads: AppStore['exportLeads'] = async () => this.#inner.exportLeads();
  cancelDeliveriesExcept: AppStore['cancelDeliveriesExcept'] = async (...args) =>
    this.#inner.cancelDeliveriesExcept(...args);
  findLeadsByEmail: AppStore['findLeadsByEmail'] = async (...args) =>
    this.#inner.findLeadsByEmail(...args);
  deleteLeads: AppStore['deleteLeads'] = async (...args) => this.#inner.deleteLeads(...args);
  purgeCreatedBefore: AppStore['purgeCreatedBefore'] = async (...args) =>
    this.#inner.purgeCreatedBefore(...args);
  hitRateLimit: AppStore['hitRateLimit'] = async (...args) => this.#inner.hitRateLimit(...args);
  undoRateLimitHit: AppStore['undoRateLimitHit'] = async (...args) =>
    this.#inner.undoRateLimitHit(...args);
  resetRateLimit: AppStore['resetRateLimit'] = async (...args) =>
    this.#inner.resetRateLimit(...args);
  purgeRateLimits: AppStore['purgeRateLimits'] = async () => this.#inner.purgeRateLimits();
  spendProofOfWork: AppStore['spendProofOfWork'] = async (...args) =>
    this.#inner.spendProofOfWork(...args);
  purgeSpentProofsOfWork: AppStore['purgeSpentProofsOfWork'] = async () =>
    this.#inner.purgeSpentProofsOfWork();
  createReviewRequest: AppStore['createReviewRequest'] = async (...args) =>
    this.#inner.createReviewRequest(...args);
  latestReviewRequestForEmail: AppStore['latestReviewRequestForEmail'] = async (...args) =>
    this.#inner.latestReviewRequestForEmail(...args);
  latestReviewRequestForLead: AppStore['latestReviewRequestForLead'] = async (...args) =>
    this.#inner.latestReviewRequestForLead(...args);
  listReviewRequestsForLead: AppStore['listReviewRequestsForLead'] = async (...args) =>
    this.#inner.listReviewRequestsForLead(...args);
  getReviewRequest: AppStore['getReviewRequest'] = async (...args) =>
    this.#inner.getReviewRequest(...args);
  findReviewRequest: AppStore['findReviewRequest'] = async (...args) =>
    this.#inner.findReviewRequest(...args);
  submitReview: AppStore['submitReview'] = async (...args) => this.#inner.submitReview(...args);
  listWaitingReviews: AppStore['listWaitingReviews'] = async (...args) =>
    this.#inner.listWaitingReviews(...args);
  decideReview: AppStore['decideReview'] = async (...args) => this.#inner.decideReview(...args);
  countFailedDeliveries: AppStore['countFailedDeliveries'] = async () =>
    this.#inner.countFailedDeliveries();
  peekRateLimit: AppStore['peekRateLimit'] = async (...args) => this.#inner.peekRateLimit(...args);
  retryDelivery: AppStore['retryDelivery'] = async (...args) => this.#inner.retryDelivery(...args);
  saveLeadTracking: AppStore['saveLeadTracking'] = async (...args) =>
    this.#inner.saveLeadTracking(...args);
  searchLeads: AppStore['searchLeads'] = async (...args) => this.#inner.searchLeads(...args);
  markLeadSeen: AppStore['markLeadSeen'] = async (...args) => this.#inner.markLeadSeen(...args);
  markLeadsSeen: AppStore['markLeadsSeen'] = async (...args) => this.#inner.markLeadsSeen(...args);
  countUnseenLeads: AppStore['countUnseenLeads'] = async () => this.#inner.countUnseenLeads();
  purgeSpamBefore: AppStore['purgeSpamBefore'] = async (...args) =>
    this.#inner.purgeSpamBefore(...args);
  hasMessageSince: AppStore['hasMessageSince'] = async (...args) => {
    this.#guard('hasMessageSince');
    return this.#inner.hasMessageSince(...args);
  };
  countSpamLeads: AppStore['countSpamLeads'] = async () => this.#inner.countSpamLeads();
  markSpam: AppStore['markSpam'] = async (...args) => this.#inner.markSpam(...args);
  rescueLead: AppStore['rescueLead'] = async (...args) => this.#inner.rescueLead(...args);
  acknowledgeLead: AppStore['acknowledgeLead'] = async (...args) =>
    this.#inner.acknowledgeLead(...args);
  claimEscalations: AppStore['claimEscalations'] = async (...args) =>
    this.#inner.claimEscalations(...args);
  finishEscalation: AppStore['finishEscalation'] = async (...args) =>
    this.#inner.finishEscalation(...args);
  checkTargetOutage: AppStore['checkTargetOutage'] = async (...args) =>
    this.#inner.checkTargetOutage(...args);
  listFollowUps: AppStore['listFollowUps'] = async (...args) => this.#inner.listFollowUps(...args);
  claimMorningEmail: AppStore['claimMorningEmail'] = async (...args) =>
    this.#inner.claimMorningEmail(...args);
  finishMorningEmail: AppStore['finishMorningEmail'] = async (...args) =>
    this.#inner.finishMorningEmail(...args);
  addOwner: AppStore['addOwner'] = async (...args) => this.#inner.addOwner(...args);
  getOwner: AppStore['getOwner'] = async (...args) => this.#inner.getOwner(...args);
  findOwnerByEmail: AppStore['findOwnerByEmail'] = async (...args) =>
    this.#inner.findOwnerByEmail(...args);
  listOwners: AppStore['listOwners'] = async (...args) => this.#inner.listOwners(...args);
  removeOwner: AppStore['removeOwner'] = async (...args) => this.#inner.removeOwner(...args);
  addPasskey: AppStore['addPasskey'] = async (...args) => this.#inner.addPasskey(...args);
  siteContentDraft: AppStore['siteContentDraft'] = async () => this.#inner.siteContentDraft();
  saveSiteContentSection: AppStore['saveSiteContentSection'] = async (...args) =>
    this.#inner.saveSiteContentSection(...args);
  createSiteContentVersion: AppStore['createSiteContentVersion'] = async (...args) =>
    this.#inner.createSiteContentVersion(...args);
  setSiteContentVersionState: AppStore['setSiteContentVersionState'] = async (...args) =>
    this.#inner.setSiteContentVersionState(...args);
  supersedeSiteContentVersions: AppStore['supersedeSiteContentVersions'] = async (...args) =>
    this.#inner.supersedeSiteContentVersions(...args);
  recordSiteBuild: AppStore['recordSiteBuild'] = async (...args) =>
    this.#inner.recordSiteBuild(...args);
  listSiteBuilds: AppStore['listSiteBuilds'] = async (...args) =>
    this.#inner.listSiteBuilds(...args);
  siteHostsServing: AppStore['siteHostsServing'] = async () => this.#inner.siteHostsServing();
  newestLiveSiteContent: AppStore['newestLiveSiteContent'] = async () =>
    this.#inner.newestLiveSiteContent();
  siteContentVersion: AppStore['siteContentVersion'] = async (...args) =>
    this.#inner.siteContentVersion(...args);
  listSiteContentVersions: AppStore['listSiteContentVersions'] = async (...args) =>
    this.#inner.listSiteContentVersions(...args);
  addSitePhoto: AppStore['addSitePhoto'] = async (...args) => this.#inner.addSitePhoto(...args);
  sitePhoto: AppStore['sitePhoto'] = async (...args) => this.#inner.sitePhoto(...args);
  deleteUnusedSitePhotos: AppStore['deleteUnusedSitePhotos'] = async (...args) =>
    this.#inner.deleteUnusedSitePhotos(...args);
  removeSiteTestimonialsOfLeads: AppStore['removeSiteTestimonialsOfLeads'] = async (...args) =>
    this.#inner.removeSiteTestimonialsOfLeads(...args);
  findPasskey: AppStore['findPasskey'] = async (...args) => this.#inner.findPasskey(...args);
  listPasskeys: AppStore['listPasskeys'] = async (...args) => this.#inner.listPasskeys(...args);
  recordPasskeyUse: AppStore['recordPasskeyUse'] = async (...args) =>
    this.#inner.recordPasskeyUse(...args);
  removePasskey: AppStore['removePasskey'] = async (...args) => this.#inner.removePasskey(...args);
  createSession: AppStore['createSession'] = async (...args) => this.#inner.createSession(...args);
  findSession: AppStore['findSession'] = async (...args) => this.#inner.findSession(...args);
  touchSession: AppStore['touchSession'] = async (...args) => this.#inner.touchSession(...args);
  endSession: AppStore['endSession'] = async (...args) => this.#inner.endSession(...args);
  endOwnerSessions: AppStore['endOwnerSessions'] = async (...args) =>
    this.#inner.endOwnerSessions(...args);
  createOwnerLink: AppStore['createOwnerLink'] = async (...args) =>
    this.#inner.createOwnerLink(...args);
  consumeOwnerLink: AppStore['consumeOwnerLink'] = async (...args) =>
    this.#inner.consumeOwnerLink(...args);
  findOwnerLink: AppStore['findOwnerLink'] = async (...args) => this.#inner.findOwnerLink(...args);
  createOwnerChallenge: AppStore['createOwnerChallenge'] = async (...args) =>
    this.#inner.createOwnerChallenge(...args);
  consumeOwnerChallenge: AppStore['consumeOwnerChallenge'] = async (...args) =>
    this.#inner.consumeOwnerChallenge(...args);
  purgeExpiredSignIns: AppStore['purgeExpiredSignIns'] = async (...args) =>
    this.#inner.purgeExpiredSignIns(...args);
  recordActivity: AppStore['recordActivity'] = async (...args) =>
    this.#inner.recordActivity(...args);
  listActivity: AppStore['listActivity'] = async (...args) => this.#inner.listActivity(...args);
  addPushSubscription: AppStore['addPushSubscription'] = async (...args) =>
    this.#inner.addPushSubscription(...args);
  listOwnerPushSubscriptions: AppStore['listOwnerPushSubscriptions'] = async (...args) =>
    this.#inner.listOwnerPushSubscriptions(...args);
  listPushSubscriptions: AppStore['listPushSubscriptions'] = async (...args) =>
    this.#inner.listPushSubscriptions(...args);
  deletePushSubscription: AppStore['deletePushSubscription'] = async (...args) =>
    this.#inner.deletePushSubscription(...args);
  deletePushSubscriptionByEndpoint: AppStore['deletePushSubscriptionByEndpoint'] = async (
    ...args
  ) => this.#inner.deletePushSubscriptionByEndpoint(...args);
  getOrCreateVapidKeys: AppStore['getOrCreateVapidKeys'] = async (...args) =>
    this.#inner.getOrCreateVapidKeys(...args);
  ping: AppStore['ping'] = async () => this.#inner.ping();
  checkWritable: AppStore['checkWritable'] = async () => {
    this.#guard('checkWritable');
    return this.#inner.checkWritable();
  };
  close: AppStore['close'] = async () => this.#inner.close();
}

for (const backend of STORE_BACKENDS)
  describe.skipIf(backend.skip)(`lead service on ${backend.label}`, () => {
    let harness: StoreHarness;
    let store: AppStore;
    let log: CapturedLogger;
    let receivers: Receiver[];
    let outboxes: Outbox[];

    beforeEach(async () => {
      harness = await backend.harness();
      store = await harness.open();
      log = captureLogger();
      receivers = [];
      outboxes = [];
    });

    afterEach(async () => {
      await Promise.all(outboxes.map((o) => o.stop()));
      await Promise.all(receivers.map((r) => r.close()));
      await store.close();
      await harness.cleanup();
      // docs/operations.md#logs: no personal data in logs, whatever happened in the test.
      const text = log.text();
      for (const value of PERSONAL) expect(text).not.toContain(value);
      // Webhooks are named by label in the logs, never by their address (it may hold a token).
      expect(text).not.toContain('/hook');
    });

    async function receiver(mode: 'ok' | 'fail' | 'hang' = 'ok', port?: number) {
      const r = await startReceiver(mode, { port });
      receivers.push(r);
      return r;
    }

    /** An outbox with test-sized waits: first retry after 150 ms, polling every 25 ms. */
    function outboxFor(
      target: AppStore,
      options: { start?: boolean; timeoutMs?: number; urls?: string[] } = {},
    ) {
      const timeoutMs = options.timeoutMs ?? 1000;
      const outbox = createOutbox({
        store: target,
        logger: log.logger,
        targets: webhookTargets(options.urls ?? [], { timeoutMs }),
        timeoutMs,
        pollIntervalMs: 25,
        retry: { baseDelayMs: 150, maxDelayMs: 400 },
      });
      outboxes.push(outbox);
      if (options.start !== false) outbox.start();
      return outbox;
    }

    /** A service delivering to these webhook addresses (the outbox, if any, must match). */
    function service(
      overrides: Partial<LeadServiceOptions> &
        Pick<LeadServiceOptions, 'acceptMode'> & { webhookUrls?: string[] },
    ) {
      const { webhookUrls = [], ...rest } = overrides;
      const timeoutMs = rest.timeoutMs ?? 1000;
      return createLeadService({
        store,
        targets: webhookTargets(webhookUrls, { timeoutMs }),
        timeoutMs,
        logger: log.logger,
        ...rest,
      });
    }

    describe('delivered mode', () => {
      it('accepts when all webhooks answer 2xx, with the lead at each receiver', async () => {
        const a = await receiver('ok');
        const b = await receiver('ok');
        const result = await service({
          acceptMode: 'delivered',
          webhookUrls: [a.url, b.url],
        }).submit(input);
        expect(result).toEqual({
          kind: 'accepted',
          status: 201,
          id: expect.any(String),
          created_at: expect.any(String),
          spam: false,
          urgent: false,
        });
        if (result.kind !== 'accepted') return;
        expect(resultBody(result)).toEqual({ id: result.id, created_at: result.created_at });
        for (const hook of [a, b]) {
          expect(hook.requests).toHaveLength(1);
          expect(hook.requests[0]?.json).toEqual({
            id: result.id,
            name: 'Aroha Ngata',
            email: 'aroha@example.co.nz',
            phone: '021 555 0101',
            service: 'Windows',
            message: 'Cracked pane in the lounge window',
            created_at: result.created_at,
            source: 'quote_form',
            urgent: false,
            attribution: NO_ATTRIBUTION,
            photos: [],
          });
          expect(hook.requests[0]?.headers['idempotency-key']).toBe(result.id);
        }
        const lead = await store.getLead(result.id);
        expect(lead?.status).toBe('accepted');
        expect(lead?.deliveries.map((d) => [d.state, d.attempts])).toEqual([
          ['delivered', 1],
          ['delivered', 1],
        ]);
        expect(log.text()).toContain(result.id);
      });

      it('tolerates one failing webhook and retries it from the outbox once it is back', async () => {
        const up = await receiver('ok');
        const flaky = await receiver('ok');
        const flakyPort = flaky.port;
        await flaky.close();
        const outbox = outboxFor(store, { urls: [up.url, flaky.url] });
        const result = await service({
          acceptMode: 'delivered',
          webhookUrls: [up.url, flaky.url],
          outbox,
        }).submit(input);
        expect(result.kind).toBe('accepted');
        if (result.kind !== 'accepted') return;
        let lead = await store.getLead(result.id);
        expect(lead?.deliveries[1]).toEqual(
          expect.objectContaining({
            state: 'pending',
            attempts: 1,
            last_error: expect.any(String),
          }),
        );
        // The receiver comes back on the same address; the outbox delivers.
        const back = await receiver('ok', flakyPort);
        await back.waitForRequests(1);
        expect(back.requests[0]?.json).toEqual(expect.objectContaining({ id: result.id }));
        await eventually(async () => {
          lead = await store.getLead(result.id);
          expect(lead?.deliveries[1]?.state).toBe('delivered');
        });
        expect(lead?.deliveries[1]?.attempts).toBeGreaterThanOrEqual(2);
        expect(up.requests).toHaveLength(1);
      });

      it('refuses with 502 when all fail: lead kept as not_accepted, never retried', async () => {
        const a = await receiver('fail');
        const b = await receiver('fail');
        b.failStatus = 404;
        b.failBody = 'no such hook';
        const outbox = outboxFor(store, { urls: [a.url, b.url] });
        const result = await service({
          acceptMode: 'delivered',
          webhookUrls: [a.url, b.url],
          outbox,
        }).submit(input);
        expect(result).toEqual({ kind: 'rejected', status: 502, error: SUBMIT_FAILED_MESSAGE });
        const [lead] = await store.exportLeads();
        expect(lead?.status).toBe('not_accepted');
        expect(lead?.deliveries).toEqual([
          expect.objectContaining({ state: 'not_sent', attempts: 1, next_attempt_at: null }),
          expect.objectContaining({
            state: 'not_sent',
            last_error: 'HTTP 404 Not Found: no such hook',
          }),
        ]);
        const logged = log.entries().find((entry) => entry.msg === 'Lead not accepted');
        expect((logged?.err as { message: string }).message).toBe(
          'All webhooks failed: webhook 1: HTTP 500 Internal Server Error: ' +
            'receiver is down for maintenance; webhook 2: HTTP 404 Not Found: no such hook',
        );
        // Receivers recover; still nothing is retried.
        a.mode = 'ok';
        b.mode = 'ok';
        await new Promise((resolve) => setTimeout(resolve, 500));
        await outbox.runOnce();
        expect(a.requests).toHaveLength(1);
        expect(b.requests).toHaveLength(1);
      });

      it('a hanging webhook hits the timeout and the other one carries the lead', async () => {
        const hang = await receiver('hang');
        const up = await receiver('ok');
        const started = Date.now();
        const result = await service({
          acceptMode: 'delivered',
          webhookUrls: [hang.url, up.url],
          timeoutMs: 300,
        }).submit(input);
        // Answered at the timeout, not when the hanging receiver lets go (it never does).
        expect(Date.now() - started).toBeLessThan(20_000);
        expect(result.kind).toBe('accepted');
        if (result.kind !== 'accepted') return;
        const lead = await store.getLead(result.id);
        expect(lead?.deliveries[0]).toEqual(
          expect.objectContaining({ state: 'pending', last_error: 'timed out after 300 ms' }),
        );
      });

      it('all webhooks hanging: 502 after the timeout', async () => {
        const hang = await receiver('hang');
        const started = Date.now();
        const result = await service({
          acceptMode: 'delivered',
          webhookUrls: [hang.url],
          timeoutMs: 300,
        }).submit(input);
        // Answered at the timeout, not when the hanging receiver lets go (it never does).
        expect(Date.now() - started).toBeLessThan(20_000);
        expect(result.kind).toBe('rejected');
      });

      it('a restart (store closed and reopened, new outbox) still delivers the retry', async () => {
        const up = await receiver('ok');
        const down = await receiver('fail');
        const first = outboxFor(store, { start: false, urls: [up.url, down.url] });
        const result = await service({
          acceptMode: 'delivered',
          webhookUrls: [up.url, down.url],
          outbox: first,
        }).submit(input);
        expect(result.kind).toBe('accepted');
        if (result.kind !== 'accepted') return;
        // "Crash": the process goes away without its outbox ever running.
        await store.close();
        down.mode = 'ok';
        store = await harness.open();
        outboxFor(store, { urls: [up.url, down.url] });
        await down.waitForRequests(2);
        await eventually(async () => {
          const lead = await store.getLead(result.id);
          expect(lead?.deliveries.map((d) => d.state)).toEqual(['delivered', 'delivered']);
        });
        expect(up.requests).toHaveLength(1);
      });

      it('answers a repeat of the same enquiry and key with the first answer, sending once', async () => {
        const hook = await receiver('ok');
        const svc = service({ acceptMode: 'delivered', webhookUrls: [hook.url] });
        const keyed = { ...input, idempotency_key: 'visitor-attempt-0001' };
        const first = await svc.submit(keyed);
        // A network retry: the same body, trimmed and cased differently by nobody.
        const second = await svc.submit({ ...keyed, email: 'AROHA@example.co.nz ' });
        expect(first.kind).toBe('accepted');
        if (first.kind !== 'accepted') return;
        expect(second).toEqual({
          kind: 'duplicate',
          status: 200,
          id: first.id,
          created_at: first.created_at,
          urgent: false,
        });
        expect(resultBody(second)).toEqual(resultBody(first));
        expect(hook.requests).toHaveLength(1);
        expect(await store.exportLeads()).toHaveLength(1);
      });

      it('a different enquiry sent with a key already used is a new lead, never the first answer', async () => {
        const hook = await receiver('ok');
        const svc = service({ acceptMode: 'delivered', webhookUrls: [hook.url] });
        const keyed = { ...input, idempotency_key: 'restored-form-0001' };
        const first = await svc.submit(keyed);
        // The form came back from the back-forward cache with its old key.
        const second = await svc.submit({ ...keyed, message: 'A second job: the shower door' });
        const again = await svc.submit({ ...keyed, message: 'A second job: the shower door' });
        expect([first.kind, second.kind, again.kind]).toEqual([
          'accepted',
          'accepted',
          'duplicate',
        ]);
        if (first.kind !== 'accepted' || second.kind !== 'accepted') return;
        expect(second.id).not.toBe(first.id);
        expect('id' in again && again.id).toBe(second.id);
        expect(hook.requests.map((r) => (r.json as { message: string }).message)).toEqual([
          'Cracked pane in the lounge window',
          'A second job: the shower door',
        ]);
        expect(await store.exportLeads()).toHaveLength(2);
      });

      it('a permanent refusal by one webhook of an accepted lead is failed at once', async () => {
        const up = await receiver('ok');
        const refusing = await receiver('fail');
        refusing.failStatus = 401;
        refusing.failBody = 'bad token';
        const outbox = outboxFor(store, { urls: [up.url, refusing.url] });
        const result = await service({
          acceptMode: 'delivered',
          webhookUrls: [up.url, refusing.url],
          outbox,
        }).submit(input);
        expect(result.kind).toBe('accepted');
        if (result.kind !== 'accepted') return;
        const lead = await store.getLead(result.id);
        expect(lead?.deliveries[1]).toEqual(
          expect.objectContaining({
            label: 'webhook 2',
            state: 'failed',
            next_attempt_at: null,
            last_error: 'refused: HTTP 401 Unauthorized: bad token',
          }),
        );
        await outbox.runOnce();
        expect(refusing.requests).toHaveLength(1);
      });

      it('two concurrent submissions with one key: one lead, one delivery, same answer', async () => {
        const hook = await receiver('ok');
        hook.delayMs = 300;
        const svc = service({ acceptMode: 'delivered', webhookUrls: [hook.url] });
        const keyed = { ...input, idempotency_key: 'double-click-0001' };
        const results = await Promise.all([
          svc.submit(keyed),
          svc.submit(keyed),
          svc.submit(keyed),
        ]);
        const kinds = results.map((r) => r.kind).sort();
        expect(kinds).toEqual(['accepted', 'duplicate', 'duplicate']);
        const ids = new Set(results.map((r) => ('id' in r ? r.id : null)));
        expect(ids.size).toBe(1);
        expect(hook.requests).toHaveLength(1);
        expect(await store.exportLeads()).toHaveLength(1);
      });

      it('concurrent duplicates of a refused submission get the same refusal', async () => {
        const hook = await receiver('fail');
        hook.delayMs = 300;
        const svc = service({ acceptMode: 'delivered', webhookUrls: [hook.url] });
        const keyed = { ...input, idempotency_key: 'double-click-0002' };
        const results = await Promise.all([svc.submit(keyed), svc.submit(keyed)]);
        expect(results.map((r) => r.kind)).toEqual(['rejected', 'rejected']);
        expect(hook.requests).toHaveLength(1);
      });

      it('after a refusal, a retry with the same key is a new attempt', async () => {
        const hook = await receiver('fail');
        const svc = service({ acceptMode: 'delivered', webhookUrls: [hook.url] });
        const keyed = { ...input, idempotency_key: 'try-again-0001' };
        expect((await svc.submit(keyed)).kind).toBe('rejected');
        hook.mode = 'ok';
        const retry = await svc.submit(keyed);
        expect(retry.kind).toBe('accepted');
        const leads = await store.exportLeads();
        expect(leads.map((l) => [l.status, l.idempotency_key])).toEqual([
          ['not_accepted', null],
          ['accepted', expect.stringMatching(/^try-again-0001\./)],
        ]);
        // And a third one is now a duplicate of the accepted retry.
        expect((await svc.submit(keyed)).kind).toBe('duplicate');
      });

      it('store failure: logged, and the webhooks still get the lead', async () => {
        const hook = await receiver('ok');
        const broken = new FailingStore(store, ['insertLead']);
        const result = await service({
          store: broken,
          acceptMode: 'delivered',
          webhookUrls: [hook.url],
        }).submit(input);
        expect(result.kind).toBe('accepted');
        expect(hook.requests).toHaveLength(1);
        expect(await store.exportLeads()).toEqual([]);
        expect(log.text()).toContain('disk I/O error during insertLead');
        expect(log.text()).not.toContain('Failing row');
      });

      it('store failure and all webhooks failing: 502', async () => {
        const hook = await receiver('fail');
        const broken = new FailingStore(store, ['insertLead']);
        const result = await service({
          store: broken,
          acceptMode: 'delivered',
          webhookUrls: [hook.url],
        }).submit(input);
        expect(result).toEqual({ kind: 'rejected', status: 502, error: SUBMIT_FAILED_MESSAGE });
      });

      it('a closed (broken) real store does not stop webhook delivery', async () => {
        const hook = await receiver('ok');
        const closed = await harness.open();
        await closed.close();
        const result = await service({
          store: closed,
          acceptMode: 'delivered',
          webhookUrls: [hook.url],
        }).submit(input);
        expect(result.kind).toBe('accepted');
        expect(hook.requests).toHaveLength(1);
      });

      it('a lead with photos: the webhook lists them as links; with the store down, as none', async () => {
        const hook = await receiver('ok');
        const closed = await harness.open();
        await closed.close();
        const photos = [{ data: new Uint8Array(20), width: 4, height: 3 }];
        const withPhotos = (target: AppStore) =>
          service({
            store: target,
            acceptMode: 'delivered',
            targets: webhookTargets([hook.url], {
              timeoutMs: 1000,
              photos: {
                source: target,
                links: photoLinks({
                  siteUrl: 'https://glass.example.nz',
                  secret: () => target.getOrCreateSecret('photo-links'),
                }),
              },
            }),
          });
        expect((await withPhotos(store).submit(input, photos)).kind).toBe('accepted');
        // The store could not keep the lead: no link could show its photos, and
        // the webhook still gets the lead.
        expect((await withPhotos(closed).submit(input, photos)).kind).toBe('accepted');
        const sent = hook.requests.map(
          (request) => (request.json as { photos: Array<{ url: string; bytes: number }> }).photos,
        );
        expect(sent[0]).toEqual([
          expect.objectContaining({ url: expect.stringContaining('/lead-photos/'), bytes: 20 }),
        ]);
        expect(sent[1]).toEqual([]);
      });

      it('failing to record the decision keeps the webhook answer', async () => {
        const hook = await receiver('ok');
        const broken = new FailingStore(store, ['settleLead']);
        const result = await service({
          store: broken,
          acceptMode: 'delivered',
          webhookUrls: [hook.url],
        }).submit(input);
        expect(result.kind).toBe('accepted');
        expect(log.text()).toContain('Could not record the lead decision');
      });
    });

    describe('stored mode', () => {
      it('accepts once committed and delivers from the outbox', async () => {
        const hook = await receiver('ok');
        const outbox = outboxFor(store, { urls: [hook.url] });
        const result = await service({
          acceptMode: 'stored',
          webhookUrls: [hook.url],
          outbox,
        }).submit(input);
        expect(result.kind).toBe('accepted');
        if (result.kind !== 'accepted') return;
        await hook.waitForRequests(1);
        await eventually(async () => {
          const lead = await store.getLead(result.id);
          expect(lead?.status).toBe('accepted');
          expect(lead?.deliveries[0]?.state).toBe('delivered');
        });
      });

      it('accepts with every webhook down, retrying until they are back', async () => {
        const hook = await receiver('fail');
        const outbox = outboxFor(store, { urls: [hook.url] });
        const result = await service({
          acceptMode: 'stored',
          webhookUrls: [hook.url],
          outbox,
        }).submit(input);
        expect(result.kind).toBe('accepted');
        await hook.waitForRequests(2);
        hook.mode = 'ok';
        await eventually(async () => {
          const [lead] = await store.exportLeads();
          expect(lead?.deliveries[0]?.state).toBe('delivered');
        });
      });

      it('accepts without any webhook configured', async () => {
        const result = await service({ acceptMode: 'stored' }).submit(input);
        expect(result.kind).toBe('accepted');
        const [lead] = await store.exportLeads();
        expect(lead).toEqual(expect.objectContaining({ status: 'accepted', deliveries: [] }));
      });

      it('store failure refuses the submission with 502 and sends nothing', async () => {
        const hook = await receiver('ok');
        const broken = new FailingStore(store, ['insertLead']);
        const result = await service({
          store: broken,
          acceptMode: 'stored',
          webhookUrls: [hook.url],
          outbox: outboxFor(store, { urls: [hook.url] }),
        }).submit(input);
        expect(result).toEqual({ kind: 'rejected', status: 502, error: SUBMIT_FAILED_MESSAGE });
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(hook.requests).toHaveLength(0);
      });

      it('a closed real store refuses the submission with 502', async () => {
        await store.close();
        const result = await service({ acceptMode: 'stored' }).submit(input);
        expect(result.kind).toBe('rejected');
        store = await harness.open();
      });

      it('concurrent duplicates store one lead', async () => {
        const svc = service({ acceptMode: 'stored' });
        const keyed = { ...input, idempotency_key: 'stored-dup-0001' };
        const results = await Promise.all([svc.submit(keyed), svc.submit(keyed)]);
        expect(results.map((r) => r.kind).sort()).toEqual(['accepted', 'duplicate']);
        expect(await store.exportLeads()).toHaveLength(1);
      });

      it('a different enquiry with a used key is stored as a new lead', async () => {
        const svc = service({ acceptMode: 'stored' });
        const keyed = { ...input, idempotency_key: 'stored-reuse-0001' };
        const first = await svc.submit(keyed);
        const second = await svc.submit({ ...keyed, phone: '027 555 0202' });
        expect([first.kind, second.kind]).toEqual(['accepted', 'accepted']);
        const phones = (await store.exportLeads()).map((lead) => lead.phone);
        expect(phones).toEqual(['021 555 0101', '027 555 0202']);
      });
    });

    describe('both modes', () => {
      it.each(['delivered', 'stored'] as const)(
        '%s: the honeypot stores spam, answers like success and never delivers',
        async (acceptMode) => {
          const hook = await receiver('ok');
          const outbox = outboxFor(store, { urls: [hook.url] });
          const result = await service({ acceptMode, webhookUrls: [hook.url], outbox }).submit({
            ...input,
            [HONEYPOT_FIELD]: 'http://buy-now.example',
          });
          expect(result).toEqual(expect.objectContaining({ kind: 'accepted', status: 201 }));
          await outbox.runOnce();
          await new Promise((resolve) => setTimeout(resolve, 200));
          expect(hook.requests).toHaveLength(0);
          const [lead] = await store.exportLeads();
          expect(lead?.status).toBe('spam');
          expect(lead?.stage).toBe('spam');
          expect(lead?.spam_reason).toBe('trap');
          // Delivered nowhere: not one delivery row, for any target.
          expect(lead?.deliveries).toEqual([]);
        },
      );

      it.each(['delivered', 'stored'] as const)(
        '%s: a link without a proof-of-work is spam: a success to the sender, sent nowhere',
        async (acceptMode) => {
          const hook = await receiver('ok');
          const outbox = outboxFor(store, { urls: [hook.url] });
          const svc = service({ acceptMode, webhookUrls: [hook.url], outbox });
          const result = await svc.submit({
            ...input,
            message: 'Cheap glass at www.glass-deals.example, order today',
          });
          expect(result).toEqual(
            expect.objectContaining({ kind: 'accepted', status: 201, spam: true }),
          );
          expect(resultBody(result)).toEqual({
            id: expect.any(String),
            created_at: expect.any(String),
          });
          await outbox.runOnce();
          expect(hook.requests).toHaveLength(0);
          const [lead] = await store.exportLeads();
          expect([lead?.status, lead?.stage, lead?.spam_reason]).toEqual(['spam', 'spam', 'link']);
          expect(lead?.deliveries).toEqual([]);
        },
      );

      it.each(['delivered', 'stored'] as const)(
        '%s: a spam lead has no delivery row for any target, the push to the phones included',
        async (acceptMode) => {
          const hook = await receiver('ok');
          const pushed: string[] = [];
          const push: DeliveryTarget = {
            key: 'push',
            label: 'push',
            notifyOnly: true,
            deliver: async (lead) => {
              pushed.push(lead.id);
              return { ok: true };
            },
          };
          const targets = [...webhookTargets([hook.url], { timeoutMs: 1000 }), push];
          const outbox = createOutbox({
            store,
            logger: log.logger,
            targets,
            timeoutMs: 1000,
            pollIntervalMs: 25,
          });
          outboxes.push(outbox);
          const svc = createLeadService({
            store,
            targets,
            acceptMode,
            logger: log.logger,
            outbox,
          });
          const spam = await svc.submit({ ...input, message: 'Cheap www.glass.example offer' });
          const real = await svc.submit({ ...input, message: 'A cracked pane in the laundry' });
          await outbox.runOnce();
          const [first, second] = await store.exportLeads();
          expect([first?.status, first?.deliveries]).toEqual(['spam', []]);
          expect(second?.deliveries.map((d) => d.target)).toEqual(['webhook:1', 'push']);
          expect(spam.kind === 'accepted' && pushed.includes(spam.id)).toBe(false);
          expect(real.kind === 'accepted' && pushed.includes(real.id)).toBe(true);
        },
      );

      it('a link with a valid proof-of-work is a real enquiry, delivered', async () => {
        const hook = await receiver('ok');
        const svc = service({ acceptMode: 'delivered', webhookUrls: [hook.url] });
        const result = await svc.submit(
          { ...input, message: 'Like the window at https://example.co.nz/photo.jpg please' },
          [],
          { proof: 'valid' },
        );
        expect(result).toEqual(expect.objectContaining({ kind: 'accepted', spam: false }));
        expect(hook.requests).toHaveLength(1);
      });

      it.each(['invalid', 'replayed'] as const)(
        'a proof-of-work %s is spam whatever the lead says',
        async (proof) => {
          const svc = service({ acceptMode: 'stored' });
          await svc.submit(input, [], { proof });
          const [lead] = await store.exportLeads();
          expect([lead?.status, lead?.spam_reason]).toEqual(['spam', 'proof']);
        },
      );

      it('without a proof-of-work and with no other signal, a lead is a real enquiry', async () => {
        const svc = service({ acceptMode: 'stored' });
        const result = await svc.submit(input);
        expect(result).toEqual(expect.objectContaining({ kind: 'accepted', spam: false }));
        const [lead] = await store.exportLeads();
        expect([lead?.status, lead?.stage, lead?.spam_reason]).toEqual(['accepted', 'new', null]);
      });

      it('the same message again within 24 hours is spam; the first stays as it was', async () => {
        let clock = Date.parse('2026-03-02T09:00:00.000Z');
        const svc = service({ acceptMode: 'stored', now: () => clock });
        const message = 'We can  double your sales this month, reply YES to learn more.';
        await svc.submit({ ...input, message });
        clock += 60_000;
        await svc.submit({
          ...input,
          name: 'Someone Else',
          email: 'other@example.com',
          message: `  ${message.toUpperCase().replace(/ /g, '\n')} `,
        });
        // Past 24 hours the first no longer counts.
        clock += 25 * 60 * 60 * 1000;
        await svc.submit({ ...input, email: 'third@example.com', message });
        const leads = await store.exportLeads();
        expect(leads.map((lead) => [lead.status, lead.spam_reason])).toEqual([
          ['accepted', null],
          ['spam', 'repeated'],
          // A day after the second, which was within 24 hours.
          ['accepted', null],
        ]);
      });

      it('a store that cannot look for the same message keeps the lead a real enquiry', async () => {
        const failing = new FailingStore(store, ['hasMessageSince']);
        const svc = createLeadService({
          store: failing,
          targets: [],
          acceptMode: 'stored',
          logger: log.logger,
        });
        const result = await svc.submit(input);
        expect(result).toEqual(expect.objectContaining({ kind: 'accepted', spam: false }));
        expect(log.text()).toContain('Repeated-message check skipped');
      });

      it.each(['delivered', 'stored'] as const)(
        '%s: invalid input is answered 400 and nothing is stored or sent',
        async (acceptMode) => {
          const hook = await receiver('ok');
          const svc = service({ acceptMode, webhookUrls: [hook.url] });
          expect(await svc.submit({ ...input, email: 'nope' })).toEqual({
            kind: 'invalid',
            status: 400,
            error: INVALID_EMAIL_MESSAGE,
            fields: { email: INVALID_EMAIL_MESSAGE },
          });
          const empty = await svc.submit({});
          expect(empty.kind === 'invalid' && empty.error).toBe(REQUIRED_FIELDS_MESSAGE);
          expect(resultBody(empty)).toEqual(
            expect.objectContaining({ error: REQUIRED_FIELDS_MESSAGE }),
          );
          expect(await store.exportLeads()).toEqual([]);
          expect(hook.requests).toHaveLength(0);
        },
      );

      it('an unexpected exception becomes 502 with the unexpected-error message', async () => {
        const svc = service({ acceptMode: 'stored' });
        const hostile = {
          ...input,
          get email(): string {
            throw new Error('getter exploded');
          },
        };
        expect(await svc.submit(hostile)).toEqual({
          kind: 'rejected',
          status: 502,
          error: UNEXPECTED_ERROR_MESSAGE,
        });
        expect(log.text()).toContain('getter exploded');
      });

      it('refuses to build a delivered-mode service without a target', () => {
        expect(() => service({ acceptMode: 'delivered', webhookUrls: [] })).toThrow(
          /delivery target/,
        );
      });
    });
  });

import type { Logger } from 'pino';
import type { SiteContent, SiteContentSection } from '../content/site-content.ts';
import type { SiteContentSaveResult } from './site-content/site-content.server.ts';
import { storeErrorForLog, type AppStore } from './store.server.ts';

/**
 * The store as the server holds it: an outage, not a
 * crash. The server starts whether or not the database answers; the store
 * is opened (connected and migrated) on first use and opened again on the
 * next use after a failure, so the site reconnects by itself when
 * PostgreSQL comes back. The outbox polls every second, so that happens
 * without visitors too. While the store is away every call fails fast and
 * the callers follow docs/operations.md#delivery, step 1 (`webhook` mode goes on without
 * it, `stored` mode refuses the submission); pages never depend on it.
 *
 * Once open, PostgreSQL's pool replaces broken connections by itself; the
 * SQLite file stays open.
 */
export class ReconnectingAppStore implements AppStore {
  readonly kind: AppStore['kind'];
  readonly #open: () => Promise<AppStore>;
  readonly #log: Logger | undefined;
  #inner: AppStore | undefined;
  #opening: Promise<AppStore> | undefined;
  #closed = false;
  /** Last known state, so an outage is logged when it starts and when it ends. */
  #up: boolean | undefined;

  constructor(kind: AppStore['kind'], open: () => Promise<AppStore>, logger?: Logger) {
    this.kind = kind;
    this.#open = open;
    this.#log = logger?.child({ component: 'lead-store', store: kind });
  }

  #mark(up: boolean, error?: unknown): void {
    if (up === this.#up) return;
    this.#up = up;
    if (up) this.#log?.info('Lead store available');
    else this.#log?.error({ err: storeErrorForLog(error) }, 'Lead store unavailable');
  }

  async #store(): Promise<AppStore> {
    if (this.#closed) throw new Error('Lead store is closed');
    if (this.#inner) return this.#inner;
    this.#opening ??= this.#open()
      .then(async (store) => {
        if (this.#closed) {
          await store.close();
          throw new Error('Lead store is closed');
        }
        this.#inner = store;
        this.#mark(true);
        return store;
      })
      .catch((error: unknown) => {
        this.#mark(false, error);
        throw error;
      })
      .finally(() => {
        this.#opening = undefined;
      });
    return this.#opening;
  }

  /** Runs one call on the open store; a failure of the call itself marks the store down. */
  async #call<T>(work: (store: AppStore) => Promise<T>): Promise<T> {
    const store = await this.#store();
    return work(store);
  }

  insertLead: AppStore['insertLead'] = (...args) => this.#call((s) => s.insertLead(...args));
  findByIdempotencyKey: AppStore['findByIdempotencyKey'] = (...args) =>
    this.#call((s) => s.findByIdempotencyKey(...args));
  getLead: AppStore['getLead'] = (...args) => this.#call((s) => s.getLead(...args));
  getLeadPhoto: AppStore['getLeadPhoto'] = (...args) => this.#call((s) => s.getLeadPhoto(...args));
  getOrCreateSecret: AppStore['getOrCreateSecret'] = (...args) =>
    this.#call((s) => s.getOrCreateSecret(...args));
  settleLead: AppStore['settleLead'] = (...args) => this.#call((s) => s.settleLead(...args));
  releaseIdempotencyKey: AppStore['releaseIdempotencyKey'] = (...args) =>
    this.#call((s) => s.releaseIdempotencyKey(...args));
  claimDueDeliveries: AppStore['claimDueDeliveries'] = (...args) =>
    this.#call((s) => s.claimDueDeliveries(...args));
  cancelDeliveriesExcept: AppStore['cancelDeliveriesExcept'] = (...args) =>
    this.#call((s) => s.cancelDeliveriesExcept(...args));
  recordDelivery: AppStore['recordDelivery'] = (...args) =>
    this.#call((s) => s.recordDelivery(...args));
  retryDelivery: AppStore['retryDelivery'] = (...args) =>
    this.#call((s) => s.retryDelivery(...args));
  expireReceived: AppStore['expireReceived'] = (...args) =>
    this.#call((s) => s.expireReceived(...args));
  listLeads: AppStore['listLeads'] = (...args) => this.#call((s) => s.listLeads(...args));
  exportLeads: AppStore['exportLeads'] = () => this.#call((s) => s.exportLeads());
  findLeadsByEmail: AppStore['findLeadsByEmail'] = (...args) =>
    this.#call((s) => s.findLeadsByEmail(...args));
  deleteLeads: AppStore['deleteLeads'] = (...args) => this.#call((s) => s.deleteLeads(...args));
  purgeCreatedBefore: AppStore['purgeCreatedBefore'] = (...args) =>
    this.#call((s) => s.purgeCreatedBefore(...args));
  purgeSpamBefore: AppStore['purgeSpamBefore'] = (...args) =>
    this.#call((s) => s.purgeSpamBefore(...args));
  hasMessageSince: AppStore['hasMessageSince'] = (...args) =>
    this.#call((s) => s.hasMessageSince(...args));
  countSpamLeads: AppStore['countSpamLeads'] = (...args) =>
    this.#call((s) => s.countSpamLeads(...args));
  markSpam: AppStore['markSpam'] = (...args) => this.#call((s) => s.markSpam(...args));
  rescueLead: AppStore['rescueLead'] = (...args) => this.#call((s) => s.rescueLead(...args));
  hitRateLimit: AppStore['hitRateLimit'] = (...args) => this.#call((s) => s.hitRateLimit(...args));
  undoRateLimitHit: AppStore['undoRateLimitHit'] = (...args) =>
    this.#call((s) => s.undoRateLimitHit(...args));
  resetRateLimit: AppStore['resetRateLimit'] = (...args) =>
    this.#call((s) => s.resetRateLimit(...args));
  purgeRateLimits: AppStore['purgeRateLimits'] = () => this.#call((s) => s.purgeRateLimits());
  spendProofOfWork: AppStore['spendProofOfWork'] = (...args) =>
    this.#call((s) => s.spendProofOfWork(...args));
  purgeSpentProofsOfWork: AppStore['purgeSpentProofsOfWork'] = () =>
    this.#call((s) => s.purgeSpentProofsOfWork());
  countFailedDeliveries: AppStore['countFailedDeliveries'] = () =>
    this.#call((s) => s.countFailedDeliveries());
  acknowledgeLead: AppStore['acknowledgeLead'] = (...args) =>
    this.#call((s) => s.acknowledgeLead(...args));
  claimEscalations: AppStore['claimEscalations'] = (...args) =>
    this.#call((s) => s.claimEscalations(...args));
  finishEscalation: AppStore['finishEscalation'] = (...args) =>
    this.#call((s) => s.finishEscalation(...args));
  checkTargetOutage: AppStore['checkTargetOutage'] = (...args) =>
    this.#call((s) => s.checkTargetOutage(...args));
  listFollowUps: AppStore['listFollowUps'] = (...args) =>
    this.#call((s) => s.listFollowUps(...args));
  claimMorningEmail: AppStore['claimMorningEmail'] = (...args) =>
    this.#call((s) => s.claimMorningEmail(...args));
  finishMorningEmail: AppStore['finishMorningEmail'] = (...args) =>
    this.#call((s) => s.finishMorningEmail(...args));
  createReviewRequest: AppStore['createReviewRequest'] = (...args) =>
    this.#call((s) => s.createReviewRequest(...args));
  latestReviewRequestForEmail: AppStore['latestReviewRequestForEmail'] = (...args) =>
    this.#call((s) => s.latestReviewRequestForEmail(...args));
  latestReviewRequestForLead: AppStore['latestReviewRequestForLead'] = (...args) =>
    this.#call((s) => s.latestReviewRequestForLead(...args));
  listReviewRequestsForLead: AppStore['listReviewRequestsForLead'] = (...args) =>
    this.#call((s) => s.listReviewRequestsForLead(...args));
  getReviewRequest: AppStore['getReviewRequest'] = (...args) =>
    this.#call((s) => s.getReviewRequest(...args));
  findReviewRequest: AppStore['findReviewRequest'] = (...args) =>
    this.#call((s) => s.findReviewRequest(...args));
  submitReview: AppStore['submitReview'] = (...args) => this.#call((s) => s.submitReview(...args));
  listWaitingReviews: AppStore['listWaitingReviews'] = (...args) =>
    this.#call((s) => s.listWaitingReviews(...args));
  decideReview: AppStore['decideReview'] = (...args) => this.#call((s) => s.decideReview(...args));
  checkWritable: AppStore['checkWritable'] = () => this.#call((s) => s.checkWritable());
  peekRateLimit: AppStore['peekRateLimit'] = (...args) =>
    this.#call((s) => s.peekRateLimit(...args));
  saveLeadTracking: AppStore['saveLeadTracking'] = (...args) =>
    this.#call((s) => s.saveLeadTracking(...args));
  searchLeads: AppStore['searchLeads'] = (...args) => this.#call((s) => s.searchLeads(...args));
  markLeadSeen: AppStore['markLeadSeen'] = (...args) => this.#call((s) => s.markLeadSeen(...args));
  markLeadsSeen: AppStore['markLeadsSeen'] = (...args) =>
    this.#call((s) => s.markLeadsSeen(...args));
  countUnseenLeads: AppStore['countUnseenLeads'] = () => this.#call((s) => s.countUnseenLeads());
  addOwner: AppStore['addOwner'] = (...args) => this.#call((s) => s.addOwner(...args));
  getOwner: AppStore['getOwner'] = (...args) => this.#call((s) => s.getOwner(...args));
  findOwnerByEmail: AppStore['findOwnerByEmail'] = (...args) =>
    this.#call((s) => s.findOwnerByEmail(...args));
  listOwners: AppStore['listOwners'] = (...args) => this.#call((s) => s.listOwners(...args));
  removeOwner: AppStore['removeOwner'] = (...args) => this.#call((s) => s.removeOwner(...args));
  addPasskey: AppStore['addPasskey'] = (...args) => this.#call((s) => s.addPasskey(...args));
  findPasskey: AppStore['findPasskey'] = (...args) => this.#call((s) => s.findPasskey(...args));
  listPasskeys: AppStore['listPasskeys'] = (...args) => this.#call((s) => s.listPasskeys(...args));
  recordPasskeyUse: AppStore['recordPasskeyUse'] = (...args) =>
    this.#call((s) => s.recordPasskeyUse(...args));
  removePasskey: AppStore['removePasskey'] = (...args) =>
    this.#call((s) => s.removePasskey(...args));
  createSession: AppStore['createSession'] = (...args) =>
    this.#call((s) => s.createSession(...args));
  findSession: AppStore['findSession'] = (...args) => this.#call((s) => s.findSession(...args));
  touchSession: AppStore['touchSession'] = (...args) => this.#call((s) => s.touchSession(...args));
  endSession: AppStore['endSession'] = (...args) => this.#call((s) => s.endSession(...args));
  endOwnerSessions: AppStore['endOwnerSessions'] = (...args) =>
    this.#call((s) => s.endOwnerSessions(...args));
  createOwnerLink: AppStore['createOwnerLink'] = (...args) =>
    this.#call((s) => s.createOwnerLink(...args));
  consumeOwnerLink: AppStore['consumeOwnerLink'] = (...args) =>
    this.#call((s) => s.consumeOwnerLink(...args));
  findOwnerLink: AppStore['findOwnerLink'] = (...args) =>
    this.#call((s) => s.findOwnerLink(...args));
  createOwnerChallenge: AppStore['createOwnerChallenge'] = (...args) =>
    this.#call((s) => s.createOwnerChallenge(...args));
  consumeOwnerChallenge: AppStore['consumeOwnerChallenge'] = (...args) =>
    this.#call((s) => s.consumeOwnerChallenge(...args));
  purgeExpiredSignIns: AppStore['purgeExpiredSignIns'] = (...args) =>
    this.#call((s) => s.purgeExpiredSignIns(...args));
  recordActivity: AppStore['recordActivity'] = (...args) =>
    this.#call((s) => s.recordActivity(...args));
  listActivity: AppStore['listActivity'] = (...args) => this.#call((s) => s.listActivity(...args));
  addPushSubscription: AppStore['addPushSubscription'] = (...args) =>
    this.#call((s) => s.addPushSubscription(...args));
  listOwnerPushSubscriptions: AppStore['listOwnerPushSubscriptions'] = (...args) =>
    this.#call((s) => s.listOwnerPushSubscriptions(...args));
  listPushSubscriptions: AppStore['listPushSubscriptions'] = (...args) =>
    this.#call((s) => s.listPushSubscriptions(...args));
  deletePushSubscription: AppStore['deletePushSubscription'] = (...args) =>
    this.#call((s) => s.deletePushSubscription(...args));
  deletePushSubscriptionByEndpoint: AppStore['deletePushSubscriptionByEndpoint'] = (...args) =>
    this.#call((s) => s.deletePushSubscriptionByEndpoint(...args));
  getOrCreateVapidKeys: AppStore['getOrCreateVapidKeys'] = (...args) =>
    this.#call((s) => s.getOrCreateVapidKeys(...args));
  siteContentDraft: AppStore['siteContentDraft'] = () => this.#call((s) => s.siteContentDraft());
  saveSiteContentSection<S extends SiteContentSection>(
    section: S,
    content: SiteContent[S],
    expectedRevision: number,
    ownerId: string | null,
  ): Promise<SiteContentSaveResult<S>> {
    return this.#call((s) => s.saveSiteContentSection(section, content, expectedRevision, ownerId));
  }
  createSiteContentVersion: AppStore['createSiteContentVersion'] = (...args) =>
    this.#call((s) => s.createSiteContentVersion(...args));
  setSiteContentVersionState: AppStore['setSiteContentVersionState'] = (...args) =>
    this.#call((s) => s.setSiteContentVersionState(...args));
  supersedeSiteContentVersions: AppStore['supersedeSiteContentVersions'] = (...args) =>
    this.#call((s) => s.supersedeSiteContentVersions(...args));
  recordSiteBuild: AppStore['recordSiteBuild'] = (...args) =>
    this.#call((s) => s.recordSiteBuild(...args));
  listSiteBuilds: AppStore['listSiteBuilds'] = (...args) =>
    this.#call((s) => s.listSiteBuilds(...args));
  siteHostsServing: AppStore['siteHostsServing'] = () => this.#call((s) => s.siteHostsServing());
  newestLiveSiteContent: AppStore['newestLiveSiteContent'] = () =>
    this.#call((s) => s.newestLiveSiteContent());
  siteContentVersion: AppStore['siteContentVersion'] = (...args) =>
    this.#call((s) => s.siteContentVersion(...args));
  listSiteContentVersions: AppStore['listSiteContentVersions'] = (...args) =>
    this.#call((s) => s.listSiteContentVersions(...args));
  addSitePhoto: AppStore['addSitePhoto'] = (...args) => this.#call((s) => s.addSitePhoto(...args));
  sitePhoto: AppStore['sitePhoto'] = (...args) => this.#call((s) => s.sitePhoto(...args));
  deleteUnusedSitePhotos: AppStore['deleteUnusedSitePhotos'] = (...args) =>
    this.#call((s) => s.deleteUnusedSitePhotos(...args));
  removeSiteTestimonialsOfLeads: AppStore['removeSiteTestimonialsOfLeads'] = (...args) =>
    this.#call((s) => s.removeSiteTestimonialsOfLeads(...args));

  /** Also what GET /healthz asks: it records whether the store answers now. */
  async ping(): Promise<void> {
    try {
      await this.#call((s) => s.ping());
      this.#mark(true);
    } catch (error) {
      this.#mark(false, error);
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#opening?.catch(() => undefined);
    await this.#inner?.close();
  }
}

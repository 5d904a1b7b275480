import type { Logger } from 'pino';
import type { SiteContent, SiteContentSection } from '../content/site-content.ts';
import type { SiteContentSaveResult } from './site-content/site-content.server.ts';
import { storeErrorForLog, type LeadStore } from './store.server.ts';

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
export class ReconnectingLeadStore implements LeadStore {
  readonly kind: LeadStore['kind'];
  readonly #open: () => Promise<LeadStore>;
  readonly #log: Logger | undefined;
  #inner: LeadStore | undefined;
  #opening: Promise<LeadStore> | undefined;
  #closed = false;
  /** Last known state, so an outage is logged when it starts and when it ends. */
  #up: boolean | undefined;

  constructor(kind: LeadStore['kind'], open: () => Promise<LeadStore>, logger?: Logger) {
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

  async #store(): Promise<LeadStore> {
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
  async #call<T>(work: (store: LeadStore) => Promise<T>): Promise<T> {
    const store = await this.#store();
    return work(store);
  }

  insertLead: LeadStore['insertLead'] = (...args) => this.#call((s) => s.insertLead(...args));
  findByIdempotencyKey: LeadStore['findByIdempotencyKey'] = (...args) =>
    this.#call((s) => s.findByIdempotencyKey(...args));
  getLead: LeadStore['getLead'] = (...args) => this.#call((s) => s.getLead(...args));
  getLeadPhoto: LeadStore['getLeadPhoto'] = (...args) => this.#call((s) => s.getLeadPhoto(...args));
  getOrCreateSecret: LeadStore['getOrCreateSecret'] = (...args) =>
    this.#call((s) => s.getOrCreateSecret(...args));
  settleLead: LeadStore['settleLead'] = (...args) => this.#call((s) => s.settleLead(...args));
  releaseIdempotencyKey: LeadStore['releaseIdempotencyKey'] = (...args) =>
    this.#call((s) => s.releaseIdempotencyKey(...args));
  claimDueDeliveries: LeadStore['claimDueDeliveries'] = (...args) =>
    this.#call((s) => s.claimDueDeliveries(...args));
  cancelDeliveriesExcept: LeadStore['cancelDeliveriesExcept'] = (...args) =>
    this.#call((s) => s.cancelDeliveriesExcept(...args));
  recordDelivery: LeadStore['recordDelivery'] = (...args) =>
    this.#call((s) => s.recordDelivery(...args));
  retryDelivery: LeadStore['retryDelivery'] = (...args) =>
    this.#call((s) => s.retryDelivery(...args));
  expireReceived: LeadStore['expireReceived'] = (...args) =>
    this.#call((s) => s.expireReceived(...args));
  listLeads: LeadStore['listLeads'] = (...args) => this.#call((s) => s.listLeads(...args));
  exportLeads: LeadStore['exportLeads'] = () => this.#call((s) => s.exportLeads());
  findLeadsByEmail: LeadStore['findLeadsByEmail'] = (...args) =>
    this.#call((s) => s.findLeadsByEmail(...args));
  deleteLeads: LeadStore['deleteLeads'] = (...args) => this.#call((s) => s.deleteLeads(...args));
  purgeCreatedBefore: LeadStore['purgeCreatedBefore'] = (...args) =>
    this.#call((s) => s.purgeCreatedBefore(...args));
  hitRateLimit: LeadStore['hitRateLimit'] = (...args) => this.#call((s) => s.hitRateLimit(...args));
  undoRateLimitHit: LeadStore['undoRateLimitHit'] = (...args) =>
    this.#call((s) => s.undoRateLimitHit(...args));
  resetRateLimit: LeadStore['resetRateLimit'] = (...args) =>
    this.#call((s) => s.resetRateLimit(...args));
  purgeRateLimits: LeadStore['purgeRateLimits'] = () => this.#call((s) => s.purgeRateLimits());
  countFailedDeliveries: LeadStore['countFailedDeliveries'] = () =>
    this.#call((s) => s.countFailedDeliveries());
  checkWritable: LeadStore['checkWritable'] = () => this.#call((s) => s.checkWritable());
  peekRateLimit: LeadStore['peekRateLimit'] = (...args) =>
    this.#call((s) => s.peekRateLimit(...args));
  saveLeadTracking: LeadStore['saveLeadTracking'] = (...args) =>
    this.#call((s) => s.saveLeadTracking(...args));
  searchLeads: LeadStore['searchLeads'] = (...args) => this.#call((s) => s.searchLeads(...args));
  countLeadsSince: LeadStore['countLeadsSince'] = (...args) =>
    this.#call((s) => s.countLeadsSince(...args));
  addOwner: LeadStore['addOwner'] = (...args) => this.#call((s) => s.addOwner(...args));
  getOwner: LeadStore['getOwner'] = (...args) => this.#call((s) => s.getOwner(...args));
  findOwnerByEmail: LeadStore['findOwnerByEmail'] = (...args) =>
    this.#call((s) => s.findOwnerByEmail(...args));
  listOwners: LeadStore['listOwners'] = (...args) => this.#call((s) => s.listOwners(...args));
  removeOwner: LeadStore['removeOwner'] = (...args) => this.#call((s) => s.removeOwner(...args));
  markInboxSeen: LeadStore['markInboxSeen'] = (...args) =>
    this.#call((s) => s.markInboxSeen(...args));
  addPasskey: LeadStore['addPasskey'] = (...args) => this.#call((s) => s.addPasskey(...args));
  findPasskey: LeadStore['findPasskey'] = (...args) => this.#call((s) => s.findPasskey(...args));
  listPasskeys: LeadStore['listPasskeys'] = (...args) => this.#call((s) => s.listPasskeys(...args));
  recordPasskeyUse: LeadStore['recordPasskeyUse'] = (...args) =>
    this.#call((s) => s.recordPasskeyUse(...args));
  removePasskey: LeadStore['removePasskey'] = (...args) =>
    this.#call((s) => s.removePasskey(...args));
  createSession: LeadStore['createSession'] = (...args) =>
    this.#call((s) => s.createSession(...args));
  findSession: LeadStore['findSession'] = (...args) => this.#call((s) => s.findSession(...args));
  touchSession: LeadStore['touchSession'] = (...args) => this.#call((s) => s.touchSession(...args));
  endSession: LeadStore['endSession'] = (...args) => this.#call((s) => s.endSession(...args));
  endOwnerSessions: LeadStore['endOwnerSessions'] = (...args) =>
    this.#call((s) => s.endOwnerSessions(...args));
  createOwnerLink: LeadStore['createOwnerLink'] = (...args) =>
    this.#call((s) => s.createOwnerLink(...args));
  consumeOwnerLink: LeadStore['consumeOwnerLink'] = (...args) =>
    this.#call((s) => s.consumeOwnerLink(...args));
  findOwnerLink: LeadStore['findOwnerLink'] = (...args) =>
    this.#call((s) => s.findOwnerLink(...args));
  createOwnerChallenge: LeadStore['createOwnerChallenge'] = (...args) =>
    this.#call((s) => s.createOwnerChallenge(...args));
  consumeOwnerChallenge: LeadStore['consumeOwnerChallenge'] = (...args) =>
    this.#call((s) => s.consumeOwnerChallenge(...args));
  purgeExpiredSignIns: LeadStore['purgeExpiredSignIns'] = (...args) =>
    this.#call((s) => s.purgeExpiredSignIns(...args));
  recordActivity: LeadStore['recordActivity'] = (...args) =>
    this.#call((s) => s.recordActivity(...args));
  listActivity: LeadStore['listActivity'] = (...args) => this.#call((s) => s.listActivity(...args));
  siteContentDraft: LeadStore['siteContentDraft'] = () => this.#call((s) => s.siteContentDraft());
  saveSiteContentSection<S extends SiteContentSection>(
    section: S,
    content: SiteContent[S],
    expectedRevision: number,
    ownerId: string | null,
  ): Promise<SiteContentSaveResult<S>> {
    return this.#call((s) => s.saveSiteContentSection(section, content, expectedRevision, ownerId));
  }
  createSiteContentVersion: LeadStore['createSiteContentVersion'] = (...args) =>
    this.#call((s) => s.createSiteContentVersion(...args));
  setSiteContentVersionState: LeadStore['setSiteContentVersionState'] = (...args) =>
    this.#call((s) => s.setSiteContentVersionState(...args));
  supersedeSiteContentVersions: LeadStore['supersedeSiteContentVersions'] = (...args) =>
    this.#call((s) => s.supersedeSiteContentVersions(...args));
  recordSiteBuild: LeadStore['recordSiteBuild'] = (...args) =>
    this.#call((s) => s.recordSiteBuild(...args));
  listSiteBuilds: LeadStore['listSiteBuilds'] = (...args) =>
    this.#call((s) => s.listSiteBuilds(...args));
  siteHostsServing: LeadStore['siteHostsServing'] = () => this.#call((s) => s.siteHostsServing());
  newestLiveSiteContent: LeadStore['newestLiveSiteContent'] = () =>
    this.#call((s) => s.newestLiveSiteContent());
  siteContentVersion: LeadStore['siteContentVersion'] = (...args) =>
    this.#call((s) => s.siteContentVersion(...args));
  listSiteContentVersions: LeadStore['listSiteContentVersions'] = (...args) =>
    this.#call((s) => s.listSiteContentVersions(...args));
  addSitePhoto: LeadStore['addSitePhoto'] = (...args) => this.#call((s) => s.addSitePhoto(...args));
  sitePhoto: LeadStore['sitePhoto'] = (...args) => this.#call((s) => s.sitePhoto(...args));
  deleteUnusedSitePhotos: LeadStore['deleteUnusedSitePhotos'] = (...args) =>
    this.#call((s) => s.deleteUnusedSitePhotos(...args));

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

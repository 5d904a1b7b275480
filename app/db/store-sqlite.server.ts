import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AppStore } from './store.server.ts';
import type { LeadsStore } from './leads/leads.server.ts';
import type { SiteContent, SiteContentSection } from '../content/site-content.ts';
import type {
  SiteContentSaveResult,
  SiteContentStore,
} from './site-content/site-content.server.ts';
import { SqliteConnection } from './sqlite-connection.server.ts';
import { SqliteLeadAlerts } from './leads/lead-alerts.sqlite.server.ts';
import { SqliteLeadsStore } from './leads/leads.sqlite.server.ts';
import { SqliteSiteContentStore } from './site-content/site-content.sqlite.server.ts';
import { SqliteOwnerStore } from './owners/owners.sqlite.server.ts';
import { SqliteSecretStore } from './secrets/secrets.sqlite.server.ts';
import { SqlitePushStore } from './push/push.sqlite.server.ts';
import type { PushStore } from './push/push.server.ts';
import type { SecretStore } from './secrets/secrets.server.ts';
import { SqliteActivityStore } from './activity/activity.sqlite.server.ts';
import type { ActivityStore } from './activity/activity.server.ts';
import { SqliteRateLimitStore } from './rate-limits/rate-limits.sqlite.server.ts';
import type { RateLimitStore } from './rate-limits/rate-limits.server.ts';
import { SqliteProofOfWorkStore } from './proofs-of-work/proofs-of-work.sqlite.server.ts';
import type { ProofOfWorkStore } from './proofs-of-work/proofs-of-work.server.ts';
import { SqliteReviewStore } from './reviews/reviews.sqlite.server.ts';
import { SqliteLeadFollowUps } from './leads/lead-follow-ups.sqlite.server.ts';
import type { LeadFollowUpStore } from './leads/lead-follow-ups.server.ts';
import type { ReviewStore } from './reviews/reviews.server.ts';
import type { OwnerStore } from './owners/owners.server.ts';

/**
 * The embedded store (docs/operations.md#commands: `npm start` needs no database server):
 * one SQLite file, `${dataDir}/leads.sqlite`, through Node's built-in
 * node:sqlite.
 *
 * Durability (docs/operations.md#delivery, steps 1 and 3: a crash loses no lead and no
 * retry): WAL journal with synchronous=FULL, so every COMMIT is fsynced
 * before it returns; a SIGKILL (or power loss) after a commit keeps it.
 * The outbox's bookkeeping (a claim's lease, an attempt's result, a lead
 * expired undecided) commits with synchronous=NORMAL: written to the WAL
 * but not fsynced, so it survives a SIGKILL and is made durable by the next
 * fsynced commit. Power lost before then only rolls the delivery row back
 * to what it was: the attempt is made again (the one duplicate docs/operations.md#delivery
 * allows, a crash between a target's acceptance and the store's
 * record), and no lead or retry is lost. It keeps the outbox's fsyncs from
 * queueing in front of new leads' on the disk.
 *
 * Waiting for a lock never blocks the thread: node:sqlite is synchronous,
 * so SQLite's own busy_timeout would stop every page and request of the
 * server while another process (the leads CLI) holds the write lock. It is
 * 0 here; a statement that finds the file locked is tried again after an
 * awaited pause, for up to BUSY_WAIT_MS. A write that fails for want of a
 * writable file (the lock held past that wait, a full disk, a read-only
 * file) marks the store unwritable: until a write succeeds again, writes
 * are tried once without waiting, so an enquiry is refused at once instead
 * of each waiting out the lock (GET /healthz, the outbox's rounds and the
 * next enquiry each try once and so notice the recovery).
 *
 * Deleted leads leave nothing on the disk (the privacy policy, and Privacy
 * Act requests): secure_delete overwrites the deleted rows and freed pages
 * with zeros, and after a deletion a truncating checkpoint copies the
 * zeroed pages into the file and empties the write-ahead log, which still
 * held the rows' earlier versions.
 */

export const SQLITE_FILE_NAME = 'leads.sqlite';

export class SqliteAppStore implements AppStore {
  readonly kind = 'sqlite' as const;
  readonly #db: SqliteConnection;
  readonly #leads: SqliteLeadsStore;
  readonly #leadAlerts: SqliteLeadAlerts;
  readonly #siteContent: SqliteSiteContentStore;
  readonly #owners: SqliteOwnerStore;
  readonly #secrets: SqliteSecretStore;
  readonly #push: SqlitePushStore;
  readonly #activity: SqliteActivityStore;
  readonly #rateLimits: SqliteRateLimitStore;
  readonly #proofsOfWork: SqliteProofOfWorkStore;
  readonly #reviews: SqliteReviewStore;
  readonly #followUps: SqliteLeadFollowUps;

  /** Use openSqliteStore(), which also sets the journal mode and migrates. */
  constructor(
    file: string,
    options: { busyWaitMs?: number | undefined; replicated?: boolean | undefined } = {},
  ) {
    this.#db = new SqliteConnection(file, options);
    this.#leads = new SqliteLeadsStore(this.#db);
    this.#leadAlerts = new SqliteLeadAlerts(this.#db);
    this.#siteContent = new SqliteSiteContentStore(this.#db);
    this.#owners = new SqliteOwnerStore(this.#db);
    this.#secrets = new SqliteSecretStore(this.#db);
    this.#push = new SqlitePushStore(this.#db);
    this.#activity = new SqliteActivityStore(this.#db);
    this.#rateLimits = new SqliteRateLimitStore(this.#db);
    this.#proofsOfWork = new SqliteProofOfWorkStore(this.#db);
    this.#reviews = new SqliteReviewStore(this.#db);
    this.#followUps = new SqliteLeadFollowUps(this.#db);
  }

  get file(): string {
    return this.#db.file;
  }

  /** WAL mode and the migrations, waiting (awaited) for another process's lock. */
  open(): Promise<void> {
    return this.#db.open();
  }

  /** PRAGMA synchronous now: 2 (FULL) between bookkeeping commits (for the tests). */
  get synchronous(): number {
    return this.#db.synchronous;
  }

  // The store's secrets (app/db/secrets/secrets.sqlite.server.ts)
  getOrCreateSecret: SecretStore['getOrCreateSecret'] = (...args) =>
    this.#secrets.getOrCreateSecret(...args);

  // The owners' push subscriptions and the VAPID keys (app/db/push/push.sqlite.server.ts)
  addPushSubscription: PushStore['addPushSubscription'] = (...args) =>
    this.#push.addPushSubscription(...args);
  listOwnerPushSubscriptions: PushStore['listOwnerPushSubscriptions'] = (...args) =>
    this.#push.listOwnerPushSubscriptions(...args);
  listPushSubscriptions: PushStore['listPushSubscriptions'] = (...args) =>
    this.#push.listPushSubscriptions(...args);
  deletePushSubscription: PushStore['deletePushSubscription'] = (...args) =>
    this.#push.deletePushSubscription(...args);
  deletePushSubscriptionByEndpoint: PushStore['deletePushSubscriptionByEndpoint'] = (...args) =>
    this.#push.deletePushSubscriptionByEndpoint(...args);
  getOrCreateVapidKeys: PushStore['getOrCreateVapidKeys'] = (...args) =>
    this.#push.getOrCreateVapidKeys(...args);

  // The rate limits (app/db/rate-limits/rate-limits.sqlite.server.ts)
  hitRateLimit: RateLimitStore['hitRateLimit'] = (...args) =>
    this.#rateLimits.hitRateLimit(...args);
  undoRateLimitHit: RateLimitStore['undoRateLimitHit'] = (...args) =>
    this.#rateLimits.undoRateLimitHit(...args);
  resetRateLimit: RateLimitStore['resetRateLimit'] = (...args) =>
    this.#rateLimits.resetRateLimit(...args);
  purgeRateLimits: RateLimitStore['purgeRateLimits'] = (...args) =>
    this.#rateLimits.purgeRateLimits(...args);
  peekRateLimit: RateLimitStore['peekRateLimit'] = (...args) =>
    this.#rateLimits.peekRateLimit(...args);

  // The spent proofs of work (app/db/proofs-of-work/proofs-of-work.sqlite.server.ts)
  spendProofOfWork: ProofOfWorkStore['spendProofOfWork'] = (...args) =>
    this.#proofsOfWork.spendProofOfWork(...args);
  purgeSpentProofsOfWork: ProofOfWorkStore['purgeSpentProofsOfWork'] = () =>
    this.#proofsOfWork.purgeSpentProofsOfWork();

  // Follow-ups and the morning e-mail (app/db/leads/lead-follow-ups.sqlite.server.ts)
  listFollowUps: LeadFollowUpStore['listFollowUps'] = (...args) =>
    this.#followUps.listFollowUps(...args);
  claimMorningEmail: LeadFollowUpStore['claimMorningEmail'] = (...args) =>
    this.#followUps.claimMorningEmail(...args);
  finishMorningEmail: LeadFollowUpStore['finishMorningEmail'] = (...args) =>
    this.#followUps.finishMorningEmail(...args);

  // Review requests and the reviews they brought (app/db/reviews/reviews.sqlite.server.ts)
  createReviewRequest: ReviewStore['createReviewRequest'] = (...args) =>
    this.#reviews.createReviewRequest(...args);
  latestReviewRequestForEmail: ReviewStore['latestReviewRequestForEmail'] = (...args) =>
    this.#reviews.latestReviewRequestForEmail(...args);
  latestReviewRequestForLead: ReviewStore['latestReviewRequestForLead'] = (...args) =>
    this.#reviews.latestReviewRequestForLead(...args);
  listReviewRequestsForLead: ReviewStore['listReviewRequestsForLead'] = (...args) =>
    this.#reviews.listReviewRequestsForLead(...args);
  getReviewRequest: ReviewStore['getReviewRequest'] = (...args) =>
    this.#reviews.getReviewRequest(...args);
  findReviewRequest: ReviewStore['findReviewRequest'] = (...args) =>
    this.#reviews.findReviewRequest(...args);
  submitReview: ReviewStore['submitReview'] = (...args) => this.#reviews.submitReview(...args);
  listWaitingReviews: ReviewStore['listWaitingReviews'] = (...args) =>
    this.#reviews.listWaitingReviews(...args);
  decideReview: ReviewStore['decideReview'] = (...args) => this.#reviews.decideReview(...args);

  // Leads and their outbox (leads/leads.sqlite.server.ts)
  insertLead: LeadsStore['insertLead'] = (...args) => this.#leads.insertLead(...args);
  getLeadPhoto: LeadsStore['getLeadPhoto'] = (...args) => this.#leads.getLeadPhoto(...args);
  findByIdempotencyKey: LeadsStore['findByIdempotencyKey'] = (...args) =>
    this.#leads.findByIdempotencyKey(...args);
  getLead: LeadsStore['getLead'] = (...args) => this.#leads.getLead(...args);
  settleLead: LeadsStore['settleLead'] = (...args) => this.#leads.settleLead(...args);
  releaseIdempotencyKey: LeadsStore['releaseIdempotencyKey'] = (...args) =>
    this.#leads.releaseIdempotencyKey(...args);
  claimDueDeliveries: LeadsStore['claimDueDeliveries'] = (...args) =>
    this.#leads.claimDueDeliveries(...args);
  recordDelivery: LeadsStore['recordDelivery'] = (...args) => this.#leads.recordDelivery(...args);
  retryDelivery: LeadsStore['retryDelivery'] = (...args) => this.#leads.retryDelivery(...args);
  cancelDeliveriesExcept: LeadsStore['cancelDeliveriesExcept'] = (...args) =>
    this.#leads.cancelDeliveriesExcept(...args);
  expireReceived: LeadsStore['expireReceived'] = (...args) => this.#leads.expireReceived(...args);
  listLeads: LeadsStore['listLeads'] = (...args) => this.#leads.listLeads(...args);
  exportLeads: LeadsStore['exportLeads'] = (...args) => this.#leads.exportLeads(...args);
  findLeadsByEmail: LeadsStore['findLeadsByEmail'] = (...args) =>
    this.#leads.findLeadsByEmail(...args);
  deleteLeads: LeadsStore['deleteLeads'] = (...args) => this.#leads.deleteLeads(...args);
  purgeCreatedBefore: LeadsStore['purgeCreatedBefore'] = (...args) =>
    this.#leads.purgeCreatedBefore(...args);
  purgeSpamBefore: LeadsStore['purgeSpamBefore'] = (...args) =>
    this.#leads.purgeSpamBefore(...args);
  hasMessageSince: LeadsStore['hasMessageSince'] = (...args) =>
    this.#leads.hasMessageSince(...args);
  countSpamLeads: LeadsStore['countSpamLeads'] = (...args) => this.#leads.countSpamLeads(...args);
  markSpam: LeadsStore['markSpam'] = (...args) => this.#leads.markSpam(...args);
  rescueLead: LeadsStore['rescueLead'] = (...args) => this.#leads.rescueLead(...args);
  saveLeadTracking: LeadsStore['saveLeadTracking'] = (...args) =>
    this.#leads.saveLeadTracking(...args);
  searchLeads: LeadsStore['searchLeads'] = (...args) => this.#leads.searchLeads(...args);
  markLeadSeen: LeadsStore['markLeadSeen'] = (...args) => this.#leads.markLeadSeen(...args);
  markLeadsSeen: LeadsStore['markLeadsSeen'] = (...args) => this.#leads.markLeadsSeen(...args);
  countUnseenLeads: LeadsStore['countUnseenLeads'] = () => this.#leads.countUnseenLeads();
  countFailedDeliveries: LeadsStore['countFailedDeliveries'] = (...args) =>
    this.#leads.countFailedDeliveries(...args);
  acknowledgeLead: LeadsStore['acknowledgeLead'] = (...args) =>
    this.#leadAlerts.acknowledgeLead(...args);
  claimEscalations: LeadsStore['claimEscalations'] = (...args) =>
    this.#leadAlerts.claimEscalations(...args);
  finishEscalation: LeadsStore['finishEscalation'] = (...args) =>
    this.#leadAlerts.finishEscalation(...args);
  checkTargetOutage: LeadsStore['checkTargetOutage'] = (...args) =>
    this.#leadAlerts.checkTargetOutage(...args);

  // The owners' accounts and sign-ins (owners/owners.sqlite.server.ts)
  addOwner: OwnerStore['addOwner'] = (...args) => this.#owners.addOwner(...args);
  getOwner: OwnerStore['getOwner'] = (...args) => this.#owners.getOwner(...args);
  findOwnerByEmail: OwnerStore['findOwnerByEmail'] = (...args) =>
    this.#owners.findOwnerByEmail(...args);
  listOwners: OwnerStore['listOwners'] = (...args) => this.#owners.listOwners(...args);
  removeOwner: OwnerStore['removeOwner'] = (...args) => this.#owners.removeOwner(...args);
  addPasskey: OwnerStore['addPasskey'] = (...args) => this.#owners.addPasskey(...args);
  findPasskey: OwnerStore['findPasskey'] = (...args) => this.#owners.findPasskey(...args);
  listPasskeys: OwnerStore['listPasskeys'] = (...args) => this.#owners.listPasskeys(...args);
  recordPasskeyUse: OwnerStore['recordPasskeyUse'] = (...args) =>
    this.#owners.recordPasskeyUse(...args);
  removePasskey: OwnerStore['removePasskey'] = (...args) => this.#owners.removePasskey(...args);
  createSession: OwnerStore['createSession'] = (...args) => this.#owners.createSession(...args);
  findSession: OwnerStore['findSession'] = (...args) => this.#owners.findSession(...args);
  touchSession: OwnerStore['touchSession'] = (...args) => this.#owners.touchSession(...args);
  endSession: OwnerStore['endSession'] = (...args) => this.#owners.endSession(...args);
  endOwnerSessions: OwnerStore['endOwnerSessions'] = (...args) =>
    this.#owners.endOwnerSessions(...args);
  createOwnerLink: OwnerStore['createOwnerLink'] = (...args) =>
    this.#owners.createOwnerLink(...args);
  consumeOwnerLink: OwnerStore['consumeOwnerLink'] = (...args) =>
    this.#owners.consumeOwnerLink(...args);
  findOwnerLink: OwnerStore['findOwnerLink'] = (...args) => this.#owners.findOwnerLink(...args);
  createOwnerChallenge: OwnerStore['createOwnerChallenge'] = (...args) =>
    this.#owners.createOwnerChallenge(...args);
  consumeOwnerChallenge: OwnerStore['consumeOwnerChallenge'] = (...args) =>
    this.#owners.consumeOwnerChallenge(...args);
  purgeExpiredSignIns: OwnerStore['purgeExpiredSignIns'] = (...args) =>
    this.#owners.purgeExpiredSignIns(...args);

  // The activity list (app/db/activity/activity.sqlite.server.ts)
  recordActivity: ActivityStore['recordActivity'] = (...args) =>
    this.#activity.recordActivity(...args);
  listActivity: ActivityStore['listActivity'] = (...args) => this.#activity.listActivity(...args);

  // -------------------------------------------------------------------------
  // The site's content (site-content/site-content.sqlite.server.ts)

  saveSiteContentSection<S extends SiteContentSection>(
    section: S,
    content: SiteContent[S],
    expectedRevision: number,
    ownerId: string | null,
  ): Promise<SiteContentSaveResult<S>> {
    return this.#siteContent.saveSiteContentSection(section, content, expectedRevision, ownerId);
  }
  siteContentDraft: SiteContentStore['siteContentDraft'] = (...args) =>
    this.#siteContent.siteContentDraft(...args);
  createSiteContentVersion: SiteContentStore['createSiteContentVersion'] = (...args) =>
    this.#siteContent.createSiteContentVersion(...args);
  setSiteContentVersionState: SiteContentStore['setSiteContentVersionState'] = (...args) =>
    this.#siteContent.setSiteContentVersionState(...args);
  supersedeSiteContentVersions: SiteContentStore['supersedeSiteContentVersions'] = (...args) =>
    this.#siteContent.supersedeSiteContentVersions(...args);
  recordSiteBuild: SiteContentStore['recordSiteBuild'] = (...args) =>
    this.#siteContent.recordSiteBuild(...args);
  listSiteBuilds: SiteContentStore['listSiteBuilds'] = (...args) =>
    this.#siteContent.listSiteBuilds(...args);
  siteHostsServing: SiteContentStore['siteHostsServing'] = (...args) =>
    this.#siteContent.siteHostsServing(...args);
  newestLiveSiteContent: SiteContentStore['newestLiveSiteContent'] = (...args) =>
    this.#siteContent.newestLiveSiteContent(...args);
  siteContentVersion: SiteContentStore['siteContentVersion'] = (...args) =>
    this.#siteContent.siteContentVersion(...args);
  listSiteContentVersions: SiteContentStore['listSiteContentVersions'] = (...args) =>
    this.#siteContent.listSiteContentVersions(...args);
  addSitePhoto: SiteContentStore['addSitePhoto'] = (...args) =>
    this.#siteContent.addSitePhoto(...args);
  sitePhoto: SiteContentStore['sitePhoto'] = (...args) => this.#siteContent.sitePhoto(...args);
  deleteUnusedSitePhotos: SiteContentStore['deleteUnusedSitePhotos'] = (...args) =>
    this.#siteContent.deleteUnusedSitePhotos(...args);
  removeSiteTestimonialsOfLeads: SiteContentStore['removeSiteTestimonialsOfLeads'] = (...args) =>
    this.#siteContent.removeSiteTestimonialsOfLeads(...args);

  async ping(): Promise<void> {
    await this.#db.attempt('read', () => this.#db.statement('SELECT 1').get());
  }

  async checkWritable(): Promise<void> {
    await this.#db.attempt('write', () =>
      this.#db
        .statement(
          `INSERT INTO lead_store_heartbeat (id, beat_at) VALUES (1, ?)
           ON CONFLICT (id) DO UPDATE SET beat_at = excluded.beat_at`,
        )
        .run(new Date().toISOString()),
    );
  }

  async close(): Promise<void> {
    this.#db.close();
  }
}

export async function openSqliteStore(options: {
  dataDir: string;
  /** How long a statement waits for another process's lock (default 5 s). */
  busyWaitMs?: number | undefined;
  /** Litestream replicates the file (BACKUP_URL): it holds the write-ahead log. */
  replicated?: boolean | undefined;
}): Promise<SqliteAppStore> {
  mkdirSync(options.dataDir, { recursive: true });
  const store = new SqliteAppStore(path.join(options.dataDir, SQLITE_FILE_NAME), {
    busyWaitMs: options.busyWaitMs,
    replicated: options.replicated,
  });
  await store.open();
  return store;
}

import pg from 'pg';
import type { Logger } from 'pino';
import type { AppStore } from './store.server.ts';
import type { LeadsStore } from './leads/leads.server.ts';
import type { SiteContent, SiteContentSection } from '../content/site-content.ts';
import type {
  SiteContentSaveResult,
  SiteContentStore,
} from './site-content/site-content.server.ts';
import { PostgresLeadsStore } from './leads/leads.postgres.server.ts';
import { PostgresSiteContentStore } from './site-content/site-content.postgres.server.ts';
import { PostgresOwnerStore } from './owners/owners.postgres.server.ts';
import { PostgresSecretStore } from './secrets/secrets.postgres.server.ts';
import { PostgresPushStore } from './push/push.postgres.server.ts';
import type { PushStore } from './push/push.server.ts';
import type { SecretStore } from './secrets/secrets.server.ts';
import { PostgresActivityStore } from './activity/activity.postgres.server.ts';
import type { ActivityStore } from './activity/activity.server.ts';
import { PostgresRateLimitStore } from './rate-limits/rate-limits.postgres.server.ts';
import type { RateLimitStore } from './rate-limits/rate-limits.server.ts';
import { PostgresProofOfWorkStore } from './proofs-of-work/proofs-of-work.postgres.server.ts';
import type { ProofOfWorkStore } from './proofs-of-work/proofs-of-work.server.ts';
import { PostgresReviewStore } from './reviews/reviews.postgres.server.ts';
import { PostgresLeadFollowUps } from './leads/lead-follow-ups.postgres.server.ts';
import type { LeadFollowUpStore } from './leads/lead-follow-ups.server.ts';
import type { ReviewStore } from './reviews/reviews.server.ts';
import type { OwnerStore } from './owners/owners.server.ts';
import { POSTGRES_MIGRATIONS } from './migrations.postgres.server.ts';

/**
 * The PostgreSQL store (DATABASE_URL, docs/operations.md#environment). Several server
 * processes may share one database: migrations take an advisory lock, and
 * the outbox claims rows with FOR UPDATE SKIP LOCKED, so no delivery is
 * claimed by two workers at once.
 */

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export interface PostgresStoreOptions {
  connectionString: string;
  /** Schema for the tables (default: the role's search_path, normally `public`). */
  schema?: string | undefined;
  logger?: Logger | undefined;
  /** Pool size per process. */
  maxConnections?: number;
}

export class PostgresAppStore implements AppStore {
  readonly kind = 'postgres' as const;
  readonly #pool: pg.Pool;
  readonly #leads: PostgresLeadsStore;
  readonly #siteContent: PostgresSiteContentStore;
  readonly #owners: PostgresOwnerStore;
  readonly #secrets: PostgresSecretStore;
  readonly #push: PostgresPushStore;
  readonly #activity: PostgresActivityStore;
  readonly #rateLimits: PostgresRateLimitStore;
  readonly #proofsOfWork: PostgresProofOfWorkStore;
  readonly #reviews: PostgresReviewStore;
  readonly #followUps: PostgresLeadFollowUps;
  #closed = false;

  constructor(options: PostgresStoreOptions) {
    if (options.schema !== undefined && !SCHEMA_NAME.test(options.schema)) {
      throw new Error(`Invalid PostgreSQL schema name: ${options.schema}`);
    }
    this.#pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.maxConnections ?? 10,
      // Fail fast so /healthz answers 503 instead of hanging when the database is away.
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30_000,
      // Client-side, so no startup parameter a pooler such as PgBouncer might refuse.
      query_timeout: 15_000,
      // Only tests pass a schema; a DATABASE_URL can carry its own ?options=-c search_path=….
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    this.#leads = new PostgresLeadsStore(this.#pool);
    this.#siteContent = new PostgresSiteContentStore(this.#pool);
    this.#owners = new PostgresOwnerStore(this.#pool);
    this.#secrets = new PostgresSecretStore(this.#pool);
    this.#push = new PostgresPushStore(this.#pool);
    this.#activity = new PostgresActivityStore(this.#pool);
    this.#rateLimits = new PostgresRateLimitStore(this.#pool);
    this.#proofsOfWork = new PostgresProofOfWorkStore(this.#pool);
    this.#reviews = new PostgresReviewStore(this.#pool);
    this.#followUps = new PostgresLeadFollowUps(this.#pool);
    // An idle client losing its connection must not crash the process.
    this.#pool.on('error', (error) => {
      // Only the message and code: pg's error can carry the whole client object.
      const code = (error as Error & { code?: string }).code;
      options.logger?.error(
        { err: { message: error.message, code } },
        'PostgreSQL idle client error',
      );
    });
    // Nor may a checked-out one: a dropped connection can emit 'error' twice
    // (socket error, then end) while pg-pool listens only once, or between
    // the queries of a transaction, where nobody listens; an unhandled
    // 'error' event would end the process (found by e2e/lead-faults.spec.ts).
    // The queries themselves still fail and are handled by their callers.
    this.#pool.on('connect', (client) => {
      client.on('error', (error) => {
        options.logger?.warn({ err: { message: error.message } }, 'PostgreSQL connection lost');
      });
    });
  }

  async migrate(): Promise<void> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      // Two processes starting at once: the second waits here, then sees the
      // first one's versions and applies nothing.
      await client.query(
        `SELECT pg_advisory_xact_lock(hashtext('leads-migrations:' || coalesce(current_schema(), '')))`,
      );
      await client.query(`
        CREATE TABLE IF NOT EXISTS lead_schema_migrations (
          version integer PRIMARY KEY,
          name text NOT NULL,
          applied_at timestamptz NOT NULL DEFAULT now()
        )`);
      const applied = new Set(
        (
          await client.query<{ version: number }>('SELECT version FROM lead_schema_migrations')
        ).rows.map((row) => row.version),
      );
      for (const migration of POSTGRES_MIGRATIONS) {
        if (applied.has(migration.version)) continue;
        await client.query(migration.sql);
        await client.query('INSERT INTO lead_schema_migrations (version, name) VALUES ($1, $2)', [
          migration.version,
          migration.name,
        ]);
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  // The store's secrets (app/db/secrets/secrets.postgres.server.ts)
  getOrCreateSecret: SecretStore['getOrCreateSecret'] = (...args) =>
    this.#secrets.getOrCreateSecret(...args);

  // The owners' push subscriptions and the VAPID keys (app/db/push/push.postgres.server.ts)
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

  // The rate limits (app/db/rate-limits/rate-limits.postgres.server.ts)
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

  // The spent proofs of work (app/db/proofs-of-work/proofs-of-work.postgres.server.ts)
  spendProofOfWork: ProofOfWorkStore['spendProofOfWork'] = (...args) =>
    this.#proofsOfWork.spendProofOfWork(...args);
  purgeSpentProofsOfWork: ProofOfWorkStore['purgeSpentProofsOfWork'] = () =>
    this.#proofsOfWork.purgeSpentProofsOfWork();

  // Follow-ups and the morning e-mail (app/db/leads/lead-follow-ups.postgres.server.ts)
  listFollowUps: LeadFollowUpStore['listFollowUps'] = (...args) =>
    this.#followUps.listFollowUps(...args);
  claimMorningEmail: LeadFollowUpStore['claimMorningEmail'] = (...args) =>
    this.#followUps.claimMorningEmail(...args);
  finishMorningEmail: LeadFollowUpStore['finishMorningEmail'] = (...args) =>
    this.#followUps.finishMorningEmail(...args);

  // Review requests and the reviews they brought (app/db/reviews/reviews.postgres.server.ts)
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

  // Leads and their outbox (leads/leads.postgres.server.ts)
  getLeadPhoto: LeadsStore['getLeadPhoto'] = (...args) => this.#leads.getLeadPhoto(...args);
  insertLead: LeadsStore['insertLead'] = (...args) => this.#leads.insertLead(...args);
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
    this.#leads.acknowledgeLead(...args);
  claimEscalations: LeadsStore['claimEscalations'] = (...args) =>
    this.#leads.claimEscalations(...args);
  finishEscalation: LeadsStore['finishEscalation'] = (...args) =>
    this.#leads.finishEscalation(...args);
  checkTargetOutage: LeadsStore['checkTargetOutage'] = (...args) =>
    this.#leads.checkTargetOutage(...args);

  // The owners' accounts and sign-ins (owners/owners.postgres.server.ts)
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

  // The activity list (app/db/activity/activity.postgres.server.ts)
  recordActivity: ActivityStore['recordActivity'] = (...args) =>
    this.#activity.recordActivity(...args);
  listActivity: ActivityStore['listActivity'] = (...args) => this.#activity.listActivity(...args);

  // -------------------------------------------------------------------------
  // The site's content (site-content/site-content.postgres.server.ts)

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
    if (this.#closed) throw new Error('Lead store is closed');
    await this.#pool.query('SELECT 1');
  }

  async checkWritable(): Promise<void> {
    if (this.#closed) throw new Error('Lead store is closed');
    await this.#pool.query(
      `INSERT INTO lead_store_heartbeat (id, beat_at) VALUES (1, now())
       ON CONFLICT (id) DO UPDATE SET beat_at = excluded.beat_at`,
    );
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool.end();
  }
}

export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresAppStore> {
  const store = new PostgresAppStore(options);
  try {
    await store.migrate();
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

import type { Logger } from 'pino';
import type { LeadSource } from './schema.ts';

/**
 * The lead store (CONTRACT "Lead record", "Delivery"): the embedded SQLite
 * file by default, PostgreSQL when DATABASE_URL is set. Both implementations
 * pass the same contract suite (store.contract.ts).
 *
 * Timestamps cross this interface as ISO 8601 strings in UTC with
 * milliseconds (`Date#toISOString()`), so SQLite can compare them as text.
 */

export type { LeadSource };

/**
 * - `received`: committed in `delivered` mode while the first delivery attempt
 *   runs; not yet accepted or refused. The outbox leaves it alone, and a lead
 *   stuck here (the process died mid-request) is later marked not_accepted.
 * - `accepted`: the visitor was told it worked; failed deliveries are retried.
 * - `not_accepted`: the visitor was told to try again or call; never retried.
 * - `spam`: the honeypot was filled; never delivered.
 */
export type LeadStatus = 'received' | 'accepted' | 'not_accepted' | 'spam';

/**
 * - `pending`: still to be delivered (by the outbox once the lead is accepted).
 * - `delivered`: the target took the lead (a 2xx answer, the mail server's acceptance).
 * - `failed`: given up for good: the target refused it permanently (a 401, a
 *   550…), or retries ran out after the 24-hour window (CONTRACT "Delivery" 3).
 * - `not_sent`: the lead was not accepted or is spam; it will never be sent.
 * - `cancelled`: the target was removed from the configuration before the
 *   lead reached it (CONTRACT: the outbox delivers to the targets configured
 *   now). Never silently: the outbox logs it at error level and e-mails the
 *   owner the leads concerned; the leads stay in the store.
 */
export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'not_sent' | 'cancelled';

export const LEAD_STATUSES: readonly LeadStatus[] = [
  'received',
  'accepted',
  'not_accepted',
  'spam',
];
export const DELIVERY_STATES: readonly DeliveryState[] = [
  'pending',
  'delivered',
  'failed',
  'not_sent',
  'cancelled',
];

export interface LeadRecord {
  id: string;
  name: string;
  email: string;
  phone: string;
  service: string;
  message: string;
  created_at: string;
  source: LeadSource;
  status: LeadStatus;
  idempotency_key: string | null;
}

export interface DeliveryRecord {
  lead_id: string;
  /** The target's key (targets.server.ts): stable, and never a secret such as a webhook's address. */
  target: string;
  /** How people see the target: 'webhook 1', 'email' (never a webhook's address or host). */
  label: string;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  delivered_at: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
}

export interface LeadWithDeliveries extends LeadRecord {
  deliveries: DeliveryRecord[];
}

/** A delivery row as created together with its lead. */
export interface NewDelivery {
  target: string;
  label: string;
  state: DeliveryState;
  /** When the outbox may first try it (pending rows); null otherwise. */
  next_attempt_at: string | null;
}

/** The outcome of one delivery attempt, written back to the row. */
export interface DeliveryUpdate {
  target: string;
  state: DeliveryState;
  /** Total attempts so far (absolute, not an increment). */
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  delivered_at: string | null;
}

/** A pending delivery cancelled because its target is no longer configured. */
export interface CancelledDelivery {
  lead_id: string;
  target: string;
  label: string;
}

/** A due delivery claimed by one outbox worker, with the lead it carries. */
export interface ClaimedDelivery extends DeliveryRecord {
  lease_owner: string;
  lease_expires_at: string;
  lead: LeadRecord;
}

export interface RateLimitCount {
  hits: number;
  /** When the window ends (ISO 8601). */
  resetAt: string;
}

export type InsertResult =
  | { inserted: true }
  /** Another lead already holds the idempotency key; nothing was written. */
  | { inserted: false; existing: LeadRecord };

export interface LeadStore {
  readonly kind: 'sqlite' | 'postgres';

  /**
   * Inserts the lead and its delivery rows in ONE transaction. When the
   * idempotency key is already taken nothing is written and the holder is
   * returned; the unique constraint decides races between concurrent requests.
   */
  insertLead(lead: LeadRecord, deliveries: readonly NewDelivery[]): Promise<InsertResult>;

  findByIdempotencyKey(key: string): Promise<LeadRecord | null>;

  getLead(id: string): Promise<LeadWithDeliveries | null>;

  /** Sets the lead status and writes the given delivery results in one transaction. */
  settleLead(id: string, status: LeadStatus, updates: readonly DeliveryUpdate[]): Promise<void>;

  /**
   * Frees the idempotency key of a lead that was not accepted, so the
   * visitor's retry with the same key is a new submission (CONTRACT
   * "Delivery" 4: they were told to try again). Returns false when the lead
   * is in any other status.
   */
  releaseIdempotencyKey(id: string): Promise<boolean>;

  /**
   * Claims up to `limit` pending deliveries of accepted leads that are due at
   * `now` and not leased by a live worker, leasing them to `owner` until
   * `leaseUntil`. Atomic: two workers never claim the same row at once.
   */
  claimDueDeliveries(options: {
    owner: string;
    now: string;
    leaseUntil: string;
    limit: number;
    /** Only deliveries to these targets (the ones configured now). */
    targets: readonly string[];
  }): Promise<ClaimedDelivery[]>;

  /**
   * Pending deliveries of accepted leads to any target not in `targets`
   * become `cancelled` (the target was removed from the configuration).
   * Returns the rows this call changed (a row once, whoever asks), so the
   * owner can be told which leads a target will never get.
   */
  cancelDeliveriesExcept(targets: readonly string[]): Promise<CancelledDelivery[]>;

  /**
   * Writes the result of a claimed delivery and drops the lease. Only
   * applies while `owner` still holds the lease; returns whether it did.
   */
  recordDelivery(leadId: string, owner: string, update: DeliveryUpdate): Promise<boolean>;

  /**
   * Leads left `received` since before `olderThan` (the process died during
   * the first attempt) become not_accepted, their pending deliveries not_sent.
   * Returns how many leads changed.
   */
  expireReceived(olderThan: string): Promise<number>;

  /** The latest leads, newest first, with their deliveries. */
  listLeads(options?: { limit?: number }): Promise<LeadWithDeliveries[]>;

  /** Every lead, oldest first, with its deliveries. */
  exportLeads(): Promise<LeadWithDeliveries[]>;

  /**
   * Every lead with this e-mail address (stored trimmed and lower-cased,
   * SPEC §3), oldest first, with its deliveries: a Privacy Act request.
   */
  findLeadsByEmail(email: string): Promise<LeadWithDeliveries[]>;

  /** Deletes these leads with all their deliveries in one transaction; returns how many leads. */
  deleteLeads(ids: readonly string[]): Promise<number>;

  /**
   * Deletes every lead created before `cutoff`, with its deliveries
   * (CONTRACT LEAD_RETENTION_DAYS); returns how many. Safe to run in several
   * processes at once.
   */
  purgeCreatedBefore(cutoff: string): Promise<number>;

  /**
   * Counts one request of `key` in a fixed window of `windowMs` starting
   * at its first request (CONTRACT LEAD_RATE_LIMIT), on the store's clock, so
   * every server process on one database shares one count per visitor.
   */
  hitRateLimit(key: string, windowMs: number): Promise<RateLimitCount>;

  /** Takes back one counted request of `key`. */
  undoRateLimitHit(key: string): Promise<void>;

  /** Forgets `key`'s count. */
  resetRateLimit(key: string): Promise<void>;

  /** Drops the counts whose window has ended; returns how many. */
  purgeRateLimits(): Promise<number>;

  /** How many deliveries were given up for good (GET /healthz). */
  countFailedDeliveries(): Promise<number>;

  /** Resolves while the store answers (GET /healthz); rejects otherwise. */
  ping(): Promise<void>;

  /**
   * Commits one small write (a one-row heartbeat table), so GET /healthz
   * knows whether a lead could be committed now; rejects when it cannot (a
   * full disk, a read-only file system or database, a write lock held by
   * another process for longer than a lead would wait).
   */
  checkWritable(): Promise<void>;

  close(): Promise<void>;
}

export interface OpenLeadStoreOptions {
  /** Directory of the embedded store (CONTRACT DATA_DIR). */
  dataDir: string;
  /** When set, PostgreSQL is used instead of the embedded store (CONTRACT DATABASE_URL). */
  databaseUrl?: string | undefined;
  /** PostgreSQL schema to use (tests give each run its own). */
  schema?: string | undefined;
  logger?: Logger | undefined;
}

/**
 * Opens the store chosen by the environment and applies its migrations.
 * The implementations are imported lazily so the SQLite build never loads
 * `pg` and the other way round. Fails when the store cannot be opened now
 * (the leads CLI); the server uses reconnectingLeadStore() instead.
 */
export async function openLeadStore(options: OpenLeadStoreOptions): Promise<LeadStore> {
  if (options.databaseUrl) {
    const { openPostgresLeadStore } = await import('./store-postgres.server.ts');
    return openPostgresLeadStore({
      connectionString: options.databaseUrl,
      schema: options.schema,
      logger: options.logger,
    });
  }
  const { openSqliteLeadStore } = await import('./store-sqlite.server.ts');
  return openSqliteLeadStore({ dataDir: options.dataDir });
}

/**
 * The store as a long-running server holds it: opened on first use, opened
 * again after a failure (store-reconnecting.server.ts). Never fails to start.
 */
export async function reconnectingLeadStore(options: OpenLeadStoreOptions): Promise<LeadStore> {
  const { ReconnectingLeadStore } = await import('./store-reconnecting.server.ts');
  return new ReconnectingLeadStore(
    options.databaseUrl ? 'postgres' : 'sqlite',
    () => openLeadStore(options),
    options.logger,
  );
}

/** Groups delivery rows under their leads, keeping the lead order. */
export function attachDeliveries(
  leads: readonly LeadRecord[],
  deliveries: readonly DeliveryRecord[],
): LeadWithDeliveries[] {
  const byLead = new Map<string, DeliveryRecord[]>();
  for (const delivery of deliveries) {
    const list = byLead.get(delivery.lead_id);
    if (list) list.push(delivery);
    else byLead.set(delivery.lead_id, [delivery]);
  }
  return leads.map((lead) => ({ ...lead, deliveries: byLead.get(lead.id) ?? [] }));
}

/** Cap on the stored last_error text, so one noisy receiver cannot bloat the store. */
export const LAST_ERROR_MAX = 1000;

export function clipError(text: string | null): string | null {
  if (text === null) return null;
  return text.length > LAST_ERROR_MAX ? `${text.slice(0, LAST_ERROR_MAX - 1)}…` : text;
}

/**
 * A store error fit for the logs: PostgreSQL puts the failing row (name,
 * email, phone…) in `detail` for some constraint violations, so only the
 * message, code and stack are kept.
 */
export function storeErrorForLog(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const safe = new Error(error.message);
  safe.name = error.name;
  if (error.stack) safe.stack = error.stack;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(safe, { code });
  return safe;
}

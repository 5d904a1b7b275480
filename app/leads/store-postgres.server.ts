import pg from 'pg';
import type { Logger } from 'pino';
import {
  attachDeliveries,
  clipError,
  type CancelledDelivery,
  type ClaimedDelivery,
  type DeliveryRecord,
  type DeliveryUpdate,
  type InsertResult,
  type LeadRecord,
  type LeadStatus,
  type LeadStore,
  type LeadWithDeliveries,
  type NewDelivery,
  type RateLimitCount,
} from './store.server.ts';

/**
 * The PostgreSQL lead store (CONTRACT DATABASE_URL). Several server
 * processes may share one database: migrations take an advisory lock, and
 * the outbox claims rows with FOR UPDATE SKIP LOCKED, so no delivery is
 * claimed by two workers at once.
 */

interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Exported for the schema tests (store-schema.server.test.ts). */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'leads and deliveries',
    sql: `
      CREATE TABLE leads (
        id uuid PRIMARY KEY,
        name text NOT NULL,
        email text NOT NULL,
        phone text NOT NULL,
        service text NOT NULL,
        message text NOT NULL,
        created_at timestamptz NOT NULL,
        source text NOT NULL CHECK (source IN ('hero_form', 'contact_form', 'quote_form')),
        status text NOT NULL CHECK (status IN ('received', 'accepted', 'not_accepted', 'spam')),
        idempotency_key text UNIQUE
      );
      CREATE INDEX leads_created_at ON leads (created_at);
      CREATE INDEX leads_received ON leads (created_at) WHERE status = 'received';

      CREATE TABLE lead_deliveries (
        lead_id uuid NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
        url text NOT NULL,
        state text NOT NULL CHECK (state IN ('pending', 'delivered', 'failed', 'not_sent')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        last_error text,
        delivered_at timestamptz,
        lease_owner text,
        lease_expires_at timestamptz,
        position integer NOT NULL DEFAULT 0,
        PRIMARY KEY (lead_id, url)
      );
      CREATE INDEX lead_deliveries_due ON lead_deliveries (next_attempt_at) WHERE state = 'pending';
    `,
  },
  {
    // Delivery rows name their target by key and label, never by a webhook's
    // address (it may hold a token); 'cancelled' for removed targets; leads
    // found by e-mail for Privacy Act requests. The key was a hash of the
    // address (sha256, 16 hex), the label the position from 1 and the host;
    // version 5 leaves the position alone.
    version: 2,
    name: 'delivery targets by key and label',
    sql: `
      ALTER TABLE lead_deliveries ADD COLUMN target text, ADD COLUMN label text;
      UPDATE lead_deliveries SET
        target = 'webhook:' || left(encode(sha256(convert_to(url, 'UTF8')), 'hex'), 16),
        label = 'webhook ' || (position + 1) || ' ('
          || coalesce(substring(url from '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^@/?#]*@)?([^/?#]*)'), '?')
          || ')';
      ALTER TABLE lead_deliveries
        DROP CONSTRAINT lead_deliveries_pkey,
        DROP CONSTRAINT lead_deliveries_state_check,
        DROP COLUMN url,
        ALTER COLUMN target SET NOT NULL,
        ALTER COLUMN label SET NOT NULL,
        ADD PRIMARY KEY (lead_id, target),
        ADD CONSTRAINT lead_deliveries_state_check
          CHECK (state IN ('pending', 'delivered', 'failed', 'not_sent', 'cancelled'));
      CREATE INDEX leads_email ON leads (email);
    `,
  },
  {
    // One count per visitor for every server process on this database.
    // Keys are hashed client addresses. UNLOGGED: the counts may be lost in
    // a database crash, and in exchange counting costs no WAL flush per
    // request (bench:leads).
    version: 3,
    name: 'rate limit counts',
    sql: `
      CREATE UNLOGGED TABLE lead_rate_limits (
        key text NOT NULL PRIMARY KEY,
        hits integer NOT NULL,
        reset_at timestamptz NOT NULL
      );
    `,
  },
  {
    // SQLite's version 4 (a delivery row in one B-tree, the due index on
    // pending rows only). PostgreSQL keeps rows in a heap whatever the key,
    // and its due index has been partial since version 1: nothing to change;
    // the version keeps the two stores' lists one.
    version: 4,
    name: 'deliveries keyed by lead and target, due index on pending rows',
    sql: 'SELECT 1',
  },
  {
    // A webhook is named by its position alone (webhooks.server.ts): labels
    // such as 'webhook 2 (hooks.example.com)' lose the host, which may carry
    // a token, and the key 'webhook:<hash of the address>' becomes
    // 'webhook:2', so pending deliveries follow the address now at their
    // position. The position is the label's ('webhook 2 …'), else the row's.
    version: 5,
    name: 'webhooks keyed and labelled by position only',
    sql: `
      UPDATE lead_deliveries
        SET label = 'webhook ' || coalesce(
          substring(label from '^webhook ([1-9][0-9]{0,8})'), (position + 1)::text)
        WHERE target LIKE 'webhook:%';
      UPDATE lead_deliveries SET target = 'webhook:' || substr(label, 9)
        WHERE target LIKE 'webhook:%';
    `,
  },
  {
    // GET /healthz commits a write to this one row (checkWritable): a
    // database that answers reads but cannot commit a lead (a read-only
    // standby, a full disk) is reported as such.
    version: 6,
    name: 'store heartbeat',
    sql: `
      CREATE TABLE lead_store_heartbeat (
        id integer PRIMARY KEY,
        beat_at timestamptz NOT NULL
      );
    `,
  },
];

const LEAD_COLUMNS =
  'id, name, email, phone, service, message, created_at, source, status, idempotency_key';
const DELIVERY_COLUMNS =
  'lead_id, target, label, state, attempts, next_attempt_at, last_error, delivered_at, lease_owner, lease_expires_at';

type Row = Record<string, unknown>;

const iso = (value: unknown): string | null => {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
};
const textOrNull = (value: unknown) =>
  value === null || value === undefined ? null : String(value);

function toLead(row: Row, prefix = ''): LeadRecord {
  const get = (column: string) => row[`${prefix}${column}`];
  return {
    id: String(get('id')),
    name: String(get('name')),
    email: String(get('email')),
    phone: String(get('phone')),
    service: String(get('service')),
    message: String(get('message')),
    created_at: iso(get('created_at')) ?? '',
    source: String(get('source')) as LeadRecord['source'],
    status: String(get('status')) as LeadStatus,
    idempotency_key: textOrNull(get('idempotency_key')),
  };
}

function toDelivery(row: Row): DeliveryRecord {
  return {
    lead_id: String(row.lead_id),
    target: String(row.target),
    label: String(row.label),
    state: String(row.state) as DeliveryRecord['state'],
    attempts: Number(row.attempts),
    next_attempt_at: iso(row.next_attempt_at),
    last_error: textOrNull(row.last_error),
    delivered_at: iso(row.delivered_at),
    lease_owner: textOrNull(row.lease_owner),
    lease_expires_at: iso(row.lease_expires_at),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export interface PostgresLeadStoreOptions {
  connectionString: string;
  /** Schema for the tables (default: the role's search_path, normally `public`). */
  schema?: string | undefined;
  logger?: Logger | undefined;
  /** Pool size per process. */
  maxConnections?: number;
}

export class PostgresLeadStore implements LeadStore {
  readonly kind = 'postgres' as const;
  readonly #pool: pg.Pool;
  #closed = false;

  constructor(options: PostgresLeadStoreOptions) {
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
      for (const migration of MIGRATIONS) {
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

  async #deliveriesOf(leadIds: readonly string[]): Promise<DeliveryRecord[]> {
    if (leadIds.length === 0) return [];
    const result = await this.#pool.query(
      `SELECT ${DELIVERY_COLUMNS} FROM lead_deliveries
       WHERE lead_id = ANY($1::uuid[]) ORDER BY lead_id, position`,
      [leadIds],
    );
    return result.rows.map(toDelivery);
  }

  async insertLead(lead: LeadRecord, deliveries: readonly NewDelivery[]): Promise<InsertResult> {
    // A conflicting key whose holder is released in between is retried.
    for (let round = 0; round < 3; round++) {
      // One statement, so one round trip and atomic without BEGIN/COMMIT: the
      // deliveries are inserted only for a lead row that was. ON CONFLICT
      // waits for a concurrent uncommitted insert of the same key, so of two
      // simultaneous requests exactly one inserts.
      const leadValues = [
        lead.id,
        lead.name,
        lead.email,
        lead.phone,
        lead.service,
        lead.message,
        lead.created_at,
        lead.source,
        lead.status,
        lead.idempotency_key,
      ];
      const insertLead = `INSERT INTO leads (${LEAD_COLUMNS})
           VALUES ($1, $2, $3, $4, $5, $6, $7::timestamptz, $8, $9, $10)
           ON CONFLICT (idempotency_key) DO NOTHING
           RETURNING id`;
      // Named, so each connection parses and plans them once. Without targets
      // (stored mode, nothing to deliver) the deliveries table is not touched.
      const result = await this.#pool.query<{ inserted: string }>(
        deliveries.length === 0
          ? {
              name: 'lead-insert',
              text: `WITH lead AS (${insertLead}) SELECT count(*) AS inserted FROM lead`,
              values: leadValues,
            }
          : {
              name: 'lead-insert-with-deliveries',
              text: `WITH lead AS (${insertLead}), deliveries AS (
           INSERT INTO lead_deliveries
             (lead_id, target, label, state, attempts, next_attempt_at, position)
           SELECT lead.id, u.target, u.label, u.state, 0, u.next_attempt_at, u.position
           FROM lead
           CROSS JOIN unnest($11::text[], $12::text[], $13::text[], $14::timestamptz[], $15::int[])
             AS u (target, label, state, next_attempt_at, position)
         )
         SELECT count(*) AS inserted FROM lead`,
              values: [
                ...leadValues,
                deliveries.map((d) => d.target),
                deliveries.map((d) => d.label),
                deliveries.map((d) => d.state),
                deliveries.map((d) => d.next_attempt_at),
                deliveries.map((_, position) => position),
              ],
            },
      );
      const inserted = Number(result.rows[0]?.inserted) === 1;
      if (inserted) return { inserted: true };
      if (lead.idempotency_key === null) throw new Error('Lead insert ignored without a key');
      const existing = await this.findByIdempotencyKey(lead.idempotency_key);
      if (existing) return { inserted: false, existing };
    }
    throw new Error('Lead insert kept conflicting on its idempotency key');
  }

  async findByIdempotencyKey(key: string): Promise<LeadRecord | null> {
    const result = await this.#pool.query(
      `SELECT ${LEAD_COLUMNS} FROM leads WHERE idempotency_key = $1`,
      [key],
    );
    const row = result.rows[0] as Row | undefined;
    return row ? toLead(row) : null;
  }

  async getLead(id: string): Promise<LeadWithDeliveries | null> {
    // Not a uuid: no such lead (and no cast error from PostgreSQL).
    if (!UUID.test(id)) return null;
    const result = await this.#pool.query(`SELECT ${LEAD_COLUMNS} FROM leads WHERE id = $1`, [id]);
    const row = result.rows[0] as Row | undefined;
    if (!row) return null;
    const lead = toLead(row);
    return attachDeliveries([lead], await this.#deliveriesOf([lead.id]))[0] ?? null;
  }

  async settleLead(
    id: string,
    status: LeadStatus,
    updates: readonly DeliveryUpdate[],
  ): Promise<void> {
    // One statement, so the status and the delivery rows change together.
    await this.#pool.query(
      `WITH lead AS (UPDATE leads SET status = $2 WHERE id = $1)
       UPDATE lead_deliveries d
       SET state = u.state, attempts = u.attempts, next_attempt_at = u.next_attempt_at,
           last_error = u.last_error, delivered_at = u.delivered_at,
           lease_owner = NULL, lease_expires_at = NULL
       FROM unnest($3::text[], $4::text[], $5::int[], $6::timestamptz[], $7::text[], $8::timestamptz[])
         AS u (target, state, attempts, next_attempt_at, last_error, delivered_at)
       WHERE d.lead_id = $1 AND d.target = u.target`,
      [
        id,
        status,
        updates.map((u) => u.target),
        updates.map((u) => u.state),
        updates.map((u) => u.attempts),
        updates.map((u) => u.next_attempt_at),
        updates.map((u) => clipError(u.last_error)),
        updates.map((u) => u.delivered_at),
      ],
    );
  }

  async releaseIdempotencyKey(id: string): Promise<boolean> {
    const result = await this.#pool.query(
      `UPDATE leads SET idempotency_key = NULL WHERE id = $1 AND status = 'not_accepted'`,
      [id],
    );
    return result.rowCount === 1;
  }

  async claimDueDeliveries(options: {
    owner: string;
    now: string;
    leaseUntil: string;
    limit: number;
    targets: readonly string[];
  }): Promise<ClaimedDelivery[]> {
    // One statement: choose due rows, skipping rows another worker has
    // locked, and lease them. A row leased by a committed claim fails the
    // lease condition on re-check, so it is never handed out twice.
    const result = await this.#pool.query(
      `WITH due AS (
         SELECT d.lead_id, d.target
         FROM lead_deliveries d JOIN leads l ON l.id = d.lead_id
         WHERE d.state = 'pending' AND l.status = 'accepted'
           AND d.next_attempt_at <= $3::timestamptz
           AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= $3::timestamptz)
           AND d.target = ANY($5::text[])
         ORDER BY d.next_attempt_at
         LIMIT $4
         FOR UPDATE OF d SKIP LOCKED
       ), claimed AS (
         UPDATE lead_deliveries d
         SET lease_owner = $1, lease_expires_at = $2::timestamptz
         FROM due
         WHERE d.lead_id = due.lead_id AND d.target = due.target
         RETURNING d.*
       )
       SELECT c.lead_id, c.target, c.label, c.state, c.attempts, c.next_attempt_at, c.last_error,
              c.delivered_at, c.lease_owner, c.lease_expires_at,
              l.id AS l_id, l.name AS l_name, l.email AS l_email, l.phone AS l_phone,
              l.service AS l_service, l.message AS l_message, l.created_at AS l_created_at,
              l.source AS l_source, l.status AS l_status, l.idempotency_key AS l_idempotency_key
       FROM claimed c JOIN leads l ON l.id = c.lead_id
       ORDER BY c.next_attempt_at`,
      [options.owner, options.leaseUntil, options.now, options.limit, options.targets],
    );
    return (result.rows as Row[]).map((row) => ({
      ...toDelivery(row),
      lease_owner: options.owner,
      lease_expires_at: options.leaseUntil,
      lead: toLead(row, 'l_'),
    }));
  }

  async recordDelivery(leadId: string, owner: string, update: DeliveryUpdate): Promise<boolean> {
    const result = await this.#pool.query(
      `UPDATE lead_deliveries
       SET state = $4, attempts = $5, next_attempt_at = $6::timestamptz, last_error = $7,
           delivered_at = $8::timestamptz, lease_owner = NULL, lease_expires_at = NULL
       WHERE lead_id = $1 AND target = $2 AND lease_owner = $3`,
      [
        leadId,
        update.target,
        owner,
        update.state,
        update.attempts,
        update.next_attempt_at,
        clipError(update.last_error),
        update.delivered_at,
      ],
    );
    return result.rowCount === 1;
  }

  async cancelDeliveriesExcept(targets: readonly string[]): Promise<CancelledDelivery[]> {
    const result = await this.#pool.query<{ lead_id: string; target: string; label: string }>(
      `UPDATE lead_deliveries
       SET state = 'cancelled', next_attempt_at = NULL, lease_owner = NULL, lease_expires_at = NULL
       WHERE state = 'pending' AND NOT (target = ANY($1::text[]))
         AND lead_id IN (SELECT id FROM leads WHERE status = 'accepted')
       RETURNING lead_id, target, label`,
      [targets],
    );
    return result.rows.map((row) => ({
      lead_id: String(row.lead_id),
      target: row.target,
      label: row.label,
    }));
  }

  async expireReceived(olderThan: string): Promise<number> {
    const result = await this.#pool.query<{ n: number }>(
      `WITH stale AS (
         UPDATE leads SET status = 'not_accepted'
         WHERE status = 'received' AND created_at < $1::timestamptz
         RETURNING id
       ), deliveries AS (
         UPDATE lead_deliveries
         SET state = 'not_sent', next_attempt_at = NULL, lease_owner = NULL, lease_expires_at = NULL
         WHERE lead_id IN (SELECT id FROM stale) AND state = 'pending'
       )
       SELECT count(*)::int AS n FROM stale`,
      [olderThan],
    );
    return result.rows[0]?.n ?? 0;
  }

  async listLeads(options: { limit?: number } = {}): Promise<LeadWithDeliveries[]> {
    const limit = Math.max(1, Math.min(options.limit ?? 50, 10_000));
    const result = await this.#pool.query(
      `SELECT ${LEAD_COLUMNS} FROM leads ORDER BY created_at DESC, id DESC LIMIT $1`,
      [limit],
    );
    const leads = (result.rows as Row[]).map((row) => toLead(row));
    return attachDeliveries(leads, await this.#deliveriesOf(leads.map((lead) => lead.id)));
  }

  async exportLeads(): Promise<LeadWithDeliveries[]> {
    const result = await this.#pool.query(
      `SELECT ${LEAD_COLUMNS} FROM leads ORDER BY created_at, id`,
    );
    const leads = (result.rows as Row[]).map((row) => toLead(row));
    return attachDeliveries(leads, await this.#deliveriesOf(leads.map((lead) => lead.id)));
  }

  async findLeadsByEmail(email: string): Promise<LeadWithDeliveries[]> {
    const result = await this.#pool.query(
      `SELECT ${LEAD_COLUMNS} FROM leads WHERE email = $1 ORDER BY created_at, id`,
      [email.trim().toLowerCase()],
    );
    const leads = (result.rows as Row[]).map((row) => toLead(row));
    return attachDeliveries(leads, await this.#deliveriesOf(leads.map((lead) => lead.id)));
  }

  async deleteLeads(ids: readonly string[]): Promise<number> {
    const valid = ids.filter((id) => UUID.test(id));
    if (valid.length === 0) return 0;
    // One statement: the leads and (ON DELETE CASCADE) their deliveries together.
    const result = await this.#pool.query('DELETE FROM leads WHERE id = ANY($1::uuid[])', [valid]);
    return result.rowCount ?? 0;
  }

  async purgeCreatedBefore(cutoff: string): Promise<number> {
    const result = await this.#pool.query('DELETE FROM leads WHERE created_at < $1::timestamptz', [
      cutoff,
    ]);
    return result.rowCount ?? 0;
  }

  async hitRateLimit(key: string, windowMs: number): Promise<RateLimitCount> {
    // The database's clock, so processes on several machines agree on the window.
    // Named, so each connection parses and plans it once: it runs on every enquiry.
    const result = await this.#pool.query<{ hits: number; reset_at: Date }>({
      name: 'lead-rate-limit-hit',
      text: `INSERT INTO lead_rate_limits AS r (key, hits, reset_at)
       VALUES ($1, 1, now() + $2 * interval '1 millisecond')
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN r.reset_at <= now() THEN 1 ELSE r.hits + 1 END,
         reset_at = CASE WHEN r.reset_at <= now() THEN excluded.reset_at ELSE r.reset_at END
       RETURNING hits, reset_at`,
      values: [key, windowMs],
    });
    const row = result.rows[0];
    return { hits: Number(row?.hits), resetAt: iso(row?.reset_at) ?? '' };
  }

  async undoRateLimitHit(key: string): Promise<void> {
    await this.#pool.query(
      'UPDATE lead_rate_limits SET hits = hits - 1 WHERE key = $1 AND hits > 0',
      [key],
    );
  }

  async resetRateLimit(key: string): Promise<void> {
    await this.#pool.query('DELETE FROM lead_rate_limits WHERE key = $1', [key]);
  }

  async purgeRateLimits(): Promise<number> {
    const result = await this.#pool.query('DELETE FROM lead_rate_limits WHERE reset_at <= now()');
    return result.rowCount ?? 0;
  }

  async countFailedDeliveries(): Promise<number> {
    const result = await this.#pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM lead_deliveries WHERE state = 'failed'`,
    );
    return result.rows[0]?.n ?? 0;
  }

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

export async function openPostgresLeadStore(
  options: PostgresLeadStoreOptions,
): Promise<PostgresLeadStore> {
  const store = new PostgresLeadStore(options);
  try {
    await store.migrate();
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

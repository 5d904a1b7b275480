import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type SQLOutputValue, type StatementSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
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
import { webhookLabel } from './webhooks.server.ts';

/**
 * The embedded lead store (CONTRACT: `npm start` needs no database server):
 * one SQLite file, `${dataDir}/leads.sqlite`, through Node's built-in
 * node:sqlite.
 *
 * Durability (CONTRACT "Delivery" 1 and 3: a crash loses no lead and no
 * retry): WAL journal with synchronous=FULL, so every COMMIT is fsynced
 * before it returns; a SIGKILL (or power loss) after a commit keeps it.
 * The outbox's bookkeeping (a claim's lease, an attempt's result, a lead
 * expired undecided) commits with synchronous=NORMAL: written to the WAL
 * but not fsynced, so it survives a SIGKILL and is made durable by the next
 * fsynced commit. Power lost before then only rolls the delivery row back
 * to what it was: the attempt is made again (the one duplicate CONTRACT
 * "Delivery" allows, a crash between a target's acceptance and the store's
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

/** How long a statement waits for another process's lock (SQLite's busy_timeout was 5 s). */
const BUSY_WAIT_MS = 5000;
/** The pauses between tries, in ms (SQLite's own busy handler's), the last one repeated. */
const BUSY_PAUSES_MS = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100];
const STATEMENT_CACHE_SIZE = 64;

/** SQLite's primary result codes (https://sqlite.org/rescode.html). */
const SQLITE_BUSY = 5;
/** Codes that say the file cannot take a write now: PERM, BUSY, READONLY, IOERR, FULL, CANTOPEN. */
const UNWRITABLE_CODES: ReadonlySet<number> = new Set([3, SQLITE_BUSY, 8, 10, 13, 14]);

/** The primary result code of a node:sqlite error (extended codes carry it in the low byte). */
function sqliteCode(error: unknown): number | undefined {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  return typeof code === 'number' ? code & 0xff : undefined;
}

interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Versioned, applied in order at open, each inside the migration transaction. */
/** Exported for the schema tests (store-schema.server.test.ts). */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'leads and deliveries',
    sql: `
      CREATE TABLE leads (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        email TEXT NOT NULL,
        phone TEXT NOT NULL,
        service TEXT NOT NULL,
        message TEXT NOT NULL,
        created_at TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('hero_form', 'contact_form', 'quote_form')),
        status TEXT NOT NULL CHECK (status IN ('received', 'accepted', 'not_accepted', 'spam')),
        idempotency_key TEXT UNIQUE
      ) STRICT;
      CREATE INDEX leads_created_at ON leads (created_at);
      CREATE INDEX leads_status ON leads (status);

      CREATE TABLE lead_deliveries (
        lead_id TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
        url TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed', 'not_sent')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT,
        last_error TEXT,
        delivered_at TEXT,
        lease_owner TEXT,
        lease_expires_at TEXT,
        position INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (lead_id, url)
      ) STRICT;
      CREATE INDEX lead_deliveries_due ON lead_deliveries (state, next_attempt_at);
    `,
  },
  {
    // Delivery rows name their target by key and label, never by a webhook's
    // address (it may hold a token); 'cancelled' for removed targets; leads
    // found by e-mail for Privacy Act requests. lead_webhook_key/label are
    // registered by the store; version 5 turns the keys into positions.
    version: 2,
    name: 'delivery targets by key and label',
    sql: `
      CREATE TABLE lead_deliveries_v2 (
        lead_id TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
        target TEXT NOT NULL,
        label TEXT NOT NULL,
        state TEXT NOT NULL
          CHECK (state IN ('pending', 'delivered', 'failed', 'not_sent', 'cancelled')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT,
        last_error TEXT,
        delivered_at TEXT,
        lease_owner TEXT,
        lease_expires_at TEXT,
        position INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (lead_id, target)
      ) STRICT;
      INSERT INTO lead_deliveries_v2
        SELECT lead_id, lead_webhook_key(url), lead_webhook_label(url, position), state,
               attempts, next_attempt_at, last_error, delivered_at, lease_owner,
               lease_expires_at, position
        FROM lead_deliveries;
      DROP TABLE lead_deliveries;
      ALTER TABLE lead_deliveries_v2 RENAME TO lead_deliveries;
      CREATE INDEX lead_deliveries_due ON lead_deliveries (state, next_attempt_at);
      CREATE INDEX leads_email ON leads (email);
    `,
  },
  {
    // Shared by every process on the store (PostgreSQL; SQLite keeps the
    // same table so the two schemas stay one). Keys are hashed client addresses.
    version: 3,
    name: 'rate limit counts',
    sql: `
      CREATE TABLE lead_rate_limits (
        key TEXT NOT NULL PRIMARY KEY,
        hits INTEGER NOT NULL,
        reset_at TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    // A delivery row is one B-tree entry, keyed by lead and target, instead
    // of a rowid table plus the primary key's index; and the due index holds
    // pending rows only, as PostgreSQL's always has. A lead with a target
    // then writes two pages fewer in its fsynced commit (issue 14: the
    // e-mail target's cost to a saturated server).
    version: 4,
    name: 'deliveries keyed by lead and target, due index on pending rows',
    sql: `
      CREATE TABLE lead_deliveries_v4 (
        lead_id TEXT NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
        target TEXT NOT NULL,
        label TEXT NOT NULL,
        state TEXT NOT NULL
          CHECK (state IN ('pending', 'delivered', 'failed', 'not_sent', 'cancelled')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at TEXT,
        last_error TEXT,
        delivered_at TEXT,
        lease_owner TEXT,
        lease_expires_at TEXT,
        position INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (lead_id, target)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO lead_deliveries_v4
        SELECT lead_id, target, label, state, attempts, next_attempt_at, last_error,
               delivered_at, lease_owner, lease_expires_at, position
        FROM lead_deliveries;
      DROP TABLE lead_deliveries;
      ALTER TABLE lead_deliveries_v4 RENAME TO lead_deliveries;
      CREATE INDEX lead_deliveries_due ON lead_deliveries (next_attempt_at) WHERE state = 'pending';
    `,
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
      UPDATE lead_deliveries SET label = 'webhook ' || (position + 1)
        WHERE target LIKE 'webhook:%' AND label NOT GLOB 'webhook [1-9]*';
      UPDATE lead_deliveries SET label = 'webhook ' || CAST(substr(label, 9) AS INTEGER)
        WHERE target LIKE 'webhook:%';
      UPDATE lead_deliveries SET target = 'webhook:' || substr(label, 9)
        WHERE target LIKE 'webhook:%';
    `,
  },
  {
    // GET /healthz commits a write to this one row (checkWritable): a store
    // that answers reads but cannot commit a lead is reported as such.
    version: 6,
    name: 'store heartbeat',
    sql: `
      CREATE TABLE lead_store_heartbeat (
        id INTEGER PRIMARY KEY,
        beat_at TEXT NOT NULL
      ) STRICT;
    `,
  },
];

type Row = Record<string, SQLOutputValue>;

const LEAD_COLUMNS =
  'id, name, email, phone, service, message, created_at, source, status, idempotency_key';
const DELIVERY_COLUMNS =
  'lead_id, target, label, state, attempts, next_attempt_at, last_error, delivered_at, lease_owner, lease_expires_at';

/**
 * The outbox's claim: the oldest due pending deliveries of accepted leads,
 * leased in one statement. CROSS JOIN keeps the deliveries the outer loop,
 * read in order from the due index; left to itself the planner may walk
 * every accepted lead instead, which grows with the table (a backlog of
 * 20,000 e-mails then drained at a fraction of the speed).
 */
export const CLAIM_SQL = `UPDATE lead_deliveries
  SET lease_owner = ?, lease_expires_at = ?
  WHERE (lead_id, target) IN (
    SELECT d.lead_id, d.target FROM lead_deliveries d CROSS JOIN leads l ON l.id = d.lead_id
    WHERE d.state = 'pending' AND l.status = 'accepted'
      AND d.next_attempt_at IS NOT NULL AND d.next_attempt_at <= ?
      AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= ?)
      AND d.target IN (SELECT value FROM json_each(?))
    ORDER BY d.next_attempt_at
    LIMIT ?
  )
  RETURNING ${DELIVERY_COLUMNS}`;

function toLead(row: Row): LeadRecord {
  return {
    id: String(row.id),
    name: String(row.name),
    email: String(row.email),
    phone: String(row.phone),
    service: String(row.service),
    message: String(row.message),
    created_at: String(row.created_at),
    source: String(row.source) as LeadRecord['source'],
    status: String(row.status) as LeadStatus,
    idempotency_key: row.idempotency_key === null ? null : String(row.idempotency_key),
  };
}

const textOrNull = (value: SQLOutputValue | undefined) =>
  value === null || value === undefined ? null : String(value);

function toDelivery(row: Row): DeliveryRecord {
  return {
    lead_id: String(row.lead_id),
    target: String(row.target),
    label: String(row.label),
    state: String(row.state) as DeliveryRecord['state'],
    attempts: Number(row.attempts),
    next_attempt_at: textOrNull(row.next_attempt_at),
    last_error: textOrNull(row.last_error),
    delivered_at: textOrNull(row.delivered_at),
    lease_owner: textOrNull(row.lease_owner),
    lease_expires_at: textOrNull(row.lease_expires_at),
  };
}

export class SqliteLeadStore implements LeadStore {
  readonly kind = 'sqlite' as const;
  readonly file: string;
  readonly #db: DatabaseSync;
  /**
   * Prepared statements by their SQL: compiling a statement costs about as
   * much as running it, and a lead submission runs the same few every time.
   */
  readonly #statements = new Map<string, StatementSync>();
  readonly #busyWaitMs: number;
  #closed = false;
  /** False after a write failed for want of a writable file, until one succeeds. */
  #writable = true;

  /** Use openSqliteLeadStore(), which also sets the journal mode and migrates. */
  constructor(file: string, options: { busyWaitMs?: number | undefined } = {}) {
    this.file = file;
    this.#busyWaitMs = options.busyWaitMs ?? BUSY_WAIT_MS;
    // timeout 0: SQLite answers "locked" at once instead of sleeping on this thread.
    this.#db = new DatabaseSync(file, { timeout: 0 });
    try {
      this.#db.exec('PRAGMA busy_timeout = 0');
      this.#db.exec('PRAGMA secure_delete = ON');
      this.#db.exec('PRAGMA synchronous = FULL');
      this.#db.exec('PRAGMA foreign_keys = ON');
      // For version 2: the key it wrote (a hash of the address, unique per
      // lead as the address was) and a label without the address.
      this.#db.function(
        'lead_webhook_key',
        { deterministic: true },
        (url) => `webhook:${createHash('sha256').update(String(url)).digest('hex').slice(0, 16)}`,
      );
      this.#db.function('lead_webhook_label', { deterministic: true }, (_url, position) =>
        webhookLabel(Number(position)),
      );
    } catch (error) {
      this.#db.close();
      throw error;
    }
  }

  /** WAL mode and the migrations, waiting (awaited) for another process's lock. */
  async open(): Promise<void> {
    try {
      await this.#attempt('write', () => this.#db.exec('PRAGMA journal_mode = WAL'));
      await this.#attempt('write', () => this.#migrate());
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  /**
   * Runs `work` (synchronous, a whole transaction at most), trying it again
   * after an awaited pause while another connection holds the lock, until
   * BUSY_WAIT_MS have passed; a write while the store is known unwritable
   * is tried once. No transaction stays open across a pause.
   */
  async #attempt<T>(kind: 'read' | 'write', work: () => T): Promise<T> {
    const waitUntil = kind === 'write' && !this.#writable ? 0 : Date.now() + this.#busyWaitMs;
    for (let round = 0; ; round++) {
      if (this.#closed) throw new Error('Lead store is closed');
      try {
        const result = work();
        if (kind === 'write') this.#writable = true;
        return result;
      } catch (error) {
        const code = sqliteCode(error);
        if (code === SQLITE_BUSY && Date.now() < waitUntil) {
          await sleep(BUSY_PAUSES_MS[Math.min(round, BUSY_PAUSES_MS.length - 1)]);
          continue;
        }
        if (kind === 'write' && code !== undefined && UNWRITABLE_CODES.has(code)) {
          this.#writable = false;
        }
        throw error;
      }
    }
  }

  /**
   * After a deletion: copies every page back into the file (the deleted rows
   * are zeros there, PRAGMA secure_delete) and truncates the write-ahead log,
   * whose frames still hold the rows as they were. Waits, like any
   * statement, for other connections to finish what they are reading.
   */
  async #eraseWal(): Promise<void> {
    await this.#attempt('read', () => {
      const result = this.#statement('PRAGMA wal_checkpoint(TRUNCATE)').get();
      if (Number(result?.busy) !== 0) {
        throw Object.assign(new Error('database is locked: the checkpoint could not finish'), {
          errcode: SQLITE_BUSY,
        });
      }
    });
  }

  /** The prepared statement for `sql`, compiled once (up to STATEMENT_CACHE_SIZE of them). */
  #statement(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      // Statements built for a list of ids vary; those beyond the bound are compiled each time.
      if (this.#statements.size < STATEMENT_CACHE_SIZE) this.#statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * BEGIN IMMEDIATE takes the write lock up front, so two processes opening
   * the same file migrate one after the other, and a claim's read and
   * update cannot interleave with another writer.
   */
  #transaction<T>(work: () => T): T {
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.#db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      throw error;
    }
  }

  /** PRAGMA synchronous now: 2 (FULL) between bookkeeping commits (for the tests). */
  get synchronous(): number {
    return Number(this.#statement('PRAGMA synchronous').get()?.synchronous);
  }

  /** Outbox bookkeeping: committed without its own fsync (see the top of this file). */
  #bookkeeping<T>(work: () => T): T {
    this.#db.exec('PRAGMA synchronous = NORMAL');
    try {
      return this.#transaction(work);
    } finally {
      this.#db.exec('PRAGMA synchronous = FULL');
    }
  }

  #migrate(): void {
    this.#transaction(() => {
      this.#db.exec(`
        CREATE TABLE IF NOT EXISTS lead_schema_migrations (
          version INTEGER PRIMARY KEY,
          name TEXT NOT NULL,
          applied_at TEXT NOT NULL
        ) STRICT`);
      const applied = new Set(
        this.#statement('SELECT version FROM lead_schema_migrations')
          .all()
          .map((row) => Number(row.version)),
      );
      for (const migration of MIGRATIONS) {
        if (applied.has(migration.version)) continue;
        this.#db.exec(migration.sql);
        this.#statement(
          'INSERT INTO lead_schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
        ).run(migration.version, migration.name, new Date().toISOString());
      }
    });
  }

  #deliveriesOf(leadIds: readonly string[]): DeliveryRecord[] {
    if (leadIds.length === 0) return [];
    const rows: DeliveryRecord[] = [];
    // Chunked to stay far below SQLite's bound-parameter limit.
    for (let start = 0; start < leadIds.length; start += 500) {
      const chunk = leadIds.slice(start, start + 500);
      const placeholders = chunk.map(() => '?').join(', ');
      const found = this.#statement(
        `SELECT ${DELIVERY_COLUMNS} FROM lead_deliveries
           WHERE lead_id IN (${placeholders}) ORDER BY lead_id, position`,
      ).all(...chunk);
      rows.push(...found.map(toDelivery));
    }
    return rows;
  }

  async insertLead(lead: LeadRecord, deliveries: readonly NewDelivery[]): Promise<InsertResult> {
    return this.#attempt('write', () => this.#insertLead(lead, deliveries));
  }

  #insertLead(lead: LeadRecord, deliveries: readonly NewDelivery[]): InsertResult {
    return this.#transaction(() => {
      const inserted = this.#statement(
        `INSERT INTO leads (${LEAD_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (idempotency_key) DO NOTHING`,
      ).run(
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
      );
      if (inserted.changes === 0) {
        const existing = this.#statement(
          `SELECT ${LEAD_COLUMNS} FROM leads WHERE idempotency_key = ?`,
        ).get(lead.idempotency_key);
        if (!existing) throw new Error('Lead insert ignored without an idempotency conflict');
        return { inserted: false as const, existing: toLead(existing) };
      }
      const insertDelivery = this.#statement(
        `INSERT INTO lead_deliveries (lead_id, target, label, state, attempts, next_attempt_at, position)
         VALUES (?, ?, ?, ?, 0, ?, ?)`,
      );
      deliveries.forEach((delivery, position) => {
        insertDelivery.run(
          lead.id,
          delivery.target,
          delivery.label,
          delivery.state,
          delivery.next_attempt_at,
          position,
        );
      });
      return { inserted: true as const };
    });
  }

  async findByIdempotencyKey(key: string): Promise<LeadRecord | null> {
    return this.#attempt('read', () => {
      const row = this.#statement(
        `SELECT ${LEAD_COLUMNS} FROM leads WHERE idempotency_key = ?`,
      ).get(key);
      return row ? toLead(row) : null;
    });
  }

  async getLead(id: string): Promise<LeadWithDeliveries | null> {
    return this.#attempt('read', () => {
      const row = this.#statement(`SELECT ${LEAD_COLUMNS} FROM leads WHERE id = ?`).get(id);
      if (!row) return null;
      const lead = toLead(row);
      return attachDeliveries([lead], this.#deliveriesOf([lead.id]))[0] ?? null;
    });
  }

  async settleLead(
    id: string,
    status: LeadStatus,
    updates: readonly DeliveryUpdate[],
  ): Promise<void> {
    await this.#attempt('write', () => this.#settleLead(id, status, updates));
  }

  #settleLead(id: string, status: LeadStatus, updates: readonly DeliveryUpdate[]): void {
    this.#transaction(() => {
      this.#statement('UPDATE leads SET status = ? WHERE id = ?').run(status, id);
      const update = this.#statement(
        `UPDATE lead_deliveries
         SET state = ?, attempts = ?, next_attempt_at = ?, last_error = ?, delivered_at = ?,
             lease_owner = NULL, lease_expires_at = NULL
         WHERE lead_id = ? AND target = ?`,
      );
      for (const u of updates) {
        update.run(
          u.state,
          u.attempts,
          u.next_attempt_at,
          clipError(u.last_error),
          u.delivered_at,
          id,
          u.target,
        );
      }
    });
  }

  async releaseIdempotencyKey(id: string): Promise<boolean> {
    const result = await this.#attempt('write', () =>
      this.#statement(
        `UPDATE leads SET idempotency_key = NULL WHERE id = ? AND status = 'not_accepted'`,
      ).run(id),
    );
    return result.changes > 0;
  }

  async claimDueDeliveries(options: {
    owner: string;
    now: string;
    leaseUntil: string;
    limit: number;
    targets: readonly string[];
  }): Promise<ClaimedDelivery[]> {
    return this.#attempt('write', () => this.#claimDueDeliveries(options));
  }

  #claimDueDeliveries(options: {
    owner: string;
    now: string;
    leaseUntil: string;
    limit: number;
    targets: readonly string[];
  }): ClaimedDelivery[] {
    return this.#bookkeeping(() => {
      // One UPDATE ... RETURNING inside an immediate transaction: no other
      // connection can write between choosing the rows and leasing them.
      const claimed = this.#statement(CLAIM_SQL)
        .all(
          options.owner,
          options.leaseUntil,
          options.now,
          options.now,
          JSON.stringify(options.targets),
          options.limit,
        )
        .map(toDelivery)
        // RETURNING gives rows in the table's key order: oldest due first again.
        .sort((a, b) => (a.next_attempt_at ?? '').localeCompare(b.next_attempt_at ?? ''));
      if (claimed.length === 0) return [];
      const ids = [...new Set(claimed.map((d) => d.lead_id))];
      const leads = new Map(
        this.#statement(
          `SELECT ${LEAD_COLUMNS} FROM leads WHERE id IN (${ids.map(() => '?').join(', ')})`,
        )
          .all(...ids)
          .map((row) => [String(row.id), toLead(row)] as const),
      );
      return claimed.flatMap((delivery) => {
        const lead = leads.get(delivery.lead_id);
        if (!lead) return [];
        return [
          {
            ...delivery,
            lease_owner: options.owner,
            lease_expires_at: options.leaseUntil,
            lead,
          },
        ];
      });
    });
  }

  async recordDelivery(leadId: string, owner: string, update: DeliveryUpdate): Promise<boolean> {
    const result = await this.#attempt('write', () =>
      this.#bookkeeping(() =>
        this.#statement(
          `UPDATE lead_deliveries
         SET state = ?, attempts = ?, next_attempt_at = ?, last_error = ?, delivered_at = ?,
             lease_owner = NULL, lease_expires_at = NULL
         WHERE lead_id = ? AND target = ? AND lease_owner = ?`,
        ).run(
          update.state,
          update.attempts,
          update.next_attempt_at,
          clipError(update.last_error),
          update.delivered_at,
          leadId,
          update.target,
          owner,
        ),
      ),
    );
    return result.changes > 0;
  }

  async cancelDeliveriesExcept(targets: readonly string[]): Promise<CancelledDelivery[]> {
    return this.#attempt('write', () => this.#cancelDeliveriesExcept(targets));
  }

  #cancelDeliveriesExcept(targets: readonly string[]): CancelledDelivery[] {
    return this.#bookkeeping(() =>
      this.#statement(
        `UPDATE lead_deliveries
           SET state = 'cancelled', next_attempt_at = NULL, lease_owner = NULL, lease_expires_at = NULL
           WHERE state = 'pending' AND target NOT IN (SELECT value FROM json_each(?))
             AND lead_id IN (SELECT id FROM leads WHERE status = 'accepted')
           RETURNING lead_id, target, label`,
      )
        .all(JSON.stringify(targets))
        .map((row) => ({
          lead_id: String(row.lead_id),
          target: String(row.target),
          label: String(row.label),
        })),
    );
  }

  async expireReceived(olderThan: string): Promise<number> {
    return this.#attempt('write', () => this.#expireReceived(olderThan));
  }

  #expireReceived(olderThan: string): number {
    return this.#bookkeeping(() => {
      const stale = this.#statement(
        `SELECT id FROM leads WHERE status = 'received' AND created_at < ?`,
      )
        .all(olderThan)
        .map((row) => String(row.id));
      const markLead = this.#statement(
        `UPDATE leads SET status = 'not_accepted' WHERE id = ? AND status = 'received'`,
      );
      const markDeliveries = this.#statement(
        `UPDATE lead_deliveries SET state = 'not_sent', next_attempt_at = NULL,
           lease_owner = NULL, lease_expires_at = NULL
         WHERE lead_id = ? AND state = 'pending'`,
      );
      for (const id of stale) {
        markLead.run(id);
        markDeliveries.run(id);
      }
      return stale.length;
    });
  }

  async listLeads(options: { limit?: number } = {}): Promise<LeadWithDeliveries[]> {
    const limit = Math.max(1, Math.min(options.limit ?? 50, 10_000));
    return this.#attempt('read', () => {
      const leads = this.#statement(
        `SELECT ${LEAD_COLUMNS} FROM leads ORDER BY created_at DESC, rowid DESC LIMIT ?`,
      )
        .all(limit)
        .map(toLead);
      return attachDeliveries(leads, this.#deliveriesOf(leads.map((lead) => lead.id)));
    });
  }

  async exportLeads(): Promise<LeadWithDeliveries[]> {
    return this.#attempt('read', () => {
      const leads = this.#statement(`SELECT ${LEAD_COLUMNS} FROM leads ORDER BY created_at, rowid`)
        .all()
        .map(toLead);
      return attachDeliveries(leads, this.#deliveriesOf(leads.map((lead) => lead.id)));
    });
  }

  async findLeadsByEmail(email: string): Promise<LeadWithDeliveries[]> {
    return this.#attempt('read', () => {
      const leads = this.#statement(
        `SELECT ${LEAD_COLUMNS} FROM leads WHERE email = ? ORDER BY created_at, rowid`,
      )
        .all(email.trim().toLowerCase())
        .map(toLead);
      return attachDeliveries(leads, this.#deliveriesOf(leads.map((lead) => lead.id)));
    });
  }

  async deleteLeads(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const count = await this.#attempt('write', () =>
      this.#transaction(() => {
        const remove = this.#statement('DELETE FROM leads WHERE id = ?');
        let deleted = 0;
        for (const id of new Set(ids)) deleted += Number(remove.run(id).changes);
        return deleted;
      }),
    );
    await this.#eraseWal();
    return count;
  }

  async purgeCreatedBefore(cutoff: string): Promise<number> {
    // Deliveries go with their lead (ON DELETE CASCADE).
    const result = await this.#attempt('write', () =>
      this.#statement('DELETE FROM leads WHERE created_at < ?').run(cutoff),
    );
    // Every purge (daily), so one whose checkpoint could not finish is finished by the next.
    await this.#eraseWal();
    return Number(result.changes);
  }

  async hitRateLimit(key: string, windowMs: number): Promise<RateLimitCount> {
    const now = new Date().toISOString();
    const row = await this.#attempt('write', () =>
      this.#statement(
        `INSERT INTO lead_rate_limits (key, hits, reset_at) VALUES (?, 1, ?)
           ON CONFLICT (key) DO UPDATE SET
             hits = CASE WHEN reset_at <= ? THEN 1 ELSE hits + 1 END,
             reset_at = CASE WHEN reset_at <= ? THEN excluded.reset_at ELSE reset_at END
           RETURNING hits, reset_at`,
      ).get(key, new Date(Date.parse(now) + windowMs).toISOString(), now, now),
    );
    return { hits: Number(row?.hits), resetAt: String(row?.reset_at) };
  }

  async undoRateLimitHit(key: string): Promise<void> {
    await this.#attempt('write', () =>
      this.#statement('UPDATE lead_rate_limits SET hits = hits - 1 WHERE key = ? AND hits > 0').run(
        key,
      ),
    );
  }

  async resetRateLimit(key: string): Promise<void> {
    await this.#attempt('write', () =>
      this.#statement('DELETE FROM lead_rate_limits WHERE key = ?').run(key),
    );
  }

  async purgeRateLimits(): Promise<number> {
    const result = await this.#attempt('write', () =>
      this.#statement('DELETE FROM lead_rate_limits WHERE reset_at <= ?').run(
        new Date().toISOString(),
      ),
    );
    return Number(result.changes);
  }

  async countFailedDeliveries(): Promise<number> {
    const row = await this.#attempt('read', () =>
      this.#statement(`SELECT count(*) AS n FROM lead_deliveries WHERE state = 'failed'`).get(),
    );
    return Number(row?.n ?? 0);
  }

  async ping(): Promise<void> {
    await this.#attempt('read', () => this.#statement('SELECT 1').get());
  }

  async checkWritable(): Promise<void> {
    await this.#attempt('write', () =>
      this.#statement(
        `INSERT INTO lead_store_heartbeat (id, beat_at) VALUES (1, ?)
           ON CONFLICT (id) DO UPDATE SET beat_at = excluded.beat_at`,
      ).run(new Date().toISOString()),
    );
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }
}

export async function openSqliteLeadStore(options: {
  dataDir: string;
  /** How long a statement waits for another process's lock (default 5 s). */
  busyWaitMs?: number | undefined;
}): Promise<SqliteLeadStore> {
  mkdirSync(options.dataDir, { recursive: true });
  const store = new SqliteLeadStore(path.join(options.dataDir, SQLITE_FILE_NAME), {
    busyWaitMs: options.busyWaitMs,
  });
  await store.open();
  return store;
}

import { createHash } from 'node:crypto';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { webhookLabel } from '../leads/delivery/target-names.ts';
import { SQLITE_MIGRATIONS } from './migrations.sqlite.server.ts';

/*
 * One connection to the embedded store's file, as every part of the SQLite
 * store uses it (store-sqlite.server.ts says why it never lets SQLite wait
 * for a lock): the prepared statements, the awaited retries of a locked
 * file, the transactions, the migrations.
 */

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

export class SqliteConnection {
  readonly file: string;
  readonly #db: DatabaseSync;
  /**
   * Prepared statements by their SQL: compiling a statement costs about as
   * much as running it, and a lead submission runs the same few every time.
   */
  readonly #statements = new Map<string, StatementSync>();
  readonly #busyWaitMs: number;
  /** Litestream replicates the file and holds the write-ahead log (eraseWal). */
  readonly #replicated: boolean;
  #closed = false;
  /** False after a write failed for want of a writable file, until one succeeds. */
  #writable = true;

  /** Use openSqliteStore(), which opens (journal mode, migrations) the store it makes. */
  constructor(
    file: string,
    options: { busyWaitMs?: number | undefined; replicated?: boolean | undefined } = {},
  ) {
    this.file = file;
    this.#busyWaitMs = options.busyWaitMs ?? BUSY_WAIT_MS;
    this.#replicated = options.replicated ?? false;
    // timeout 0: SQLite answers "locked" at once instead of sleeping on this thread.
    this.#db = new DatabaseSync(file, { timeout: 0 });
    try {
      this.#db.exec('PRAGMA busy_timeout = 0');
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
      // The inbox's search (searchTerms): SQLite's lower() folds ASCII only,
      // and 'Ō' must find 'ō'.
      this.#db.function('lead_fold', { deterministic: true }, (text) => String(text).toLowerCase());
      this.#db.function('lead_digits', { deterministic: true }, (text) =>
        String(text).replace(/\D/g, ''),
      );
    } catch (error) {
      this.#db.close();
      throw error;
    }
  }

  /**
   * The connection's settings, WAL mode and the migrations, each waiting
   * (awaited) for another process's lock: even a setting reads the file's
   * header, which a server writing at that moment may hold for an instant.
   */
  async open(): Promise<void> {
    try {
      await this.attempt('read', () => {
        this.#db.exec('PRAGMA secure_delete = ON');
        this.#db.exec('PRAGMA synchronous = FULL');
        this.#db.exec('PRAGMA foreign_keys = ON');
      });
      await this.attempt('write', () => this.#db.exec('PRAGMA journal_mode = WAL'));
      await this.attempt('write', () => this.#migrate());
    } catch (error) {
      this.close();
      throw error;
    }
  }

  /**
   * Runs `work` (synchronous, a whole transaction at most), trying it again
   * after an awaited pause while another connection holds the lock, until
   * BUSY_WAIT_MS have passed; a write while the store is known unwritable
   * is tried once. No transaction stays open across a pause.
   */
  async attempt<T>(kind: 'read' | 'write', work: () => T): Promise<T> {
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
   *
   * While Litestream replicates the file (BACKUP_URL), it keeps a read
   * transaction open on the log so that no frame is checkpointed before it
   * has copied it, and the log cannot be truncated: the checkpoint is tried
   * once, copies what it may, and leaves the rest to Litestream's own
   * checkpoints (docs/decisions/0013-continuous-backups-with-litestream.md).
   */
  async eraseWal(): Promise<void> {
    if (this.#replicated) {
      await this.attempt('read', () => this.statement('PRAGMA wal_checkpoint(TRUNCATE)').get());
      return;
    }
    await this.attempt('read', () => {
      const result = this.statement('PRAGMA wal_checkpoint(TRUNCATE)').get();
      if (Number(result?.busy) !== 0) {
        throw Object.assign(new Error('database is locked: the checkpoint could not finish'), {
          errcode: SQLITE_BUSY,
        });
      }
    });
  }

  /** The prepared statement for `sql`, compiled once (up to STATEMENT_CACHE_SIZE of them). */
  statement(sql: string): StatementSync {
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
  transaction<T>(work: () => T): T {
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
    return Number(this.statement('PRAGMA synchronous').get()?.synchronous);
  }

  /** Outbox bookkeeping: committed without its own fsync (see the top of this file). */
  bookkeeping<T>(work: () => T): T {
    this.#db.exec('PRAGMA synchronous = NORMAL');
    try {
      return this.transaction(work);
    } finally {
      this.#db.exec('PRAGMA synchronous = FULL');
    }
  }

  #migrate(): void {
    this.transaction(() => {
      this.#db.exec(`
        CREATE TABLE IF NOT EXISTS lead_schema_migrations (
          version INTEGER PRIMARY KEY,
          name TEXT NOT NULL,
          applied_at TEXT NOT NULL
        ) STRICT`);
      const applied = new Set(
        this.statement('SELECT version FROM lead_schema_migrations')
          .all()
          .map((row) => Number(row.version)),
      );
      for (const migration of SQLITE_MIGRATIONS) {
        if (applied.has(migration.version)) continue;
        this.#db.exec(migration.sql);
        this.statement(
          'INSERT INTO lead_schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
        ).run(migration.version, migration.name, new Date().toISOString());
      }
    });
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }
}

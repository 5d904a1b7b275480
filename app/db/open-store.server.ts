import type { Logger } from 'pino';
import type { AppStore } from './store.server.ts';

/**
 * The store factory: the one module that knows both engines. The engines
 * and the store's interface (store.server.ts) never import it, so the
 * drawing of the imports has no circle through the store.
 */

export interface OpenStoreOptions {
  /** Directory of the embedded store (DATA_DIR, docs/operations.md#environment). */
  dataDir: string;
  /**
   * When set, PostgreSQL is used instead of the embedded store
   * (docs/operations.md#environment).
   */
  databaseUrl?: string | undefined;
  /**
   * Litestream replicates the embedded store (BACKUP_URL,
   * docs/operations.md#backups): it holds the write-ahead log.
   */
  replicated?: boolean | undefined;
  /** PostgreSQL schema to use (tests give each run its own). */
  schema?: string | undefined;
  logger?: Logger | undefined;
}

/**
 * Opens the store chosen by the environment and applies its migrations.
 * The implementations are imported lazily so the SQLite build never loads
 * `pg` and the other way round. Fails when the store cannot be opened now
 * (the leads CLI); the server uses reconnectingStore() instead.
 */
export async function openStore(options: OpenStoreOptions): Promise<AppStore> {
  if (options.databaseUrl) {
    const { openPostgresStore } = await import('./store-postgres.server.ts');
    return openPostgresStore({
      connectionString: options.databaseUrl,
      schema: options.schema,
      logger: options.logger,
    });
  }
  const { openSqliteStore } = await import('./store-sqlite.server.ts');
  return openSqliteStore({ dataDir: options.dataDir, replicated: options.replicated });
}

/**
 * The store as a long-running server holds it: opened on first use, opened
 * again after a failure (store-reconnecting.server.ts). Never fails to start.
 */
export async function reconnectingStore(options: OpenStoreOptions): Promise<AppStore> {
  const { ReconnectingAppStore } = await import('./store-reconnecting.server.ts');
  return new ReconnectingAppStore(
    options.databaseUrl ? 'postgres' : 'sqlite',
    () => openStore(options),
    options.logger,
  );
}

import type { Logger } from 'pino';
import type { LeadStore } from './store.server.ts';

/**
 * The store factory: the one module that knows both engines. The engines
 * and the store's interface (store.server.ts) never import it, so the
 * drawing of the imports has no circle through the store.
 */

export interface OpenLeadStoreOptions {
  /** Directory of the embedded store (DATA_DIR, docs/operations.md#environment). */
  dataDir: string;
  /**
   * When set, PostgreSQL is used instead of the embedded store
   * (docs/operations.md#environment).
   */
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

import { randomBytes } from 'node:crypto';
import type { SqliteConnection } from '../sqlite-connection.server.ts';
import { STORE_SECRET_BYTES, type SecretStore, type StoreSecretName } from './secrets.server.ts';

/** The SQLite half of the store's secrets (secrets.server.ts). */
export class SqliteSecretStore implements SecretStore {
  readonly #db: SqliteConnection;

  constructor(db: SqliteConnection) {
    this.#db = db;
  }

  async getOrCreateSecret(name: StoreSecretName): Promise<Uint8Array> {
    const read = () =>
      this.#db.statement('SELECT secret FROM lead_store_secrets WHERE name = ?').get(name)?.secret;
    const found = await this.#db.attempt('read', read);
    if (found instanceof Uint8Array) return new Uint8Array(found);
    // Made once: of two processes making it at once, the first insert wins
    // and both read the same secret back.
    const made = await this.#db.attempt('write', () => {
      this.#db
        .statement(
          `INSERT INTO lead_store_secrets (name, secret, created_at) VALUES (?, ?, ?)
           ON CONFLICT (name) DO NOTHING`,
        )
        .run(name, randomBytes(STORE_SECRET_BYTES), new Date().toISOString());
      return read();
    });
    if (!(made instanceof Uint8Array)) throw new Error('The store secret was not stored');
    return new Uint8Array(made);
  }
}

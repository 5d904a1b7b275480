import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Row } from '../postgres-values.server.ts';
import { STORE_SECRET_BYTES, type SecretStore, type StoreSecretName } from './secrets.server.ts';

/** The PostgreSQL half of the store's secrets (secrets.server.ts). */
export class PostgresSecretStore implements SecretStore {
  readonly #pool: pg.Pool;

  constructor(db: pg.Pool) {
    this.#pool = db;
  }

  async getOrCreateSecret(name: StoreSecretName): Promise<Uint8Array> {
    const read = async () => {
      const result = await this.#pool.query(
        'SELECT secret FROM lead_store_secrets WHERE name = $1',
        [name],
      );
      const secret = (result.rows[0] as Row | undefined)?.secret;
      return secret instanceof Uint8Array ? new Uint8Array(secret) : undefined;
    };
    const found = await read();
    if (found) return found;
    // Made once: of two processes making it at once, the first insert wins
    // (the other's waits for it, then does nothing) and both read it back.
    await this.#pool.query(
      `INSERT INTO lead_store_secrets (name, secret, created_at) VALUES ($1, $2, now())
         ON CONFLICT (name) DO NOTHING`,
      [name, randomBytes(STORE_SECRET_BYTES)],
    );
    const made = await read();
    if (!made) throw new Error('The store secret was not stored');
    return made;
  }
}

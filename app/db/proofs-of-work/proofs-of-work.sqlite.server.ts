import type { SqliteConnection } from '../sqlite-connection.server.ts';
import type { ProofOfWorkStore } from './proofs-of-work.server.ts';

/** The SQLite half of the spent proofs of work (proofs-of-work.server.ts). */
export class SqliteProofOfWorkStore implements ProofOfWorkStore {
  readonly #db: SqliteConnection;

  constructor(db: SqliteConnection) {
    this.#db = db;
  }

  async spendProofOfWork(key: string, expiresAt: string): Promise<boolean> {
    // One statement under the write lock: the first insert wins.
    const result = await this.#db.attempt('write', () =>
      this.#db
        .statement(
          `INSERT INTO lead_spent_proofs (key, expires_at) VALUES (?, ?)
           ON CONFLICT (key) DO NOTHING`,
        )
        .run(key, expiresAt),
    );
    return Number(result.changes) === 1;
  }

  async purgeSpentProofsOfWork(): Promise<number> {
    const result = await this.#db.attempt('write', () =>
      this.#db
        .statement('DELETE FROM lead_spent_proofs WHERE expires_at <= ?')
        .run(new Date().toISOString()),
    );
    return Number(result.changes);
  }
}

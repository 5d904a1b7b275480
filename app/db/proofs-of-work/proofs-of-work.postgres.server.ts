import type pg from 'pg';
import type { ProofOfWorkStore } from './proofs-of-work.server.ts';

/** The PostgreSQL half of the spent proofs of work (proofs-of-work.server.ts). */
export class PostgresProofOfWorkStore implements ProofOfWorkStore {
  readonly #pool: pg.Pool;

  constructor(db: pg.Pool) {
    this.#pool = db;
  }

  async spendProofOfWork(key: string, expiresAt: string): Promise<boolean> {
    // Of two processes inserting the same key at once, the second waits
    // for the first's insert, then does nothing.
    const result = await this.#pool.query({
      name: 'lead-spend-proof-of-work',
      text: `INSERT INTO lead_spent_proofs (key, expires_at) VALUES ($1, $2)
        ON CONFLICT (key) DO NOTHING`,
      values: [key, expiresAt],
    });
    return result.rowCount === 1;
  }

  async purgeSpentProofsOfWork(): Promise<number> {
    const result = await this.#pool.query(
      'DELETE FROM lead_spent_proofs WHERE expires_at <= now()',
    );
    return result.rowCount ?? 0;
  }
}

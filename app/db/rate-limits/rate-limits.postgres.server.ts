import type pg from 'pg';
import { iso } from '../postgres-values.server.ts';
import type { RateLimitCount, RateLimitStore } from './rate-limits.server.ts';

/** The PostgreSQL half of the rate limits (rate-limits.server.ts). */
export class PostgresRateLimitStore implements RateLimitStore {
  readonly #pool: pg.Pool;

  constructor(db: pg.Pool) {
    this.#pool = db;
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

  async peekRateLimit(key: string): Promise<RateLimitCount | null> {
    const result = await this.#pool.query<{ hits: number; reset_at: Date }>(
      'SELECT hits, reset_at FROM lead_rate_limits WHERE key = $1 AND reset_at > now()',
      [key],
    );
    const row = result.rows[0];
    return row ? { hits: Number(row.hits), resetAt: iso(row.reset_at) ?? '' } : null;
  }
}

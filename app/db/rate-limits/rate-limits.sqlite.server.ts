import type { SqliteConnection } from '../sqlite-connection.server.ts';
import type { RateLimitCount, RateLimitStore } from './rate-limits.server.ts';

/** The SQLite half of the rate limits (rate-limits.server.ts). */
export class SqliteRateLimitStore implements RateLimitStore {
  readonly #db: SqliteConnection;

  constructor(db: SqliteConnection) {
    this.#db = db;
  }

  async hitRateLimit(key: string, windowMs: number): Promise<RateLimitCount> {
    const now = new Date().toISOString();
    const row = await this.#db.attempt('write', () =>
      this.#db
        .statement(
          `INSERT INTO lead_rate_limits (key, hits, reset_at) VALUES (?, 1, ?)
           ON CONFLICT (key) DO UPDATE SET
             hits = CASE WHEN reset_at <= ? THEN 1 ELSE hits + 1 END,
             reset_at = CASE WHEN reset_at <= ? THEN excluded.reset_at ELSE reset_at END
           RETURNING hits, reset_at`,
        )
        .get(key, new Date(Date.parse(now) + windowMs).toISOString(), now, now),
    );
    return { hits: Number(row?.hits), resetAt: String(row?.reset_at) };
  }

  async undoRateLimitHit(key: string): Promise<void> {
    await this.#db.attempt('write', () =>
      this.#db
        .statement('UPDATE lead_rate_limits SET hits = hits - 1 WHERE key = ? AND hits > 0')
        .run(key),
    );
  }

  async resetRateLimit(key: string): Promise<void> {
    await this.#db.attempt('write', () =>
      this.#db.statement('DELETE FROM lead_rate_limits WHERE key = ?').run(key),
    );
  }

  async purgeRateLimits(): Promise<number> {
    const result = await this.#db.attempt('write', () =>
      this.#db
        .statement('DELETE FROM lead_rate_limits WHERE reset_at <= ?')
        .run(new Date().toISOString()),
    );
    return Number(result.changes);
  }

  async peekRateLimit(key: string): Promise<RateLimitCount | null> {
    const row = await this.#db.attempt('read', () =>
      this.#db
        .statement('SELECT hits, reset_at FROM lead_rate_limits WHERE key = ? AND reset_at > ?')
        .get(key, new Date().toISOString()),
    );
    return row ? { hits: Number(row.hits), resetAt: String(row.reset_at) } : null;
  }
}

/*
 * The rate limits' counts (LEAD_RATE_LIMIT, the sign-in limits): one fixed
 * window per key, on the store's clock, shared by every process on one
 * database. Its SQLite and PostgreSQL halves are beside it.
 */

export interface RateLimitCount {
  hits: number;
  /** When the window ends (ISO 8601). */
  resetAt: string;
}

export interface RateLimitStore {
  /**
   * Counts one request of `key` in a fixed window of `windowMs` starting at its
   * first request (LEAD_RATE_LIMIT, docs/operations.md#environment), on the
   * store's clock, so every server process on one database shares one count per
   * visitor.
   */
  hitRateLimit(key: string, windowMs: number): Promise<RateLimitCount>;

  /** Takes back one counted request of `key`. */
  undoRateLimitHit(key: string): Promise<void>;

  /** Forgets `key`'s count. */
  resetRateLimit(key: string): Promise<void>;

  /** Drops the counts whose window has ended; returns how many. */
  purgeRateLimits(): Promise<number>;

  /** The current count of `key`, without counting a request; null when its window has ended or never began. */
  peekRateLimit(key: string): Promise<RateLimitCount | null>;
}

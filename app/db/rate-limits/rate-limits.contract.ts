import { describe, expect, it } from 'vitest';
import type { AppStore } from '../store.server.ts';
import { eventually } from '../../leads/testing/test-support.server.ts';
import { openStorePerTest, type StoreHarness } from '../store.contract.ts';

/**
 * The behaviour every store must have for the rate limits' counts
 * (rate-limits.server.ts), run against SQLite (store-sqlite.server.test.ts)
 * and PostgreSQL (store-postgres.server.test.ts).
 */

export function runRateLimitsContract(
  label: string,
  makeHarness: () => Promise<StoreHarness>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`Rate limits in the store: ${label}`, () => {
    let store: AppStore;
    const open = openStorePerTest(makeHarness, (first) => {
      store = first;
    });

    it('counts requests per key in a window, and starts again after it', async () => {
      const first = await store.hitRateLimit('client-a', 60_000);
      expect(first.hits).toBe(1);
      expect(Date.parse(first.resetAt)).toBeGreaterThan(Date.now() + 50_000);
      expect((await store.hitRateLimit('client-a', 60_000)).hits).toBe(2);
      const third = await store.hitRateLimit('client-a', 60_000);
      expect(third).toEqual({ hits: 3, resetAt: first.resetAt });
      expect((await store.hitRateLimit('client-b', 60_000)).hits).toBe(1);
      await store.undoRateLimitHit('client-a');
      expect((await store.hitRateLimit('client-a', 60_000)).hits).toBe(3);
      await store.resetRateLimit('client-a');
      expect((await store.hitRateLimit('client-a', 60_000)).hits).toBe(1);
      // A short window ends; the next request opens a new one.
      await store.hitRateLimit('client-c', 1);
      await eventually(async () => {
        expect(await store.purgeRateLimits()).toBeGreaterThanOrEqual(1);
      });
      expect((await store.hitRateLimit('client-c', 1)).hits).toBe(1);
      expect((await store.hitRateLimit('client-b', 60_000)).hits).toBe(2);
    });

    it('two instances share one count per key', async () => {
      const b = await open();
      const hits = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          (index % 2 === 0 ? store : b).hitRateLimit('shared-client', 60_000),
        ),
      );
      expect(hits.map((hit) => hit.hits).sort((x, y) => x - y)).toEqual(
        Array.from({ length: 12 }, (_, index) => index + 1),
      );
    });

    it('peeks at a count without counting', async () => {
      expect(await store.peekRateLimit('owner-key')).toBeNull();
      const hit = await store.hitRateLimit('owner-key', 60_000);
      expect(await store.peekRateLimit('owner-key')).toEqual(hit);
      expect(await store.peekRateLimit('owner-key')).toEqual(hit);
      await store.hitRateLimit('short-key', 1);
      await eventually(async () => {
        expect(await store.peekRateLimit('short-key')).toBeNull();
      });
    });
  });
}

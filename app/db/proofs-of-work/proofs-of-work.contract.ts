import { describe, expect, it } from 'vitest';
import type { AppStore } from '../store.server.ts';
import { openStorePerTest, type StoreHarness } from '../store.contract.ts';

/**
 * The behaviour every store must have for the spent proofs of work
 * (proofs-of-work.server.ts), run against SQLite (store-sqlite.server.test.ts)
 * and PostgreSQL (store-postgres.server.test.ts).
 */

const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

export function runProofsOfWorkContract(
  label: string,
  makeHarness: () => Promise<StoreHarness>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`Spent proofs of work in the store: ${label}`, () => {
    let store: AppStore;
    const open = openStorePerTest(makeHarness, (first) => {
      store = first;
    });

    it('spends a challenge once: the second time is a replay', async () => {
      expect(await store.spendProofOfWork('challenge-a', inMinutes(20))).toBe(true);
      expect(await store.spendProofOfWork('challenge-a', inMinutes(20))).toBe(false);
      expect(await store.spendProofOfWork('challenge-b', inMinutes(20))).toBe(true);
      // Another store on the same data knows it too.
      const other = await open();
      expect(await other.spendProofOfWork('challenge-a', inMinutes(20))).toBe(false);
    });

    it('of two stores spending the same challenge at once, exactly one gets it', async () => {
      const other = await open();
      const spent = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          (index % 2 === 0 ? store : other).spendProofOfWork('raced', inMinutes(20)),
        ),
      );
      expect(spent.filter(Boolean)).toHaveLength(1);
    });

    it('keeps a spent challenge until it expires, then forgets it', async () => {
      await store.spendProofOfWork('expired', inMinutes(-1));
      await store.spendProofOfWork('current', inMinutes(20));
      expect(await store.purgeSpentProofsOfWork()).toBe(1);
      expect(await store.purgeSpentProofsOfWork()).toBe(0);
      expect(await store.spendProofOfWork('current', inMinutes(20))).toBe(false);
    });
  });
}

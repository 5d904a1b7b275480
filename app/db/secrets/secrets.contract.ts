import { describe, expect, it } from 'vitest';
import type { AppStore } from '../store.server.ts';
import { makeLead } from '../leads/leads.contract.ts';
import { openStorePerTest, type StoreHarness } from '../store.contract.ts';

/**
 * The behaviour every store must have for its own secrets
 * (secrets.server.ts), run against SQLite (store-sqlite.server.test.ts) and
 * PostgreSQL (store-postgres.server.test.ts).
 */

export function runSecretsContract(
  label: string,
  makeHarness: () => Promise<StoreHarness>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`Secrets in the store: ${label}`, () => {
    let store: AppStore;
    const open = openStorePerTest(makeHarness, (first) => {
      store = first;
    });

    it('makes a secret once: every store on the same data gets the same 32 random bytes', async () => {
      const other = await open();
      // Two stores asking at once, before it exists, agree.
      const [first, second] = await Promise.all([
        store.getOrCreateSecret('photo-links'),
        other.getOrCreateSecret('photo-links'),
      ]);
      expect(first).toBeInstanceOf(Uint8Array);
      expect(first).toHaveLength(32);
      expect(Buffer.from(second)).toEqual(Buffer.from(first));
      expect(Buffer.from(first).equals(Buffer.alloc(32))).toBe(false);
      // And later, from a store opened afterwards.
      const later = await open();
      expect(Buffer.from(await later.getOrCreateSecret('photo-links'))).toEqual(Buffer.from(first));
      // Deleting leads leaves it.
      const lead = makeLead();
      await store.insertLead(lead, []);
      await store.deleteLeads([lead.id]);
      expect(Buffer.from(await store.getOrCreateSecret('photo-links'))).toEqual(Buffer.from(first));
      // Another store's secret is its own.
      const another = await makeHarness();
      const elsewhere = await another.open();
      try {
        expect(Buffer.from(await elsewhere.getOrCreateSecret('photo-links'))).not.toEqual(
          Buffer.from(first),
        );
      } finally {
        await elsewhere.close();
        await another.cleanup();
      }
    });
  });
}

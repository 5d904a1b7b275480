import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AppStore } from '../store.server.ts';
import { makeLead } from '../leads/leads.contract.ts';
import { nextTime, openStorePerTest, type StoreHarness } from '../store.contract.ts';

/**
 * The behaviour every store must have for the activity list
 * (activity.server.ts), run against SQLite (store-sqlite.server.test.ts) and
 * PostgreSQL (store-postgres.server.test.ts).
 */

export function runActivityContract(
  label: string,
  makeHarness: () => Promise<StoreHarness>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`Activity in the store: ${label}`, () => {
    let store: AppStore;
    openStorePerTest(makeHarness, (first) => {
      store = first;
    });

    it('keeps an activity list, newest first, that refuses personal data', async () => {
      const lead = makeLead();
      const first = { at: nextTime(), actor: 'cli', action: 'owner.added', detail: randomUUID() };
      const second = {
        at: nextTime(),
        actor: 'ana@glass.example.nz',
        action: 'leads.deleted',
        detail: 'count=3',
      };
      const third = {
        at: nextTime(),
        actor: 'ana@glass.example.nz',
        action: 'lead.stage',
        detail: `${lead.id}:won`,
      };
      for (const entry of [first, second, third]) await store.recordActivity(entry);
      const listed = await store.listActivity();
      expect(listed.map(({ id: _id, ...entry }) => entry)).toEqual([third, second, first]);
      expect((await store.listActivity({ limit: 1, offset: 1 })).map((e) => e.action)).toEqual([
        'leads.deleted',
      ]);
      // A person's address, name or words cannot be written there.
      for (const detail of [lead.email, lead.name, lead.phone, 'a'.repeat(201)]) {
        await expect(store.recordActivity({ ...second, at: nextTime(), detail })).rejects.toThrow(
          /detail/,
        );
      }
      await expect(store.recordActivity({ ...second, action: 'Deleted Mere' })).rejects.toThrow(
        /action/,
      );
      expect(await store.listActivity()).toHaveLength(3);
    });
  });
}

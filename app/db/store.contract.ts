import { afterEach, beforeEach } from 'vitest';
import type { AppStore } from './store.server.ts';
import type { StoreHarness } from '../leads/testing/test-support.server.ts';

export type { StoreHarness };

/**
 * What the store's contract suites share. Each domain has its own suite
 * beside its SQLite and PostgreSQL halves (leads/leads.contract.ts,
 * owners/owners.contract.ts…), and every suite runs against both engines
 * (store-sqlite.server.test.ts, store-postgres.server.test.ts).
 */

let clock = Date.parse('2025-03-01T00:00:00.000Z');
/** Distinct, increasing creation times, so ordering assertions are exact. */
export function nextTime(): string {
  clock += 1000;
  return new Date(clock).toISOString();
}

export const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Gives every test of the enclosing describe block a fresh harness and a
 * store opened on it (handed to `opened`), and closes every store the test
 * opened, then removes the harness's data, after it. Returns `open`, which
 * opens one more store on the same data.
 */
export function openStorePerTest(
  makeHarness: () => Promise<StoreHarness>,
  opened: (store: AppStore) => void | Promise<void>,
): () => Promise<AppStore> {
  let harness: StoreHarness;
  let instances: AppStore[];

  const open = async () => {
    const instance = await harness.open();
    instances.push(instance);
    return instance;
  };

  beforeEach(async () => {
    harness = await makeHarness();
    instances = [];
    await opened(await open());
  });

  afterEach(async () => {
    for (const instance of instances) await instance.close();
    await harness.cleanup();
  });

  return open;
}

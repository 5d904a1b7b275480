import { afterEach, beforeEach, describe } from 'vitest';
import { defaultSiteContent } from '../../content/site-content.ts';
import type { AppStore } from '../../db/store.server.ts';
import { STORE_BACKENDS, type StoreHarness } from '../../leads/testing/test-support.server.ts';
import type { SignedInOwner, SitePublishingControl } from '../context.server.ts';
import { formValuesOf, IDENTITY_FIELDS } from '../site-fields.ts';

/*
 * What the tests of /admin/site's decisions (app/owner/site-*.server.test.ts)
 * share: two owners on a fresh store of each kind, a stand-in publisher, and
 * the forms as the pages fill them.
 */

/** The signed-in owner of the tests, and another; their ids are set on each store. */
export const owner: SignedInOwner = { id: '', email: 'kiri@glass.example.com' };
export const other: SignedInOwner = { id: '', email: 'sam@glass.example.com' };

/**
 * `body`'s tests on each store (embedded, and PostgreSQL when
 * TEST_DATABASE_URL is set), each on a fresh store with both owners added;
 * `use` gets each test's store.
 */
export function onEachStore(title: string, use: (store: AppStore) => void, body: () => void): void {
  for (const backend of STORE_BACKENDS) {
    describe.skipIf(backend.skip)(`${title} (${backend.label})`, () => {
      let harness: StoreHarness;
      let store: AppStore;
      beforeEach(async () => {
        harness = await backend.harness();
        store = await harness.open();
        const now = new Date().toISOString();
        owner.id = (await store.addOwner(owner.email, now)).owner.id;
        other.id = (await store.addOwner(other.email, now)).owner.id;
        use(store);
      });
      afterEach(async () => {
        await store.close();
        await harness.cleanup();
      });
      body();
    });
  }
}

/** A stand-in publisher: counts the asks, serves what the test says. */
export function publisher(): SitePublishingControl & { asked: number } {
  const control = {
    asked: 0,
    publishNow() {
      control.asked += 1;
    },
    servedVersion: () => null,
  };
  return control;
}

/** The identity form as the page fills it, with some fields changed. */
export function identityForm(changes: Record<string, string>, revision: number): URLSearchParams {
  const values = formValuesOf(defaultSiteContent.identity, IDENTITY_FIELDS);
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...values, ...changes })) {
    form.set(name, String(value));
  }
  form.set('revision', String(revision));
  return form;
}

export function offerForm(fields: Record<string, string>, revision: number): URLSearchParams {
  return new URLSearchParams({
    title: 'Winter double glazing',
    discount: '10% off',
    validUntil: '2099-06-30',
    terms: 'Orders over $2,000.',
    ctaText: 'Get a quote',
    ctaLink: '/quote',
    ...fields,
    revision: String(revision),
  });
}

/** The activity list's actions and details, newest first. */
export async function activityActions(store: AppStore): Promise<string[]> {
  return (await store.listActivity({ limit: 50 })).map((row) => `${row.action} ${row.detail}`);
}

import { afterEach, describe, expect, it } from 'vitest';
import { defaultSiteContent, type SiteIdentity } from '../content/site-content.ts';
import { openSqliteStore } from '../db/store-sqlite.server.ts';
import type { AppStore } from '../db/store.server.ts';
import { silentLogger, tempDataDir } from '../leads/testing/test-support.server.ts';
import { createOwnerPagesContext } from './context.server.ts';

/** The owner's pages name the business the site serves now, not the shipped placeholder. */
describe("the owner's pages context", () => {
  let store: AppStore | undefined;
  const data = tempDataDir('owner-context-');
  afterEach(async () => {
    await store?.close();
    data.remove();
  });

  it("gives the passkey's relying party the served business name, read at each use", async () => {
    store = await openSqliteStore({ dataDir: data.dir });
    let served: SiteIdentity = defaultSiteContent.identity;
    const context = createOwnerPagesContext({
      store,
      siteUrl: 'https://www.kowhai-glass.example.nz',
      logger: silentLogger(),
      identity: () => served,
    });
    expect(context.relyingParty).toEqual({
      id: 'www.kowhai-glass.example.nz',
      name: defaultSiteContent.identity.name,
    });
    served = { ...served, name: 'Kōwhai Glass Repairs' };
    expect(context.relyingParty).toEqual({
      id: 'www.kowhai-glass.example.nz',
      name: 'Kōwhai Glass Repairs',
    });
  });
});

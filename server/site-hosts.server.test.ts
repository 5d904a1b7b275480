import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSiteContent, type SiteContent } from '../app/content/site-content.ts';
import { openSqliteStore } from '../app/db/store-sqlite.server.ts';
import type { AppStore } from '../app/db/store.server.ts';
import { captureLogger, tempDataDir } from '../app/leads/testing/test-support.server.ts';
import { siteOverview } from '../app/owner/site-overview.server.ts';
import { parseEnv } from './env.server.ts';
import { createRuntime, type Runtime } from './runtime.server.ts';
import { siteHostName } from './site-hosts.server.ts';

/**
 * Several hosts on one store (docs/operations.md#several-hosts): each
 * records its own build of a version, so one host's failed build is shown
 * as that host's, never rolls the others back, and is retried there.
 */

const withPhone = (display: string): SiteContent => ({
  ...defaultSiteContent,
  identity: { ...defaultSiteContent.identity, phone: { display, e164: '+6475550199' } },
});

describe('site builds on several hosts', () => {
  let data: ReturnType<typeof tempDataDir>;
  let store: AppStore;
  let hosts: Runtime[];

  const host = async (name: string) => {
    const env = parseEnv({ DATA_DIR: data.dir, SITE_HOST_NAME: name });
    const runtime = await createRuntime(env, captureLogger('error').logger, {
      hostName: siteHostName(env, path.join(data.dir, 'build'), path.join(data.dir, 'build')),
    });
    hosts.push(runtime);
    return runtime.sitePublishing!;
  };

  beforeEach(async () => {
    data = tempDataDir('site-hosts-');
    store = await openSqliteStore({ dataDir: data.dir });
    hosts = [];
  });

  afterEach(async () => {
    for (const runtime of hosts) await runtime.close();
    await store.close();
    data.remove();
  });

  it('a build failed on host A is A’s: B serves the version, A retries it, the page shows both', async () => {
    const a = await host('glass-web-1');
    const b = await host('glass-web-2');
    await store.createSiteContentVersion(withPhone('07 555 0101'), null);
    await store.setSiteContentVersionState(1, 'live');
    await store.createSiteContentVersion(withPhone('07 555 0102'), null);
    const now = new Date();
    expect((await a.desired(now))?.version).toBe(2);

    // A's build fails before B's is done.
    await a.onBuildStarting(2);
    await b.onBuildStarting(2);
    await a.onBuilt(2, false, 'ENOSPC: no space left on device');
    // B still builds version 2, and serves it.
    expect((await b.desired(now))?.version).toBe(2);
    await b.onBuilt(2, true, null);
    expect((await b.desired(now))?.version).toBe(2);
    expect((await store.siteContentVersion(2))?.state).toBe('live');
    // A tries version 2 again (after its publisher's back-off), never version 1.
    expect((await a.desired(now))?.version).toBe(2);

    const view = await siteOverview(store, undefined, now);
    expect(view.hosts).toEqual([
      { label: 'Server 1 (glass-web-1)', version: null },
      { label: 'Server 2 (glass-web-2)', version: 2 },
    ]);
    expect(view.state).toMatchObject({
      kind: 'live',
      version: 2,
      failedOn: [{ label: 'Server 1 (glass-web-1)', error: 'ENOSPC: no space left on device' }],
    });
    expect(view.versions[0]).toMatchObject({
      version: 2,
      status: 'live now',
      where: 'live on Server 2 (glass-web-2); did not go live on Server 1 (glass-web-1)',
    });

    // A's retry goes live: both serve it, and the page says so.
    await a.onBuilt(2, true, null);
    const after = await siteOverview(store, undefined, now);
    expect(after.hosts.map((row) => row.version)).toEqual([2, 2]);
    expect(after.state).toMatchObject({ kind: 'live', version: 2, failedOn: [] });
  });

  it('a version failed on every host is passed over; one host reads as today', async () => {
    const a = await host('glass-web-1');
    await store.createSiteContentVersion(withPhone('07 555 0101'), null);
    await store.setSiteContentVersionState(1, 'live');
    await store.createSiteContentVersion(withPhone('07 555 0102'), null);
    await a.onBuildStarting(2);
    await a.onBuilt(2, false, 'astro: out of memory');
    // Not retried in a loop: A goes back to what is live.
    expect((await a.desired(new Date()))?.version).toBe(1);
    const view = await siteOverview(store, undefined);
    expect(view.hosts).toHaveLength(1);
    expect(view.state).toEqual({
      kind: 'failed',
      version: 2,
      error: 'astro: out of memory',
      live: 1,
    });
    expect(view.versions[0]?.where).toBeNull();
  });

  it('a version one host passed over goes live where another built it', async () => {
    const a = await host('glass-web-1');
    const b = await host('glass-web-2');
    for (const phone of ['07 555 0101', '07 555 0102', '07 555 0103']) {
      await store.createSiteContentVersion(withPhone(phone), null);
    }
    await store.setSiteContentVersionState(1, 'live');
    await b.onBuildStarting(2);
    await a.onBuildStarting(3);
    await b.onBuilt(2, true, null);
    expect((await store.siteContentVersion(2))?.state).toBe('live');
    // B goes on to version 3.
    expect((await b.desired(new Date()))?.version).toBe(3);
  });
});

describe('the host name', () => {
  it('is SITE_HOST_NAME, else the machine’s name, with BUILD_DIR when it is not the default', () => {
    const named = parseEnv({ SITE_HOST_NAME: '  glass-web-1 ' });
    expect(named.SITE_HOST_NAME).toBe('glass-web-1');
    expect(siteHostName(named, '/srv/b/build', '/srv/glass-site/build')).toBe('glass-web-1');
    const unnamed = parseEnv({});
    expect(unnamed.SITE_HOST_NAME).toBeUndefined();
    const machine = siteHostName(unnamed, '/srv/glass-site/build', '/srv/glass-site/build');
    expect(machine).toMatch(/^\S+$/);
    expect(siteHostName(unnamed, '/srv/b/build', '/srv/glass-site/build')).toBe(
      `${machine} /srv/b/build`,
    );
    expect(() => parseEnv({ SITE_HOST_NAME: 'x'.repeat(201) })).toThrow(/SITE_HOST_NAME/);
  });
});

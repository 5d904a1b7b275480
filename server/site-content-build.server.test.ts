import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSiteContent, type SiteContent } from '../app/content/site-content.ts';
import { SQLITE_FILE_NAME } from '../app/db/store-sqlite.server.ts';
import type { AppStore } from '../app/db/store.server.ts';
import { tempDataDir } from '../app/leads/testing/test-support.server.ts';
import {
  contentForBuild,
  desiredSiteBuild,
  fallbackContent,
  openStoreForBuild,
  requestedVersion,
  siteBuildToPublish,
  writeContentFiles,
} from './site-content-build.server.ts';

const NOW = new Date('2026-04-01T00:00:00Z');

const published: SiteContent = {
  ...defaultSiteContent,
  identity: { ...defaultSiteContent.identity, name: 'Kōwhai Glass' },
  offers: [
    {
      id: 1,
      title: 'Autumn Double Glazing',
      discount: '$150 off',
      validUntil: '2026-04-30',
      terms: 'Orders over $2,000.',
      ctaText: 'Get a Quote',
      ctaLink: '/quote',
    },
  ],
  notice: { text: 'Closed Easter Monday.', startsOn: '2026-04-06', endsOn: '2026-04-06' },
};

describe('the content a build is made from', () => {
  let data: ReturnType<typeof tempDataDir>;
  let store: AppStore | null;

  beforeEach(() => {
    data = tempDataDir('site-build-');
    store = null;
  });

  afterEach(async () => {
    await store?.close();
    data.remove();
  });

  it('is the defaults, version 0, while there is no store, and the build creates none', async () => {
    expect(await openStoreForBuild({ DATA_DIR: data.dir })).toBeNull();
    expect(existsSync(path.join(data.dir, SQLITE_FILE_NAME))).toBe(false);
    expect(await desiredSiteBuild(null, NOW)).toEqual({ version: 0, key: 'v0' });
    const built = await contentForBuild(null, undefined, NOW);
    expect(built).toMatchObject({ version: 0, key: 'v0', content: defaultSiteContent });
  });

  it('is the newest live version, as visible at the time, with its key; or the version asked for', async () => {
    const { openSqliteStore } = await import('../app/db/store-sqlite.server.ts');
    await (await openSqliteStore({ dataDir: data.dir })).close();
    store = await openStoreForBuild({ DATA_DIR: data.dir });
    const one = await store!.createSiteContentVersion(published, null);
    await store!.setSiteContentVersionState(one.version, 'live');
    // A version still being published (or failed) is not what the site shows.
    await store!.createSiteContentVersion(defaultSiteContent, null);

    expect(await desiredSiteBuild(store, NOW)).toEqual({ version: 1, key: 'v1' });
    // Easter Monday in New Zealand: the notice shows, and the key says so.
    const easter = new Date('2026-04-05T12:00:00Z');
    expect(await desiredSiteBuild(store, easter)).toEqual({ version: 1, key: 'v1-notice' });
    const built = await contentForBuild(store, undefined, easter);
    expect(built.version).toBe(1);
    expect(built.content.notice).toEqual(published.notice);
    expect((await contentForBuild(store, undefined, NOW)).content.notice).toBeNull();
    // After the offer's last day it is left out.
    const may = new Date('2026-05-01T00:00:00Z');
    expect(await contentForBuild(store, undefined, may)).toMatchObject({
      key: 'v1-ended.1',
      content: { offers: [] },
    });

    expect((await contentForBuild(store, 2, NOW)).version).toBe(2);
    expect((await contentForBuild(store, 0, NOW)).content).toEqual(defaultSiteContent);
    await expect(contentForBuild(store, 9, NOW)).rejects.toThrow(
      'Site content version 9 does not exist',
    );
    expect(() => requestedVersion('latest')).toThrow(/SITE_CONTENT_VERSION must be a version/);
    expect(requestedVersion(' ')).toBeUndefined();
    expect(requestedVersion('3')).toBe(3);
  });

  it('refuses content the schema refuses, with the reason', async () => {
    const { openSqliteStore } = await import('../app/db/store-sqlite.server.ts');
    await (await openSqliteStore({ dataDir: data.dir })).close();
    // Stored by something other than the store's own checks (an older release, a hand edit).
    const db = new DatabaseSync(path.join(data.dir, SQLITE_FILE_NAME));
    db.prepare(
      `INSERT INTO site_content_versions (content, created_at, state) VALUES (?, ?, 'live')`,
    ).run(
      JSON.stringify({ ...published, notice: { text: '<b>Sale</b>' } }),
      new Date().toISOString(),
    );
    db.close();
    store = await openStoreForBuild({ DATA_DIR: data.dir });
    await expect(contentForBuild(store, undefined, NOW)).rejects.toThrow(
      /^Site content version 1 is not valid:\nnotice\.text: Notice: plain words only/,
    );
  });

  it('writes the content file and the job photos it names', async () => {
    const { openSqliteStore } = await import('../app/db/store-sqlite.server.ts');
    store = await openSqliteStore({ dataDir: data.dir });
    const jpeg = await sharp({
      create: { width: 40, height: 30, channels: 3, background: '#136a83' },
    })
      .jpeg()
      .toBuffer();
    const photo = await store.addSitePhoto({
      bytes: new Uint8Array(jpeg),
      width: 40,
      height: 30,
      ownerId: null,
    });
    const content: SiteContent = {
      ...published,
      jobPhotos: [{ photoId: photo.id, service: 'windows', alt: 'A new lounge window' }],
    };
    const out = mkdtempSync(path.join(tmpdir(), 'site-build-out-'));
    try {
      const file = await writeContentFiles(out, { version: 4, key: 'v4', content }, store);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 4, key: 'v4', content });
      expect(readFileSync(path.join(out, 'photos', `${photo.id}.jpg`))).toEqual(jpeg);
      const missing = {
        ...content,
        jobPhotos: [{ ...content.jobPhotos[0]!, photoId: crypto.randomUUID() }],
      };
      await expect(
        writeContentFiles(out, { version: 5, key: 'v5', content: missing }, store),
      ).rejects.toThrow(/names a job photo that is not stored/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('is, when the store cannot be read, the content of the release served, photos and all', async () => {
    const { createRelease, publishRelease } = await import('./build-releases.ts');
    const buildDir = path.join(data.dir, 'build');
    const out = path.join(data.dir, 'out');
    // No release yet: the shipped defaults.
    mkdirSync(out);
    const none = await fallbackContent(buildDir, out, NOW);
    expect(none.release).toBeUndefined();
    expect(none.built).toMatchObject({ version: 0, key: 'v0', content: defaultSiteContent });
    expect(JSON.parse(readFileSync(none.file, 'utf8'))).toEqual(none.built);

    // A release built from version 7, with a job photo.
    const release = createRelease(buildDir);
    const photoId = crypto.randomUUID();
    const content: SiteContent = {
      ...published,
      jobPhotos: [{ photoId, service: 'windows', alt: 'A new lounge window' }],
    };
    mkdirSync(path.join(release, 'content/photos'), { recursive: true });
    writeFileSync(
      path.join(release, 'content/site-content.json'),
      JSON.stringify({ version: 7, key: 'v7-key', content }),
    );
    writeFileSync(path.join(release, `content/photos/${photoId}.jpg`), 'the photo');
    publishRelease(buildDir, release);
    const again = path.join(data.dir, 'again');
    mkdirSync(again);
    const served = await fallbackContent(buildDir, again, NOW);
    expect(served.release).toBe(realpathSync(release));
    // Its version and key: the publisher builds again when the store says otherwise.
    expect(served.built).toEqual({ version: 7, key: 'v7-key', content });
    expect(JSON.parse(readFileSync(served.file, 'utf8'))).toEqual(served.built);
    expect(readFileSync(path.join(again, `photos/${photoId}.jpg`), 'utf8')).toBe('the photo');
  });
});

describe('what the publisher serves', () => {
  it('is a version just published, while it is the newest; a failed one is passed over', async () => {
    const data = tempDataDir('site-publish-');
    const { openSqliteStore } = await import('../app/db/store-sqlite.server.ts');
    const store = await openSqliteStore({ dataDir: data.dir });
    try {
      expect(await siteBuildToPublish(store, NOW)).toEqual({ version: 0, key: 'v0' });
      const one = await store.createSiteContentVersion(published, null);
      expect(await siteBuildToPublish(store, NOW)).toEqual({ version: one.version, key: 'v1' });
      await store.setSiteContentVersionState(one.version, 'live');
      const two = await store.createSiteContentVersion(published, null);
      expect(await siteBuildToPublish(store, NOW)).toEqual({ version: two.version, key: 'v2' });
      await store.setSiteContentVersionState(two.version, 'failed', 'the build failed');
      expect(await siteBuildToPublish(store, NOW)).toEqual({ version: one.version, key: 'v1' });
    } finally {
      await store.close();
      data.remove();
    }
  });
});

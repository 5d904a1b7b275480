import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSiteContent } from '../content/site-content.ts';
import { SQLITE_FILE_NAME, openSqliteStore } from '../db/store-sqlite.server.ts';
import type { AppStore } from '../db/store.server.ts';
import { tempDataDir } from '../leads/testing/test-support.server.ts';
import { saveIdentity, saveNotice } from './site-drafts.server.ts';
import { siteOverview } from './site-overview.server.ts';
import {
  publishAfterSave,
  publishDraft,
  publishReturnPath,
  restoreVersion,
} from './site-publishing.server.ts';
import { contentProblemHref } from './site-sections.server.ts';
import {
  activityActions,
  identityForm,
  onEachStore,
  owner,
  publisher,
} from './testing/site-test-support.server.ts';

let store: AppStore;

onEachStore(
  "/admin/site's publishing",
  (opened) => (store = opened),
  () => {
    describe('publishing and restoring', () => {
      it('publishes the draft as a new version and asks the publisher to build now', async () => {
        const control = publisher();
        await saveIdentity(
          store,
          owner,
          identityForm({ 'phone.display': '07 578 2468', 'phone.e164': '+6475782468' }, 0),
        );
        let view = await siteOverview(store, control);
        expect(view.differs).toMatchObject({ identity: true, offers: false, notice: false });
        expect(view.changes.pages[0]).toMatch(/^Business details: every page/);
        expect(view.state).toEqual({ kind: 'defaults' });

        expect(await publishDraft(store, owner, control)).toEqual({
          kind: 'published',
          version: 1,
        });
        expect(control.asked).toBe(1);
        const version = await store.siteContentVersion(1);
        expect(version).toMatchObject({ state: 'publishing', created_by: owner.id });
        expect(version!.content.identity.phone.display).toBe('07 578 2468');
        view = await siteOverview(store, control);
        expect(view.state).toMatchObject({ kind: 'building', version: 1 });

        await store.setSiteContentVersionState(1, 'live');
        view = await siteOverview(store, control);
        expect(view.state).toMatchObject({ kind: 'live', version: 1 });
        expect(view.differs.identity).toBe(false);
        expect(view.versions[0]).toMatchObject({ version: 1, by: owner.email, current: true });

        // A failed build: visitors keep version 1, and the page says why.
        await saveNotice(
          store,
          owner,
          new URLSearchParams({ text: 'Closed Monday', revision: '0' }),
        );
        await publishDraft(store, owner, control);
        await store.setSiteContentVersionState(2, 'failed', 'astro: out of memory');
        view = await siteOverview(store, control);
        expect(view.state).toEqual({
          kind: 'failed',
          version: 2,
          error: 'astro: out of memory',
          live: 1,
        });
        expect(await activityActions(store)).toEqual(
          expect.arrayContaining(['site.published version=1', 'site.published version=2']),
        );
      });

      it('says in words what became of each version, one replaced before its build too', async () => {
        // Four publishes in a row: 1 was built, then 4; 2 and 3 never were.
        for (let i = 0; i < 4; i += 1) {
          await store.createSiteContentVersion(defaultSiteContent, owner.id);
        }
        await store.setSiteContentVersionState(1, 'live');
        await store.supersedeSiteContentVersions(4);
        let view = await siteOverview(store, publisher());
        expect(view.versions.map((row) => [row.version, row.status])).toEqual([
          [4, 'publishing'],
          [3, 'replaced by a later version before it went live'],
          [2, 'replaced by a later version before it went live'],
          [1, 'live now'],
        ]);
        expect(view.state).toMatchObject({ kind: 'building', version: 4 });
        await store.setSiteContentVersionState(4, 'failed', 'astro: out of memory');
        await store.createSiteContentVersion(defaultSiteContent, owner.id);
        await store.setSiteContentVersionState(5, 'live');
        view = await siteOverview(store, publisher());
        expect(view.versions.map((row) => row.status).slice(0, 2)).toEqual([
          'live now',
          'did not go live',
        ]);
        expect(view.versions.at(-1)?.status).toBe('was live');
      });

      it('refuses a draft naming a job photo the store does not have, and publishes nothing', async () => {
        const control = publisher();
        const photoId = '3f1b8f5e-8f0a-4c55-9a51-6f1f2f0b7c11';
        await store.saveSiteContentSection(
          'jobPhotos',
          [{ photoId, service: 'windows', alt: 'A window we fitted' }],
          0,
          owner.id,
        );
        const outcome = await publishDraft(store, owner, control);
        expect(outcome).toEqual({
          kind: 'refused',
          problems: [
            {
              path: ['jobPhotos', 0, 'photoId'],
              message: 'Job photo 1: its file is not stored; remove it and upload it again',
            },
          ],
        });
        expect(control.asked).toBe(0);
        expect(await store.listSiteContentVersions(10)).toEqual([]);
        expect(await activityActions(store)).toContain('site.publish.refused problems=1');
      });

      it('a second Publish of the same draft makes no second version', async () => {
        const control = publisher();
        await saveNotice(
          store,
          owner,
          new URLSearchParams({ text: 'Closed Monday', revision: '0' }),
        );
        expect(await publishDraft(store, owner, control)).toEqual({
          kind: 'published',
          version: 1,
        });
        // Tapped again while it builds, then once it is live: the same version.
        expect(await publishDraft(store, owner, control)).toEqual({
          kind: 'published',
          version: 1,
        });
        await store.setSiteContentVersionState(1, 'live');
        expect(await publishDraft(store, owner, control)).toEqual({
          kind: 'published',
          version: 1,
        });
        expect((await store.listSiteContentVersions(10)).map((row) => row.version)).toEqual([1]);
        expect(
          (await activityActions(store)).filter((line) => line.startsWith('site.published')),
        ).toEqual(['site.published version=1']);
      });

      it('after a save, publishes only when asked, and comes back to a page of the site only', async () => {
        const control = publisher();
        await saveNotice(
          store,
          owner,
          new URLSearchParams({ text: 'Closed Monday', revision: '0' }),
        );
        expect(
          await publishAfterSave(store, owner, control, null, '/admin/site/notice?saved=1'),
        ).toBe('/admin/site/notice?saved=1');
        expect(control.asked).toBe(0);
        expect(
          await publishAfterSave(store, owner, control, 'publish', '/admin/site/notice?saved=1'),
        ).toBe('/admin/site/notice?saved=1&published=1');
        expect(control.asked).toBe(1);
        expect(publishReturnPath('/admin/site/offers/3')).toBe('/admin/site/offers/3');
        expect(publishReturnPath('/admin/site/photos')).toBe('/admin/site/photos');
        for (const elsewhere of [
          '//evil.example',
          'https://evil.example/admin/site',
          '/admin',
          null,
        ])
          expect(publishReturnPath(elsewhere)).toBe('/admin/site');
      });

      it('restores an earlier live version as a new one, and makes it the draft', async () => {
        const control = publisher();
        await saveIdentity(store, owner, identityForm({ 'phone.display': '07 311 1111' }, 0));
        await publishDraft(store, owner, control);
        await store.setSiteContentVersionState(1, 'live');
        await saveIdentity(store, owner, identityForm({ 'phone.display': '07 322 2222' }, 1));
        await publishDraft(store, owner, control);
        await store.setSiteContentVersionState(2, 'live');

        expect(await restoreVersion(store, owner, control, 1)).toEqual({
          kind: 'restored',
          version: 3,
          from: 1,
        });
        expect(control.asked).toBe(3);
        expect(await store.siteContentVersion(3)).toMatchObject({
          restored_from: 1,
          state: 'publishing',
        });
        expect((await store.siteContentDraft()).identity.content.phone.display).toBe('07 311 1111');
        expect(await activityActions(store)).toContain('site.restored version=3,from=1');

        await store.setSiteContentVersionState(3, 'failed', 'no');
        expect(await restoreVersion(store, owner, control, 3)).toMatchObject({ kind: 'refused' });
        expect(await restoreVersion(store, owner, control, 99)).toMatchObject({ kind: 'refused' });
      });
    });
  },
);

describe('a draft saved under an older schema (SQLite)', () => {
  let dir: ReturnType<typeof tempDataDir>;
  beforeEach(async () => {
    dir = tempDataDir('site-admin-');
    store = await openSqliteStore({ dataDir: dir.dir });
    owner.id = (await store.addOwner(owner.email, new Date().toISOString())).owner.id;
  });
  afterEach(async () => {
    await store.close();
    dir.remove();
  });

  it('refuses a draft the schema refuses, with the reasons, and publishes nothing', async () => {
    const control = publisher();
    await saveNotice(store, owner, new URLSearchParams({ text: 'Closed Monday', revision: '0' }));
    // A draft row saved under an older schema, as the store holds it.
    const db = new DatabaseSync(path.join(dir.dir, SQLITE_FILE_NAME));
    db.prepare("UPDATE site_content_draft SET content = ? WHERE section = 'notice'").run(
      JSON.stringify({ text: 'Closed <b>Monday</b>' }),
    );
    db.close();
    const outcome = await publishDraft(store, owner, control);
    expect(outcome.kind).toBe('refused');
    if (outcome.kind !== 'refused') return;
    expect(outcome.problems[0]).toMatchObject({ path: ['notice', 'text'] });
    expect(outcome.problems[0]!.message).toMatch(/^Notice: plain words only/);
    expect(contentProblemHref(outcome.problems[0]!, defaultSiteContent)).toBe(
      '/admin/site/notice#f-text',
    );
    expect(control.asked).toBe(0);
    expect(await store.listSiteContentVersions(10)).toEqual([]);
    expect(await activityActions(store)).toContain('site.publish.refused problems=1');
  });
});

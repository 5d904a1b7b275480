import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { defaultSiteContent, type SiteContent } from '../../content/site-content.ts';
import { SiteContentError } from './site-content.server.ts';
import type { AppStore } from '../store.server.ts';
import { openStorePerTest, type StoreHarness } from '../store.contract.ts';

/**
 * The behaviour every store must have for the site's content and its job
 * photos (site-content.server.ts), run against SQLite
 * (store-sqlite.server.test.ts) and PostgreSQL (store-postgres.server.test.ts).
 */

const notice = (text: string): SiteContent['notice'] => ({ text });

const withName = (name: string): SiteContent => ({
  ...defaultSiteContent,
  identity: { ...defaultSiteContent.identity, name },
});

export function runSiteContentContract(
  label: string,
  makeHarness: () => Promise<StoreHarness>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`Site content in the store: ${label}`, () => {
    let store: AppStore;
    let ownerId: string;
    const open = openStorePerTest(makeHarness, async (first) => {
      store = first;
      ownerId = (await store.addOwner('ana@kowhaiglass.co.nz', new Date().toISOString())).owner.id;
    });

    it('reads the defaults as the draft and has no version before anything is published', async () => {
      const draft = await store.siteContentDraft();
      expect(draft.identity).toEqual({
        content: defaultSiteContent.identity,
        revision: 0,
        updated_at: null,
        updated_by: null,
      });
      expect(draft.notice.content).toBeNull();
      expect(draft.offers.content).toEqual(defaultSiteContent.offers);
      expect(await store.newestLiveSiteContent()).toBeNull();
      expect(await store.listSiteContentVersions(10)).toEqual([]);
      expect(await store.siteContentVersion(1)).toBeNull();
    });

    it('saves a section on its revision, and refuses a save on an older one', async () => {
      const first = await store.saveSiteContentSection(
        'notice',
        notice('Closed for Anzac Day.'),
        0,
        ownerId,
      );
      expect(first).toEqual({
        saved: true,
        section: {
          content: { text: 'Closed for Anzac Day.' },
          revision: 1,
          updated_at: expect.any(String),
          updated_by: ownerId,
        },
      });
      const second = await store.saveSiteContentSection(
        'notice',
        notice('Closed 25 April.'),
        1,
        ownerId,
      );
      expect(second.saved && second.section.revision).toBe(2);

      // Saved on revision 1 (or as a first save) after the save above: nothing changes.
      for (const stale of [0, 1]) {
        const refused = await store.saveSiteContentSection(
          'notice',
          notice('Open as usual.'),
          stale,
          null,
        );
        expect(refused).toEqual({
          saved: false,
          reason: 'conflict',
          current: expect.objectContaining({ content: { text: 'Closed 25 April.' }, revision: 2 }),
        });
      }
      const draft = await store.siteContentDraft();
      expect(draft.notice).toMatchObject({ content: { text: 'Closed 25 April.' }, revision: 2 });
      // The other sections are still the defaults, never saved.
      expect(draft.identity.revision).toBe(0);
      // Saving null (no notice) is a save like any other.
      const cleared = await store.saveSiteContentSection('notice', null, 2, ownerId);
      expect(cleared.saved && cleared.section).toMatchObject({ content: null, revision: 3 });
    });

    it('of two first saves of one section at once, from two instances, one is saved', async () => {
      const other = await open();
      const results = await Promise.all([
        store.saveSiteContentSection('notice', notice('From the office.'), 0, ownerId),
        other.saveSiteContentSection('notice', notice('From the van.'), 0, ownerId),
      ]);
      expect(results.filter((result) => result.saved)).toHaveLength(1);
      const loser = results.find((result) => !result.saved);
      const winner = results.find((result) => result.saved);
      expect(loser?.saved === false && loser.current).toEqual(
        winner?.saved === true ? winner.section : undefined,
      );
    });

    it('checks a section with its schema and stores nothing it refuses', async () => {
      const error = await store
        .saveSiteContentSection('notice', notice('<script>alert(1)</script>'), 0, ownerId)
        .catch((problem: unknown) => problem);
      expect(error).toBeInstanceOf(SiteContentError);
      expect((error as SiteContentError).problems).toEqual([
        { path: ['notice', 'text'], message: expect.stringMatching(/^Notice: plain words only/) },
      ]);
      await expect(
        store.saveSiteContentSection(
          'offers',
          [{ ...defaultSiteContent.offers[0]!, validUntil: '31/12/2026' }],
          0,
          ownerId,
        ),
      ).rejects.toThrow(/offers\.0\.validUntil: Valid until/);
      expect((await store.siteContentDraft()).notice.revision).toBe(0);
      await expect(
        store.createSiteContentVersion({ ...defaultSiteContent, jobPhotos: [{}] } as never, null),
      ).rejects.toBeInstanceOf(SiteContentError);
      expect(await store.listSiteContentVersions(10)).toEqual([]);
    });

    it('numbers versions, publishes them, and reads the newest live one', async () => {
      const one = await store.createSiteContentVersion(withName('Kōwhai Glass'), ownerId);
      expect(one).toEqual({
        version: 1,
        content: withName('Kōwhai Glass'),
        created_at: expect.any(String),
        created_by: ownerId,
        restored_from: null,
        state: 'publishing',
        error: null,
        live_at: null,
      });
      expect(await store.newestLiveSiteContent()).toBeNull();
      expect(await store.setSiteContentVersionState(1, 'live')).toBe(true);
      // Only a version being published changes state.
      expect(await store.setSiteContentVersionState(1, 'failed', 'late')).toBe(false);
      expect(await store.setSiteContentVersionState(99, 'live')).toBe(false);

      const two = await store.createSiteContentVersion(withName('Kōwhai Glass Ltd'), null);
      expect(two.version).toBe(2);
      expect(await store.setSiteContentVersionState(2, 'failed', 'Astro: the build stopped')).toBe(
        true,
      );
      const live = await store.newestLiveSiteContent();
      expect(live).toMatchObject({ version: 1, state: 'live', live_at: expect.any(String) });
      expect(live?.content.identity.name).toBe('Kōwhai Glass');
      expect(await store.siteContentVersion(2)).toMatchObject({
        state: 'failed',
        error: 'Astro: the build stopped',
        live_at: null,
      });

      // A section never saved reads as the newest live content's.
      expect((await store.siteContentDraft()).identity).toMatchObject({
        content: { name: 'Kōwhai Glass' },
        revision: 0,
      });

      // Restoring version 1 is a new version saying so.
      const three = await store.createSiteContentVersion(one.content, ownerId, 1);
      expect(three).toMatchObject({ version: 3, restored_from: 1, state: 'publishing' });
      await store.setSiteContentVersionState(3, 'live');
      expect((await store.newestLiveSiteContent())?.version).toBe(3);
      expect(
        (await store.listSiteContentVersions(2)).map((version) => [version.version, version.state]),
      ).toEqual([
        [3, 'live'],
        [2, 'failed'],
      ]);
      expect(await store.siteContentVersion(-1)).toBeNull();
    });

    it('keeps every version across close and reopen, shared by every instance', async () => {
      const other = await open();
      await store.createSiteContentVersion(withName('Kōwhai Glass'), ownerId);
      await other.setSiteContentVersionState(1, 'live');
      await store.close();
      const reopened = await open();
      expect((await reopened.newestLiveSiteContent())?.content).toEqual(withName('Kōwhai Glass'));
    });

    it('marks the versions still publishing below a version being built as superseded', async () => {
      // Five publishes in a row: 1 is built, then 5; 2 to 4 will never be.
      for (const name of ['One', 'Two', 'Three', 'Four', 'Five']) {
        await store.createSiteContentVersion(withName(`${name} Glass`), ownerId);
      }
      await store.setSiteContentVersionState(1, 'live');
      expect(await store.supersedeSiteContentVersions(5)).toEqual([2, 3, 4]);
      // Once only; 5 itself and the live one are left as they are.
      expect(await store.supersedeSiteContentVersions(5)).toEqual([]);
      expect(
        (await store.listSiteContentVersions(5)).map((version) => [version.version, version.state]),
      ).toEqual([
        [5, 'publishing'],
        [4, 'superseded'],
        [3, 'superseded'],
        [2, 'superseded'],
        [1, 'live'],
      ]);
      // A superseded version's build never decides its state afterwards.
      expect(await store.setSiteContentVersionState(3, 'live')).toBe(false);
      expect(await store.setSiteContentVersionState(5, 'live')).toBe(true);
      expect((await store.newestLiveSiteContent())?.version).toBe(5);
      expect(await store.supersedeSiteContentVersions(-1)).toEqual([]);
    });

    it('keeps each host’s build of a version apart: a failure on one never fails the others', async () => {
      await store.createSiteContentVersion(withName('One Glass'), ownerId);
      await store.setSiteContentVersionState(1, 'live');
      await store.createSiteContentVersion(withName('Two Glass'), ownerId);
      // Host A's build fails first: the version is failed, on A only.
      expect(await store.recordSiteBuild(2, 'glass-web-a', 'failed', 'ENOSPC: disk full')).toBe(
        true,
      );
      expect(await store.siteContentVersion(2)).toMatchObject({
        state: 'failed',
        error: 'ENOSPC: disk full',
      });
      // Host B builds it: live there, so live; A's failure stays A's.
      expect(await store.recordSiteBuild(2, 'glass-web-b', 'live')).toBe(true);
      expect(await store.siteContentVersion(2)).toMatchObject({
        state: 'live',
        live_at: expect.any(String),
      });
      expect((await store.newestLiveSiteContent())?.version).toBe(2);
      // A later failure on A never undoes B's live build.
      expect(await store.recordSiteBuild(2, 'glass-web-a', 'failed', 'again')).toBe(false);
      expect((await store.siteContentVersion(2))?.state).toBe('live');
      const builds = (await store.listSiteBuilds(1)).map(({ version, host, state, error }) => ({
        version,
        host,
        state,
        error,
      }));
      expect(builds).toEqual([
        { version: 2, host: 'glass-web-a', state: 'failed', error: 'again' },
        { version: 2, host: 'glass-web-b', state: 'live', error: null },
      ]);
      expect(await store.siteHostsServing()).toEqual([
        { host: 'glass-web-b', version: 2, at: expect.any(String) },
      ]);
      // A's retry goes live: a live build on a host is never failed again by a rebuild.
      expect(await store.recordSiteBuild(2, 'glass-web-a', 'live')).toBe(false);
      expect(await store.recordSiteBuild(2, 'glass-web-a', 'failed', 'a rebuild')).toBe(false);
      expect((await store.siteHostsServing()).map(({ host, version }) => [host, version])).toEqual([
        ['glass-web-a', 2],
        ['glass-web-b', 2],
      ]);
      // No such version: nothing recorded.
      expect(await store.recordSiteBuild(99, 'glass-web-a', 'live')).toBe(false);
      expect(await store.listSiteBuilds(3)).toEqual([]);
    });

    it('a version one host passed over still goes live where another built it', async () => {
      for (const name of ['One', 'Two', 'Three']) {
        await store.createSiteContentVersion(withName(`${name} Glass`), ownerId);
      }
      await store.setSiteContentVersionState(1, 'live');
      // Host B is building 2 when host A starts on 3: 2 is superseded on A.
      expect(await store.supersedeSiteContentVersions(3, 'glass-web-a')).toEqual([2]);
      expect((await store.siteContentVersion(2))?.state).toBe('superseded');
      expect(await store.recordSiteBuild(2, 'glass-web-b', 'live')).toBe(true);
      expect((await store.siteContentVersion(2))?.state).toBe('live');
      expect(
        (await store.listSiteBuilds(2)).map(({ version, host, state }) => [version, host, state]),
      ).toEqual([
        [2, 'glass-web-a', 'superseded'],
        [2, 'glass-web-b', 'live'],
      ]);
    });

    it('erases the reviews of deleted enquiries from the draft and from every version', async () => {
      const erased = randomUUID();
      const kept = randomUUID();
      const review = (id: number, leadId?: string) => ({
        id,
        name: 'Tama R.',
        role: 'Homeowner' as const,
        location: 'Bethlehem',
        rating: 2 as const,
        review: 'Slow to reply, but the glass fits.',
        permission: true,
        ...(leadId ? { leadId } : {}),
      });
      const withReviews = (...testimonials: SiteContent['testimonials']): SiteContent => ({
        ...defaultSiteContent,
        testimonials,
      });
      await store.createSiteContentVersion(withReviews(review(1, erased)), ownerId);
      await store.createSiteContentVersion(withReviews(review(1, erased), review(2, kept)), null);
      await store.createSiteContentVersion(withReviews(review(2, kept), review(3)), null);
      await store.saveSiteContentSection(
        'testimonials',
        [review(3), review(1, erased), review(2, kept)],
        0,
        ownerId,
      );

      expect(await store.removeSiteTestimonialsOfLeads([erased, randomUUID()])).toEqual({
        versions: [1, 2],
        draft: true,
      });
      const versions = await store.listSiteContentVersions(10);
      expect(versions.map((version) => version.content.testimonials.map((t) => t.id))).toEqual([
        [2, 3],
        [2],
        [],
      ]);
      expect(JSON.stringify(versions)).not.toContain(erased);
      // Everything else is as it was, the draft's order too.
      expect(versions[1]!.content.identity).toEqual(defaultSiteContent.identity);
      const draft = (await store.siteContentDraft()).testimonials;
      expect(draft.content).toEqual([review(3), review(2, kept)]);
      expect(draft.revision).toBe(2);

      // Nothing names them any more: nothing changes.
      expect(await store.removeSiteTestimonialsOfLeads([erased])).toEqual({
        versions: [],
        draft: false,
      });
      expect(await store.removeSiteTestimonialsOfLeads([])).toEqual({ versions: [], draft: false });
      expect((await store.siteContentDraft()).testimonials.revision).toBe(2);
    });

    it('stores job photos as JPEG bytes with their size, and nothing else', async () => {
      const jpeg = await sharp({
        create: { width: 64, height: 48, channels: 3, background: '#0b2e3f' },
      })
        .jpeg()
        .toBuffer();
      const info = await store.addSitePhoto({
        bytes: new Uint8Array(jpeg),
        width: 64,
        height: 48,
        ownerId,
      });
      expect(info).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        width: 64,
        height: 48,
        created_at: expect.any(String),
        created_by: ownerId,
      });
      const stored = await store.sitePhoto(info.id);
      expect(stored).toEqual({ ...info, bytes: new Uint8Array(jpeg) });
      expect(stored?.bytes).toBeInstanceOf(Uint8Array);
      expect(await store.sitePhoto(randomUUID())).toBeNull();
      expect(await store.sitePhoto('not-an-id')).toBeNull();

      const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
        .png()
        .toBuffer();
      await expect(
        store.addSitePhoto({ bytes: new Uint8Array(png), width: 4, height: 4, ownerId }),
      ).rejects.toThrow(/JPEG/);
      await expect(
        store.addSitePhoto({ bytes: new Uint8Array(jpeg), width: 0, height: 48, ownerId }),
      ).rejects.toThrow(/width and height/);
    });

    it('deletes a job photo once neither the draft nor any version names it', async () => {
      const jpeg = await sharp({
        create: { width: 8, height: 6, channels: 3, background: '#136a83' },
      })
        .jpeg()
        .toBuffer();
      const add = () =>
        store.addSitePhoto({ bytes: new Uint8Array(jpeg), width: 8, height: 6, ownerId });
      const [published, drafted, removed, unused] = [
        await add(),
        await add(),
        await add(),
        await add(),
      ];
      const jobPhoto = (photoId: string) => ({
        photoId,
        service: 'windows' as const,
        alt: 'A new lounge window',
      });
      // Published once (kept for Restore), then taken out of the draft.
      const { version } = await store.createSiteContentVersion(
        { ...defaultSiteContent, jobPhotos: [jobPhoto(published.id)] },
        ownerId,
      );
      await store.setSiteContentVersionState(version, 'live');
      const first = await store.saveSiteContentSection(
        'jobPhotos',
        [jobPhoto(drafted.id), jobPhoto(removed.id)],
        0,
        ownerId,
      );
      expect(first.saved).toBe(true);
      await store.saveSiteContentSection('jobPhotos', [jobPhoto(drafted.id)], 1, ownerId);

      const all = [published.id, drafted.id, removed.id, unused.id];
      expect((await store.deleteUnusedSitePhotos(all)).sort()).toEqual(
        [removed.id, unused.id].sort(),
      );
      expect(await store.sitePhoto(removed.id)).toBeNull();
      expect(await store.sitePhoto(unused.id)).toBeNull();
      expect(await store.sitePhoto(published.id)).not.toBeNull();
      expect(await store.sitePhoto(drafted.id)).not.toBeNull();
      // Only the photos asked about, and nothing twice.
      expect(await store.deleteUnusedSitePhotos(all)).toEqual([]);
      expect(await store.deleteUnusedSitePhotos(['not-an-id'])).toEqual([]);
      const later = await add();
      expect(await store.deleteUnusedSitePhotos([drafted.id])).toEqual([]);
      expect(await store.sitePhoto(later.id)).not.toBeNull();
    });
  });
}

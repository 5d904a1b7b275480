import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSiteContent } from '../content/site-content.ts';
import type { AppStore } from '../db/store.server.ts';
import { readMultipart } from '../http/body.server.ts';
import {
  JOB_PHOTO_UPLOAD,
  saveJobPhoto,
  uploadJobPhoto,
  jobPhotoUploadRefusal,
  JOB_PHOTO_MESSAGES,
} from './site-photos.server.ts';
import { activityActions, onEachStore, owner } from './testing/site-test-support.server.ts';

let store: AppStore;

onEachStore(
  "/admin/site's job photos",
  (opened) => (store = opened),
  () => {
    async function jpeg(width = 1600, height = 1200): Promise<Buffer> {
      return sharp({ create: { width, height, channels: 3, background: '#4a7d8c' } })
        .withMetadata({ exif: { IFD0: { Copyright: 'GPS secret' } } })
        .jpeg()
        .toBuffer();
    }

    /** A multipart post as a browser sends it, read the way the page reads it. */
    async function upload(fields: Record<string, string>, file: Blob | null, name = 'photo.jpg') {
      const form = new FormData();
      for (const [key, value] of Object.entries(fields)) form.set(key, value);
      if (file) form.set('photo', file, name);
      const request = new Request('http://localhost/admin/site/photos', {
        method: 'POST',
        body: form,
      });
      const read = await readMultipart(request, JOB_PHOTO_UPLOAD);
      reads.push(read);
      return read;
    }
    /** Every upload read, whose temporary file goes after the test. */
    const reads: Array<{ discard(): Promise<void> }> = [];
    afterEach(async () => {
      await Promise.all(reads.splice(0).map((read) => read.discard()));
    });

    describe('job photos', () => {
      const details = {
        service: 'windows',
        alt: 'A new lounge window in Bethlehem',
        caption: 'Retrofit double glazing',
        revision: '0',
      };

      it('stores an upload made safe, and adds it to the draft', async () => {
        const read = await upload(
          details,
          new Blob([new Uint8Array(await jpeg())], { type: 'image/jpeg' }),
        );
        expect(read.ok).toBe(true);
        if (!read.ok) return;
        const outcome = await uploadJobPhoto(store, owner, read);
        expect(outcome.kind).toBe('added');
        if (outcome.kind !== 'added') return;
        const stored = await store.sitePhoto(outcome.photoId);
        expect(stored).toMatchObject({ width: 1600, height: 1200, created_by: owner.id });
        const metadata = await sharp(Buffer.from(stored!.bytes)).metadata();
        expect(metadata.format).toBe('jpeg');
        expect(metadata.exif).toBeUndefined();
        expect((await store.siteContentDraft()).jobPhotos.content).toEqual([
          {
            photoId: outcome.photoId,
            service: 'windows',
            alt: 'A new lounge window in Bethlehem',
            caption: 'Retrofit double glazing',
          },
        ]);
        expect(await activityActions(store)).toEqual([
          'site.saved section=jobPhotos,revision=1',
          `site.photo.added photo=${outcome.photoId}`,
        ]);

        // Its details changed, then removed from the draft.
        const edit = new URLSearchParams({
          ...details,
          photoId: outcome.photoId,
          service: 'doors',
          caption: '',
          revision: '1',
        });
        expect(await saveJobPhoto(store, owner, edit)).toMatchObject({ kind: 'saved' });
        expect((await store.siteContentDraft()).jobPhotos.content[0]).toEqual({
          photoId: outcome.photoId,
          service: 'doors',
          alt: 'A new lounge window in Bethlehem',
        });
        const remove = new URLSearchParams({
          action: 'remove',
          photoId: outcome.photoId,
          revision: '2',
        });
        expect(await saveJobPhoto(store, owner, remove)).toMatchObject({ kind: 'saved' });
        expect((await store.siteContentDraft()).jobPhotos.content).toEqual([]);
      });

      it('deletes a photo taken out of the draft that no version names; keeps a published one', async () => {
        const added: string[] = [];
        for (const alt of ['A new lounge window', 'A shower screen']) {
          const read = await upload(
            { ...details, alt, revision: String(added.length) },
            new Blob([new Uint8Array(await jpeg())], { type: 'image/jpeg' }),
          );
          if (!read.ok) return expect.fail('not read');
          const outcome = await uploadJobPhoto(store, owner, read);
          if (outcome.kind !== 'added') return expect.fail(outcome.kind);
          added.push(outcome.photoId);
        }
        const [published, draftOnly] = added as [string, string];
        // The first is published (kept for Restore), then both are taken out.
        const { version } = await store.createSiteContentVersion(
          {
            ...defaultSiteContent,
            jobPhotos: (await store.siteContentDraft()).jobPhotos.content.slice(0, 1),
          },
          owner.id,
        );
        await store.setSiteContentVersionState(version, 'live');
        let revision = 2;
        for (const photoId of [draftOnly, published]) {
          const remove = new URLSearchParams({
            action: 'remove',
            photoId,
            revision: String(revision++),
          });
          expect(await saveJobPhoto(store, owner, remove)).toMatchObject({ kind: 'saved' });
        }
        // What /admin/site/photos/ID.jpg answers from.
        expect(await store.sitePhoto(draftOnly)).toBeNull();
        expect(await store.sitePhoto(published)).not.toBeNull();
      });

      it('with 60 photos in the draft, refuses another before it is made safe or stored', async () => {
        const small = new Uint8Array(await jpeg(40, 30));
        const list = [];
        for (let index = 0; index < 60; index++) {
          const stored = await store.addSitePhoto({
            bytes: small,
            width: 40,
            height: 30,
            ownerId: owner.id,
          });
          list.push({
            photoId: stored.id,
            service: 'windows' as const,
            alt: `Job photo number ${index}`,
          });
        }
        const saved = await store.saveSiteContentSection('jobPhotos', list, 0, owner.id);
        expect(saved.saved).toBe(true);

        // The store as the upload sees it, counting what it is asked to keep.
        let added = 0;
        const counting = new Proxy(store, {
          get(target, name, receiver) {
            if (name === 'addSitePhoto') {
              return (...args: Parameters<AppStore['addSitePhoto']>) => {
                added += 1;
                return target.addSitePhoto(...args);
              };
            }
            const value: unknown = Reflect.get(target, name, receiver);
            return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
          },
        });
        expect(await jobPhotoUploadRefusal(counting, { headers: new Headers() })).toBe('full');
        const read = await upload(
          { ...details, revision: '1' },
          new Blob([new Uint8Array(await jpeg())], { type: 'image/jpeg' }),
        );
        if (!read.ok) return expect.fail('not read');
        const outcome = await uploadJobPhoto(counting, owner, read);
        expect(outcome).toMatchObject({
          kind: 'invalid',
          errors: { byField: { photo: JOB_PHOTO_MESSAGES.full } },
        });
        expect(added).toBe(0);
        expect((await store.siteContentDraft()).jobPhotos.content).toHaveLength(60);
      });

      it('refuses a file by its content, whatever its name and type say', async () => {
        const text = new Blob(['<svg xmlns="http://www.w3.org/2000/svg"/>'], {
          type: 'image/jpeg',
        });
        const read = await upload(details, text, 'holiday.jpg');
        if (!read.ok) return expect.fail('not read');
        const outcome = await uploadJobPhoto(store, owner, read);
        expect(outcome).toMatchObject({
          kind: 'invalid',
          errors: { byField: { photo: JOB_PHOTO_MESSAGES.type } },
        });
        expect(await activityActions(store)).toEqual(['site.photo.refused reason=type']);
        expect((await store.siteContentDraft()).jobPhotos.revision).toBe(0);
      });

      it('refuses a photo over 20 MB without keeping it, and asks for a description', async () => {
        const big = new Uint8Array(20 * 1024 * 1024 + 1);
        big.set([0xff, 0xd8, 0xff]);
        const read = await upload(details, new Blob([big]));
        if (!read.ok) return expect.fail('not read');
        expect(read.problems).toContain('too-large');
        expect(await uploadJobPhoto(store, owner, read)).toMatchObject({
          errors: { byField: { photo: JOB_PHOTO_MESSAGES.size } },
        });

        const small = await upload(
          { ...details, alt: '' },
          new Blob([new Uint8Array(await jpeg(200, 150))]),
        );
        if (!small.ok) return expect.fail('not read');
        const noAlt = await uploadJobPhoto(store, owner, small);
        expect(noAlt).toMatchObject({ kind: 'invalid' });
        if (noAlt.kind === 'invalid') {
          expect(noAlt.errors.byField.alt).toMatch(/^Description for screen readers: at least 5/);
        }
      });
    });
  },
);

import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { launchProblems } from '../content/launch-problems.ts';
import { defaultSiteContent } from '../content/site-content.ts';
import { SQLITE_FILE_NAME, openSqliteStore } from '../db/store-sqlite.server.ts';
import type { AppStore } from '../db/store.server.ts';
import {
  STORE_BACKENDS,
  tempDataDir,
  type StoreHarness,
} from '../leads/testing/test-support.server.ts';
import type { SitePublishingControl } from './context.server.ts';
import { describeActivity } from './inbox.server.ts';
import {
  contentProblemHref,
  describeSiteActivity,
  problemHref,
  publishDraft,
  restoreVersion,
  saveHours,
  saveIdentity,
  saveNotice,
  saveOffer,
  saveTestimonial,
  siteBuildActivity,
} from './site-admin.server.ts';
import { siteOverview } from './site-overview.server.ts';
import {
  readPhotoUpload,
  saveJobPhoto,
  uploadJobPhoto,
  jobPhotoUploadRefusal,
  JOB_PHOTO_MESSAGES,
} from './site-photos.server.ts';
import { formValuesOf, hoursFields, IDENTITY_FIELDS, OFFER_FIELDS } from './site-fields.ts';

const owner = { id: '', email: 'kiri@glass.example.com' };
const other = { id: '', email: 'sam@glass.example.com' };
let store: AppStore;

/** A stand-in publisher: counts the asks, serves what the test says. */
function publisher(): SitePublishingControl & { asked: number } {
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
function identityForm(changes: Record<string, string>, revision: number): URLSearchParams {
  const values = formValuesOf(defaultSiteContent.identity, IDENTITY_FIELDS);
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...values, ...changes })) {
    form.set(name, String(value));
  }
  form.set('revision', String(revision));
  return form;
}

function offerForm(fields: Record<string, string>, revision: number): URLSearchParams {
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

async function activityActions(): Promise<string[]> {
  return (await store.listActivity({ limit: 50 })).map((row) => `${row.action} ${row.detail}`);
}

for (const backend of STORE_BACKENDS) {
  describe.skipIf(backend.skip)(`/admin/site's decisions (${backend.label})`, () => {
    let harness: StoreHarness;

    beforeEach(async () => {
      harness = await backend.harness();
      store = await harness.open();
      const now = new Date().toISOString();
      owner.id = (await store.addOwner(owner.email, now)).owner.id;
      other.id = (await store.addOwner(other.email, now)).owner.id;
    });
    afterEach(async () => {
      await store.close();
      await harness.cleanup();
    });

    describe('saving a section of the draft', () => {
      it('saves the business details and notes it in the activity list', async () => {
        const outcome = await saveIdentity(
          store,
          owner,
          identityForm({ 'phone.display': '07 555 0777', 'phone.e164': '+6475550199' }, 0),
        );
        expect(outcome).toEqual({ kind: 'saved', revision: 1 });
        const draft = await store.siteContentDraft();
        // Typed once: the number dialled is worked out from the one shown, whatever else is posted.
        expect(draft.identity.content.phone).toEqual({
          display: '07 555 0777',
          e164: '+6475550777',
        });
        expect(draft.identity.updated_by).toBe(owner.id);
        expect(await activityActions()).toEqual(['site.saved section=identity,revision=1']);
      });

      it('refuses a field the schema refuses, naming the field and why, and saves nothing', async () => {
        const outcome = await saveIdentity(
          store,
          owner,
          identityForm(
            { 'phone.display': 'call <me>', email: 'not an address', 'geo.latitude': 'north' },
            0,
          ),
        );
        expect(outcome.kind).toBe('invalid');
        if (outcome.kind !== 'invalid') return;
        expect(outcome.errors.byField['phone.display']).toBe(
          'Phone number: digits and spaces only, such as 07 578 2468',
        );
        expect(outcome.errors.byField.email).toMatch(/^E-mail address: an e-mail address/);
        expect(outcome.errors.byField['geo.latitude']).toMatch(/^Latitude: a number/);
        expect(outcome.values['phone.display']).toBe('call <me>');
        expect(outcome.revision).toBe(0);
        expect((await store.siteContentDraft()).identity.revision).toBe(0);
      });

      it('refuses a save made on an older revision, saying who saved meanwhile, and keeps theirs', async () => {
        expect(await saveIdentity(store, other, identityForm({ name: 'Sam’s Glass' }, 0))).toEqual({
          kind: 'saved',
          revision: 1,
        });
        const mine = await saveIdentity(store, owner, identityForm({ name: 'Kiri’s Glass' }, 0));
        expect(mine).toMatchObject({ kind: 'conflict', by: other.email });
        if (mine.kind !== 'conflict') return;
        expect(mine.current.revision).toBe(1);
        expect((mine.current.content as { name: string }).name).toBe('Sam’s Glass');
        expect(mine.at).toBeTruthy();
        expect((await store.siteContentDraft()).identity.content.name).toBe('Sam’s Glass');
        expect(await activityActions()).toContain('site.conflict section=identity');
      });

      it('hours: an empty line is no line; each fact is confirmed by its checkbox', async () => {
        const hours = defaultSiteContent.hours;
        const values = formValuesOf(hours, hoursFields(hours.openingHours.length));
        const form = new URLSearchParams();
        for (const [name, value] of Object.entries(values)) {
          for (const one of Array.isArray(value) ? value : [value]) form.append(name, one);
        }
        form.set('facts.leadTimes.confirmed', 'yes');
        form.set('facts.quoteValidity.days', '45');
        form.set('revision', '0');
        expect(await saveHours(store, owner, form)).toMatchObject({ kind: 'saved' });
        const saved = (await store.siteContentDraft()).hours.content;
        expect(saved.openingHours).toEqual(hours.openingHours);
        expect(saved.facts.leadTimes.confirmed).toBe(true);
        expect(saved.facts.quoteValidity).toEqual({ days: 45, confirmed: false });

        form.set('openingHours.0.closes', '06:00');
        form.set('revision', '1');
        const refused = await saveHours(store, owner, form);
        expect(refused).toMatchObject({
          kind: 'invalid',
          errors: {
            byField: { 'openingHours.0.closes': 'Closes at: later than the opening time' },
          },
        });
      });

      it('notice: plain text only, dates in order, and removed', async () => {
        const tags = await saveNotice(
          store,
          owner,
          new URLSearchParams({ text: 'Closed <b>Monday</b>', revision: '0' }),
        );
        expect(tags).toMatchObject({ kind: 'invalid' });
        if (tags.kind === 'invalid')
          expect(tags.errors.byField.text).toMatch(/^Notice: plain words/);
        const dates = await saveNotice(
          store,
          owner,
          new URLSearchParams({
            text: 'Closed for the holidays',
            startsOn: '2026-12-24',
            endsOn: '2026-12-20',
            revision: '0',
          }),
        );
        if (dates.kind === 'invalid') {
          expect(dates.errors.byField.endsOn).toBe('Show until: on or after the day it starts');
        } else expect.fail('dates out of order were saved');
        expect(
          await saveNotice(
            store,
            owner,
            new URLSearchParams({
              text: 'Closed 25 December',
              startsOn: '',
              endsOn: '',
              revision: '0',
            }),
          ),
        ).toMatchObject({ kind: 'saved', revision: 1 });
        expect((await store.siteContentDraft()).notice.content).toEqual({
          text: 'Closed 25 December',
        });
        expect(
          await saveNotice(store, owner, new URLSearchParams({ action: 'remove', revision: '1' })),
        ).toMatchObject({ kind: 'saved', revision: 2 });
        expect((await store.siteContentDraft()).notice.content).toBeNull();
      });
    });

    describe('offers and testimonials', () => {
      it('adds, edits (one featured at most), and removes an offer', async () => {
        const added = await saveOffer(store, owner, offerForm({ featured: 'yes' }, 0));
        const newId = Math.max(...defaultSiteContent.offers.map((offer) => offer.id)) + 1;
        expect(added).toMatchObject({ kind: 'saved', revision: 1, id: newId });
        let offers = (await store.siteContentDraft()).offers.content;
        expect(offers.at(-1)).toMatchObject({
          id: newId,
          title: 'Winter double glazing',
          featured: true,
        });
        expect(offers.filter((offer) => offer.featured)).toHaveLength(1);
        expect(offers.at(-1)).not.toHaveProperty('description');

        // Editing a shipped sample makes it the business's own offer.
        const sample = offers[0]!;
        const edit = new URLSearchParams(
          formValuesOf(sample, OFFER_FIELDS) as Record<string, string>,
        );
        edit.set('id', String(sample.id));
        edit.set('revision', '1');
        edit.set('validUntil', '2099-01-31');
        expect(await saveOffer(store, owner, edit)).toMatchObject({ kind: 'saved', id: sample.id });
        offers = (await store.siteContentDraft()).offers.content;
        expect(offers[0]).toMatchObject({ id: sample.id, validUntil: '2099-01-31' });
        expect(offers[0]).not.toHaveProperty('sample');

        const bad = await saveOffer(
          store,
          owner,
          offerForm({ id: String(newId), validUntil: '31/06/2099', ctaLink: '//evil.example' }, 2),
        );
        expect(bad).toMatchObject({ kind: 'invalid' });
        if (bad.kind === 'invalid') {
          expect(bad.errors.byField.validUntil).toMatch(/^Valid until: a date written YYYY-MM-DD/);
          expect(bad.errors.byField.ctaLink).toMatch(/^Button leads to: a page of this site/);
        }

        const removed = await saveOffer(
          store,
          owner,
          new URLSearchParams({ action: 'remove', id: String(newId), revision: '2' }),
        );
        expect(removed).toMatchObject({ kind: 'saved', revision: 3 });
        offers = (await store.siteContentDraft()).offers.content;
        expect(offers.map((offer) => offer.id)).not.toContain(newId);
      });

      it('a testimonial needs "The customer agreed to publication"', async () => {
        const review = {
          name: 'Aroha T.',
          role: 'Homeowner',
          location: 'Bethlehem',
          rating: '5',
          review: 'Fixed our ranch slider the same day.',
          revision: '0',
        };
        const refused = await saveTestimonial(store, owner, new URLSearchParams(review));
        expect(refused).toMatchObject({ kind: 'invalid' });
        if (refused.kind === 'invalid') {
          expect(refused.errors.byField.permission).toMatch(/^Permission: publish a review only/);
        }
        const saved = await saveTestimonial(
          store,
          owner,
          new URLSearchParams({ ...review, permission: 'yes' }),
        );
        expect(saved).toMatchObject({ kind: 'saved' });
        expect((await store.siteContentDraft()).testimonials.content.at(-1)).toMatchObject({
          name: 'Aroha T.',
          rating: 5,
          permission: true,
        });
      });

      it('removing an offer that another owner removed meanwhile is a conflict', async () => {
        const id = String(defaultSiteContent.offers[0]!.id);
        await saveOffer(store, other, new URLSearchParams({ action: 'remove', id, revision: '0' }));
        const again = await saveOffer(
          store,
          owner,
          new URLSearchParams({ action: 'remove', id, revision: '0' }),
        );
        expect(again).toMatchObject({ kind: 'conflict', by: other.email });
      });
    });

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
      const read = await readPhotoUpload(
        request.headers.get('content-type') ?? '',
        request.body as unknown as AsyncIterable<Uint8Array>,
      );
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
        expect(await activityActions()).toEqual([
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
        expect(await jobPhotoUploadRefusal(counting, null)).toBe('full');
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
        expect(await activityActions()).toEqual(['site.photo.refused reason=type']);
        expect((await store.siteContentDraft()).jobPhotos.revision).toBe(0);
      });

      it('refuses a photo over 20 MB without keeping it, and asks for a description', async () => {
        const big = new Uint8Array(20 * 1024 * 1024 + 1);
        big.set([0xff, 0xd8, 0xff]);
        const read = await upload(details, new Blob([big]));
        if (!read.ok) return expect.fail('not read');
        expect(read.tooLarge).toBe(true);
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
        expect(await activityActions()).toEqual(
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
          [4, 'building'],
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
          'its build failed',
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
        expect(await activityActions()).toContain('site.publish.refused problems=1');
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
        expect(await activityActions()).toContain('site.restored version=3,from=1');

        await store.setSiteContentVersionState(3, 'failed', 'no');
        expect(await restoreVersion(store, owner, control, 3)).toMatchObject({ kind: 'refused' });
        expect(await restoreVersion(store, owner, control, 99)).toMatchObject({ kind: 'refused' });
      });
    });

    describe('the launch checklist on the draft', () => {
      it('links each problem to the field to fix', async () => {
        const problems = launchProblems(defaultSiteContent, new Date('2026-01-10T00:00:00Z'));
        const hrefs = problems.map(problemHref);
        expect(hrefs).toContain('/admin/site/identity#f-phone-display');
        expect(hrefs).toContain('/admin/site/identity#f-social-facebook');
        expect(hrefs).toContain('/admin/site/hours#f-facts-leadTimes-confirmed');
        const sample = defaultSiteContent.offers[0]!.id;
        expect(hrefs).toContain(`/admin/site/offers/${sample}`);
        expect(hrefs).toContain(`/admin/site/offers/${sample}#f-validUntil`);
        expect(hrefs).toContain(
          `/admin/site/testimonials/${defaultSiteContent.testimonials[0]!.id}`,
        );
        const view = await siteOverview(store, undefined);
        expect(view.problems.length).toBeGreaterThan(0);
        expect(view.problems.every((problem) => problem.href.startsWith('/admin/site/'))).toBe(
          true,
        );
      });
    });

    describe('the activity list', () => {
      it('says each site change in words, with section names and numbers only', () => {
        expect(describeActivity('site.saved', 'section=identity,revision=3')).toBe(
          "Saved the site's business details (draft)",
        );
        expect(describeActivity('site.published', 'version=4')).toBe(
          'Published the site: version 4',
        );
        expect(describeActivity('site.restored', 'version=5,from=2')).toBe(
          'Restored version 2 of the site as version 5',
        );
        expect(describeSiteActivity('site.photo.refused', 'reason=type')).toBe(
          'Refused a job photo upload (not a JPEG, PNG or WebP)',
        );
        const failed = siteBuildActivity(6, false, new Date('2026-01-01T00:00:00Z'));
        expect(failed).toEqual({
          at: '2026-01-01T00:00:00.000Z',
          actor: 'server',
          action: 'site.failed',
          detail: 'version=6',
        });
        expect(describeActivity(failed.action, failed.detail)).toMatch(
          /^Version 6 of the site failed/,
        );
      });
    });
  });
}

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
    expect(await activityActions()).toContain('site.publish.refused problems=1');
  });
});

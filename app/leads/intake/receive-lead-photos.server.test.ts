import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLeadService } from '../lead-service.server.ts';
import type { AppStore } from '../../db/store.server.ts';
import {
  POSTGRES_SKIP_MESSAGE,
  silentLogger,
  STORE_BACKENDS,
  TEST_DATABASE_URL,
  type StoreHarness,
} from '../testing/test-support.server.ts';
import {
  PHOTO_COUNT_MESSAGE,
  PHOTO_RULES,
  PHOTO_SIZE_MESSAGE,
  PHOTO_TYPE_MESSAGE,
  PHOTO_UNREADABLE_MESSAGE,
  PHOTOS_NOT_TAKEN_MESSAGE,
  PHOTOS_TOO_LARGE_MESSAGE,
} from './form-rules.ts';
import {
  API_ERROR_MESSAGES,
  formPostAnswer,
  receiveLead,
  type LeadOutcome,
  type LeadsRequestContext,
} from './receive-lead.server.ts';
import { INVALID_EMAIL_MESSAGE, type LeadSource } from './schema.ts';

/**
 * Photos with an enquiry through the one door (docs/operations.md#photos-with-an-enquiry):
 * a multipart post to a form's page (what Astro hands the on-demand page)
 * or to POST /api/leads, on both stores.
 */

if (!TEST_DATABASE_URL) console.warn(POSTGRES_SKIP_MESSAGE);

const ORIGIN = 'https://glass.example.com';

const enquiry = {
  name: 'Tama Wilson',
  email: 'tama@example.nz',
  phone: '027 555 0199',
  service: 'Pool Fence',
  message: 'Two cracked panes, photos attached.',
};
const callback = {
  firstName: 'Aroha',
  lastName: 'Ngata',
  email: 'aroha@example.co.nz',
  phone: '021 555 0101',
  postcode: '3110',
  serviceType: 'Business Glass',
};

const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 90, g: 140, b: 200 } } })
    .jpeg()
    .withExifMerge({ IFD0: { Copyright: 'Camera-Owner-Mark' } })
    .toBuffer();

type Part = { name: string; file: Uint8Array; filename?: string; type?: string };

function multipart(path: string, fields: Record<string, string>, files: Part[] = []): Request {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const part of files) {
    form.append(
      part.name,
      new Blob([new Uint8Array(part.file)], { type: part.type ?? 'image/jpeg' }),
      part.filename ?? 'photo.jpg',
    );
  }
  return new Request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: { Origin: ORIGIN },
    body: form,
  });
}

const photo = (file: Uint8Array, filename = 'photo.jpg'): Part => ({
  name: 'photos',
  file,
  filename,
});

for (const backend of STORE_BACKENDS) {
  describe.skipIf(backend.skip)(`photos with an enquiry: ${backend.label}`, () => {
    let harness: StoreHarness;
    let store: AppStore;

    beforeEach(async () => {
      harness = await backend.harness();
      store = await harness.open();
    });
    afterEach(async () => {
      await store.close();
      await harness.cleanup();
    });

    const leads = (rateLimited = false): LeadsRequestContext => ({
      service: createLeadService({
        store,
        targets: [],
        acceptMode: 'stored',
        logger: silentLogger(),
      }),
      rateLimited,
    });
    const page = async (form: LeadSource, request: Request, rateLimited = false) =>
      formPostAnswer(await receiveLead(request, leads(rateLimited), form));
    const nothingStored = async () => expect(await store.exportLeads()).toEqual([]);

    it('a form page takes the fields and up to 3 photos, stored made safe with the lead', async () => {
      const big = await jpeg(3000, 2000);
      const small = await jpeg(120, 90);
      const answer = await page(
        'contact_form',
        multipart('/contact', enquiry, [photo(big), photo(small, 'small.jpeg')]),
      );
      expect(answer).toEqual({ redirect: '/thank-you' });
      const [lead] = await store.exportLeads();
      expect(lead).toMatchObject({ name: 'Tama Wilson', source: 'contact_form' });
      expect(lead?.photos).toEqual([
        expect.objectContaining({ position: 0, type: 'image/jpeg', width: 2048, height: 1365 }),
        expect.objectContaining({ position: 1, type: 'image/jpeg', width: 120, height: 90 }),
      ]);
      const stored = await store.getLeadPhoto(lead?.id ?? '', 0);
      expect(Buffer.from(stored?.data ?? []).includes('Camera-Owner-Mark')).toBe(false);
      expect((await sharp(stored?.data).metadata()).exif).toBeUndefined();
    });

    it("the form's script and a program post multipart to POST /api/leads too", async () => {
      const viaForm = await receiveLead(
        multipart('/api/leads', { ...enquiry, form: 'quote_form' }, [photo(await jpeg(64, 64))]),
        leads(),
      );
      expect(viaForm).toMatchObject({ ok: true, status: 201 });
      const program = await receiveLead(
        multipart('/api/leads', { ...enquiry, email: 'other@example.nz', source: 'quote_form' }, [
          photo(await jpeg(64, 32)),
        ]),
        leads(),
      );
      expect(program).toMatchObject({ ok: true, status: 201 });
      const stored = await store.exportLeads();
      expect(stored.map((lead) => [lead.source, lead.photos.length])).toEqual([
        ['quote_form', 1],
        ['quote_form', 1],
      ]);
    });

    it('an empty file part (no file chosen) is not a photo', async () => {
      // As a browser sends it: filename="" and application/octet-stream.
      const none: Part = {
        name: 'photos',
        file: new Uint8Array(0),
        filename: '',
        type: 'application/octet-stream',
      };
      expect(await page('quote_form', multipart('/quote', enquiry, [none]))).toEqual({
        redirect: '/thank-you',
      });
      // Beside a chosen one, or typed as an image.
      const typed: Part = { ...none, type: 'image/jpeg' };
      const answer = await page(
        'quote_form',
        multipart('/quote', { ...enquiry, email: 'b@example.nz' }, [
          photo(await jpeg(20, 20)),
          typed,
        ]),
      );
      expect(answer).toEqual({ redirect: '/thank-you' });
      expect((await store.exportLeads()).map((lead) => lead.photos.length)).toEqual([0, 1]);
    });

    it('the call-back form takes no photos: 400 on `photos`, nothing stored', async () => {
      const answer = await page('hero_form', multipart('/', callback, [photo(await jpeg(32, 32))]));
      expect(answer).toMatchObject({
        status: 400,
        result: {
          ok: false,
          error: PHOTOS_NOT_TAKEN_MESSAGE,
          fields: { photos: PHOTOS_NOT_TAKEN_MESSAGE },
        },
      });
      // Its fields alone, as multipart, are fine.
      expect(await page('hero_form', multipart('/', callback))).toEqual({ redirect: '/thank-you' });
      expect((await store.exportLeads()).map((lead) => lead.source)).toEqual(['hero_form']);
    });

    it('refusals name `photos` in the fields, beside any other field, and store nothing', async () => {
      const ok = await jpeg(40, 40);
      const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: 'red' } })
        .gif()
        .toBuffer();
      const cases: Array<[string, Part[], string]> = [
        ['four photos', [photo(ok), photo(ok), photo(ok), photo(ok)], PHOTO_COUNT_MESSAGE],
        ['a GIF', [photo(gif, 'photo.jpg')], PHOTO_TYPE_MESSAGE],
        ['half a JPEG', [photo(ok.subarray(0, ok.length >> 1))], PHOTO_UNREADABLE_MESSAGE],
        ['over 10 MB', [photo(Buffer.alloc(PHOTO_RULES.maxBytes + 1, 0xff))], PHOTO_SIZE_MESSAGE],
      ];
      for (const [label, files, message] of cases) {
        const answer = await page('contact_form', multipart('/contact', enquiry, files));
        expect(answer, label).toMatchObject({
          status: 400,
          result: { error: message, fields: { photos: message }, values: { name: 'Tama Wilson' } },
        });
      }
      const both = await receiveLead(
        multipart('/api/leads', { ...enquiry, email: 'no-at-sign', form: 'contact_form' }, [
          photo(gif),
          photo(gif),
          photo(gif),
          photo(gif),
        ]),
        leads(),
      );
      expect(both).toMatchObject({
        status: 400,
        fields: { email: INVALID_EMAIL_MESSAGE, photos: PHOTO_COUNT_MESSAGE },
      });
      await nothingStored();
    });

    it('over the rate limit: 429 before any photo is decoded, nothing stored', async () => {
      const outcome = await receiveLead(
        multipart('/api/leads', { ...enquiry, form: 'contact_form' }, [photo(await jpeg(40, 40))]),
        leads(true),
      );
      expect(outcome).toMatchObject({ status: 429, error: API_ERROR_MESSAGES.tooManyRequests });
      await nothingStored();
    });

    it('413 for a multipart body over 32 MiB, declared or streamed; 16 KiB of text fields', async () => {
      const over = PHOTO_RULES.maxMultipartBody + 1024 * 1024;
      const declared = await receiveLead(
        multipart('/contact', enquiry, [photo(Buffer.alloc(over, 0xff))]),
        leads(),
        'contact_form',
      );
      expect(declared).toMatchObject({
        status: 413,
        error: PHOTOS_TOO_LARGE_MESSAGE,
        fields: { photos: PHOTOS_TOO_LARGE_MESSAGE },
      });
      // Streamed without a length: stopped at the limit, the fields before the photos kept.
      const body = await multipart('/contact', enquiry, [
        photo(Buffer.alloc(over / 4, 1)),
        photo(Buffer.alloc(over / 4, 2)),
        photo(Buffer.alloc(over / 4, 3)),
        photo(Buffer.alloc(over / 4, 4)),
      ]).arrayBuffer();
      const contentType = multipart('/contact', {}).headers.get('content-type') ?? '';
      const boundaryOf = (bytes: ArrayBuffer) =>
        Buffer.from(bytes).subarray(2, Buffer.from(bytes).indexOf('\r\n')).toString();
      let sent = 0;
      const streamed = new Request(`${ORIGIN}/contact`, {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundaryOf(body)}` },
        body: new ReadableStream({
          pull(controller) {
            if (sent >= body.byteLength) return controller.close();
            controller.enqueue(new Uint8Array(body.slice(sent, sent + 65536)));
            sent += 65536;
          },
        }),
        duplex: 'half',
      } as RequestInit);
      expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
      const outcome = await receiveLead(streamed, leads(), 'contact_form');
      expect(outcome).toMatchObject({ status: 413, values: { name: 'Tama Wilson' } });
      expect(sent).toBeLessThan(body.byteLength);
      // Text fields together keep the 16 KiB of any other body.
      const long = await receiveLead(
        multipart('/contact', { ...enquiry, message: 'x'.repeat(17 * 1024) }),
        leads(),
        'contact_form',
      );
      expect(long).toMatchObject({ status: 413, error: API_ERROR_MESSAGES.tooLarge });
      await nothingStored();
    });

    it('a retry of the same enquiry with its key stores the photos once', async () => {
      const fields = { ...enquiry, form: 'contact_form', idempotency_key: 'retry-key-0001' };
      const file = await jpeg(50, 50);
      const first = await receiveLead(multipart('/api/leads', fields, [photo(file)]), leads());
      const again: LeadOutcome = await receiveLead(
        multipart('/api/leads', fields, [photo(file)]),
        leads(),
      );
      expect(first).toMatchObject({ status: 201 });
      expect(again).toMatchObject({ status: 200, id: first.ok ? first.id : '' });
      const stored = await store.exportLeads();
      expect(stored.map((lead) => lead.photos.length)).toEqual([1]);
    });
  });
}

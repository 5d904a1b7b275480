import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import pg from 'pg';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  PHOTO_COUNT_MESSAGE,
  PHOTO_PIXELS_MESSAGE,
  PHOTO_RULES,
  PHOTO_SIZE_MESSAGE,
  PHOTO_TYPE_MESSAGE,
  PHOTO_UNREADABLE_MESSAGE,
  PHOTOS_TOO_LARGE_MESSAGE,
} from '../app/leads/intake/form-rules.ts';
import { API_ERROR_MESSAGES } from '../app/leads/intake/receive-lead.server.ts';
import { type AppStore } from '../app/db/store.server.ts';
import { openStore } from '../app/db/open-store.server.ts';
import {
  POSTGRES_SKIP_MESSAGE,
  TEST_DATABASE_URL,
  tempDataDir,
} from '../app/leads/testing/test-support.server.ts';
import { startTestSite, type TestSite } from './testing/site-test-support.server.ts';

/**
 * Hostile uploads to the running server (docs/operations.md#photos-with-an-enquiry):
 * each is refused with a 4xx and leaves nothing in the store, and the
 * server still answers GET /healthz and a normal enquiry afterwards.
 */

if (!TEST_DATABASE_URL) console.warn(POSTGRES_SKIP_MESSAGE);

const enquiry = {
  form: 'contact_form',
  name: 'Tama Wilson',
  email: 'tama@example.nz',
  phone: '027 555 0199',
  service: 'Pool Fence',
  message: 'Photos attached.',
};

type Part = { file: Uint8Array; filename?: string; type?: string; name?: string };

function form(files: Part[], fields: Record<string, string> = enquiry): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  for (const part of files) {
    body.append(
      part.name ?? 'photos',
      new Blob([new Uint8Array(part.file)], { type: part.type ?? 'image/jpeg' }),
      part.filename ?? 'photo.jpg',
    );
  }
  return body;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** 30000×30000 pixels of one colour (900 MP) in a file of about 100 KB. */
function pngBomb(): Buffer {
  const side = 30_000;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.alloc((1 + side / 8) * side), { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

interface Backend {
  label: string;
  skip: boolean;
  settings(): Promise<{ env: Record<string, string>; cleanup(): Promise<void> }>;
}

const BACKENDS: Backend[] = [
  {
    label: 'SQLite',
    skip: false,
    async settings() {
      const data = tempDataDir('photo-abuse-');
      return { env: { DATA_DIR: data.dir }, cleanup: async () => data.remove() };
    },
  },
  {
    label: 'PostgreSQL',
    skip: !TEST_DATABASE_URL,
    async settings() {
      const schema = `leads_abuse_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      const url = new URL(TEST_DATABASE_URL!);
      url.searchParams.set('options', `-c search_path=${schema}`);
      return {
        env: { DATA_DIR: '/nonexistent/never-created', DATABASE_URL: url.toString() },
        async cleanup() {
          await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
          await admin.end();
        },
      };
    },
  },
];

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(`hostile uploads (${backend.label})`, () => {
    let site: TestSite;
    let store: AppStore;
    let cleanup: () => Promise<void>;

    const start = async (settings: Record<string, string>) => {
      const { env, cleanup: remove } = await backend.settings();
      site = await startTestSite({ ...env, ...settings });
      store = await openStore({ dataDir: env.DATA_DIR ?? '', databaseUrl: env.DATABASE_URL });
      cleanup = remove;
    };
    afterEach(async () => {
      await store.close();
      await site.close();
      await cleanup();
    });

    const post = (body: FormData | string, headers: Record<string, string> = {}) =>
      fetch(`${site.url}/api/leads`, { method: 'POST', body, headers });
    const counts = async () => {
      const leads = await store.exportLeads();
      return { leads: leads.length, photos: leads.reduce((n, lead) => n + lead.photos.length, 0) };
    };

    describe('each refused, nothing stored, the server fine afterwards', () => {
      beforeEach(() => start({ LEAD_RATE_LIMIT: '1000' }));

      it('bombs, wrong types, truncated files, too many or too large', async () => {
        const jpeg = await sharp({
          create: { width: 64, height: 48, channels: 3, background: { r: 9, g: 9, b: 9 } },
        })
          .jpeg()
          .toBuffer();
        const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: 'red' } })
          .gif()
          .toBuffer();
        const svg = Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        );
        const heic = Buffer.concat([
          Buffer.from([0, 0, 0, 0x18]),
          Buffer.from('ftypheic\0\0\0\0mif1heic', 'latin1'),
          Buffer.alloc(64),
        ]);
        const pdf = Buffer.from('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj << >> endobj\n%%EOF\n', 'latin1');
        const cases: Array<[string, FormData, number, string]> = [
          [
            'a PNG bomb',
            form([{ file: pngBomb(), filename: 'a.png', type: 'image/png' }]),
            400,
            PHOTO_PIXELS_MESSAGE,
          ],
          [
            'a truncated JPEG',
            form([{ file: jpeg.subarray(0, jpeg.length - 200) }]),
            400,
            PHOTO_UNREADABLE_MESSAGE,
          ],
          [
            'a GIF',
            form([{ file: gif, filename: 'a.gif', type: 'image/gif' }]),
            400,
            PHOTO_TYPE_MESSAGE,
          ],
          [
            'an SVG',
            form([{ file: svg, filename: 'a.svg', type: 'image/svg+xml' }]),
            400,
            PHOTO_TYPE_MESSAGE,
          ],
          [
            'a HEIC-like file',
            form([{ file: heic, filename: 'a.heic', type: 'image/heic' }]),
            400,
            PHOTO_TYPE_MESSAGE,
          ],
          [
            'a PDF called a JPEG',
            form([{ file: pdf, filename: 'a.jpg', type: 'image/jpeg' }]),
            400,
            PHOTO_TYPE_MESSAGE,
          ],
          [
            'an 11 MB part',
            form([{ file: Buffer.alloc(11 * 1024 * 1024, 0xff) }]),
            400,
            PHOTO_SIZE_MESSAGE,
          ],
          [
            '4 photos',
            form([{ file: jpeg }, { file: jpeg }, { file: jpeg }, { file: jpeg }]),
            400,
            PHOTO_COUNT_MESSAGE,
          ],
          [
            'a part with no filename',
            (() => {
              const body = form([]);
              body.append('photos', jpeg.toString('latin1'));
              return body;
            })(),
            400,
            PHOTO_TYPE_MESSAGE,
          ],
        ];
        for (const [label, body, status, message] of cases) {
          const response = await post(body);
          expect(response.status, label).toBe(status);
          expect(await response.json(), label).toEqual({
            error: message,
            fields: { photos: message },
          });
        }
        // Too many fields.
        const fields = Object.fromEntries(
          Array.from({ length: 40 }, (_, index) => [`extra${index}`, 'x']),
        );
        const many = await post(form([], { ...enquiry, ...fields }));
        expect(many.status).toBe(413);
        expect(await many.json()).toEqual({ error: API_ERROR_MESSAGES.tooLarge });
        // A 33 MiB body, declared.
        const huge = await post(
          form([{ file: Buffer.alloc(PHOTO_RULES.maxMultipartBody + 1024 * 1024, 0xff) }]),
        );
        expect(huge.status).toBe(413);
        expect(await huge.json()).toEqual({ error: PHOTOS_TOO_LARGE_MESSAGE });

        expect(await counts()).toEqual({ leads: 0, photos: 0 });
        const health = await fetch(`${site.url}/healthz`);
        expect(health.status).toBe(200);
        const normal = await post(
          JSON.stringify({ ...enquiry, form: undefined, source: 'contact_form' }),
          {
            'content-type': 'application/json',
          },
        );
        expect(normal.status).toBe(201);
        expect(await counts()).toEqual({ leads: 1, photos: 0 });
      });

      it('a polyglot (a JPEG that is also HTML and ZIP) is kept only as re-encoded pixels', async () => {
        const jpeg = await sharp({
          create: { width: 64, height: 48, channels: 3, background: { r: 9, g: 90, b: 9 } },
        })
          .jpeg()
          .toBuffer();
        const polyglot = Buffer.concat([
          jpeg,
          Buffer.from('<html><script>polyglot-marker()</script></html>'),
          Buffer.from('PK\u0003\u0004polyglot-zip', 'latin1'),
        ]);
        const response = await post(
          form([{ file: polyglot, filename: 'a.html', type: 'text/html' }]),
        );
        expect(response.status).toBe(201);
        const { id } = (await response.json()) as { id: string };
        const photo = await store.getLeadPhoto(id, 0);
        const bytes = Buffer.from(photo?.data ?? []);
        expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
        expect(bytes.includes('polyglot')).toBe(false);
        expect(bytes.includes('<html>')).toBe(false);
        expect(await counts()).toEqual({ leads: 1, photos: 1 });
      });
    });

    it('the guards come first: a cross-origin upload is 403 unread, an upload counts against the rate limit', async () => {
      await start({ LEAD_RATE_LIMIT: '1', SITE_URL: 'https://www.glass.example.nz' });
      const jpeg = await sharp({
        create: { width: 8, height: 8, channels: 3, background: { r: 1, g: 1, b: 1 } },
      })
        .jpeg()
        .toBuffer();
      const crossSite = await post(form([{ file: jpeg }]), { origin: 'https://evil.example' });
      expect(crossSite.status).toBe(403);
      expect((await post(form([{ file: jpeg }]))).status).toBe(201);
      const limited = await post(form([{ file: jpeg }], { ...enquiry, email: 'b@example.nz' }));
      expect(limited.status).toBe(429);
      expect(await counts()).toEqual({ leads: 1, photos: 1 });
    });
  });
}

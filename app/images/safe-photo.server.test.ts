import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PHOTO_RULES } from '../leads/intake/form-rules.ts';
import { makeSafePhoto, type SafePhotoLimits } from './safe-photo.server.ts';

const LIMITS: SafePhotoLimits = {
  maxBytes: PHOTO_RULES.maxBytes,
  maxPixels: PHOTO_RULES.maxPixels,
  maxEdge: PHOTO_RULES.maxEdge,
};

/** A 400×200 JPEG, left half red and right half blue, with EXIF orientation 6, GPS and a copyright. */
async function orientedJpegWithGps(): Promise<Buffer> {
  const red = { r: 220, g: 0, b: 0 };
  const blue = { r: 0, g: 0, b: 220 };
  const half = await sharp({ create: { width: 200, height: 200, channels: 3, background: blue } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 400, height: 200, channels: 3, background: red } })
    .composite([{ input: half, left: 200, top: 0 }])
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Copyright: 'Secret-Copyright-Mark' },
      IFD3: {
        GPSLatitudeRef: 'S',
        GPSLatitude: '37/1 41/1 0/1',
        GPSLongitudeRef: 'E',
        GPSLongitude: '176/1 10/1 0/1',
      },
    })
    .toBuffer();
}

/** One PNG chunk, as the PNG specification lays it out (zlib's CRC-32). */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real decompression bomb: a 30000×30000 one-colour PNG (900 MP) in a small file. */
function pngBomb(): Buffer {
  const side = 30_000;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth 1
  header[9] = 0; // greyscale
  // Each row: filter byte 0 and side/8 zero bytes.
  const rows = Buffer.alloc((1 + side / 8) * side);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const plainJpeg = (width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: { r: 10, g: 120, b: 40 } } })
    .jpeg()
    .toBuffer();

describe('makeSafePhoto', () => {
  it('keeps a JPEG upright, inside 2048 px, with no metadata at all', async () => {
    const input = await orientedJpegWithGps();
    const before = await sharp(input).metadata();
    expect(before).toEqual(expect.objectContaining({ orientation: 6, width: 400, height: 200 }));
    expect(before.exif).toBeDefined();

    const result = await makeSafePhoto(input, LIMITS);
    if (!result.ok) throw new Error(`refused: ${result.reason}`);
    expect(result.photo).toEqual(
      expect.objectContaining({ width: 200, height: 400, type: 'image/jpeg' }),
    );
    const after = await sharp(result.photo.data).metadata();
    expect(after).toEqual(
      expect.objectContaining({ format: 'jpeg', width: 200, height: 400, space: 'srgb' }),
    );
    for (const field of ['exif', 'xmp', 'icc', 'iptc', 'orientation', 'comments'] as const) {
      expect(after[field], field).toBeUndefined();
    }
    expect(result.photo.data.includes('Secret-Copyright-Mark')).toBe(false);
    // Upright: the left (red) half of the stored pixels is now on top.
    const { data, info } = await sharp(result.photo.data)
      .raw()
      .toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [
      ...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3),
    ];
    expect(pixel(100, 50)[0]).toBeGreaterThan(150);
    expect(pixel(100, 350)[2]).toBeGreaterThan(150);
  });

  it('fits a large photo inside 2048 px on its long edge and never enlarges a small one', async () => {
    const large = await makeSafePhoto(await plainJpeg(4000, 3000), LIMITS);
    expect(large.ok && [large.photo.width, large.photo.height]).toEqual([2048, 1536]);
    const small = await makeSafePhoto(await plainJpeg(64, 48), LIMITS);
    expect(small.ok && [small.photo.width, small.photo.height]).toEqual([64, 48]);
    for (const format of ['png', 'webp'] as const) {
      const input = await sharp({
        create: {
          width: 30,
          height: 20,
          channels: 4,
          background: { r: 1, g: 2, b: 3, alpha: 0.5 },
        },
      })
        .toFormat(format)
        .toBuffer();
      const result = await makeSafePhoto(input, LIMITS);
      expect(result.ok && (await sharp(result.photo.data).metadata()).format, format).toBe('jpeg');
    }
  });

  it('refuses a decompression bomb from its header, at once', async () => {
    const bomb = pngBomb();
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const started = performance.now();
    expect(await makeSafePhoto(bomb, LIMITS)).toEqual({ ok: false, reason: 'pixels' });
    // Decoding 900 MP would take many seconds and gigabytes; the header takes milliseconds.
    expect(performance.now() - started).toBeLessThan(5000);
    // A lower limit is the caller's: 64×48 is over 3000 pixels.
    expect(await makeSafePhoto(await plainJpeg(), { ...LIMITS, maxPixels: 3000 })).toEqual({
      ok: false,
      reason: 'pixels',
    });
  });

  it('refuses other formats whatever they are called, and truncated or corrupt files', async () => {
    const jpeg = await plainJpeg(400, 300);
    const gif = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } })
      .gif()
      .toBuffer();
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
    );
    const pdf = Buffer.from(
      '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n',
    );
    const heic = Buffer.concat([
      Buffer.from([0, 0, 0, 0x18]),
      Buffer.from('ftypheic\0\0\0\0mif1heic', 'latin1'),
      Buffer.alloc(64),
    ]);
    for (const [label, input] of Object.entries({ gif, svg, pdf, heic })) {
      expect(await makeSafePhoto(input, LIMITS), label).toEqual({ ok: false, reason: 'type' });
    }
    expect(await makeSafePhoto(jpeg.subarray(0, Math.floor(jpeg.length / 2)), LIMITS)).toEqual({
      ok: false,
      reason: 'unreadable',
    });
    const corrupt = Buffer.concat([jpeg.subarray(0, 4), Buffer.alloc(200, 0x41)]);
    expect(await makeSafePhoto(corrupt, LIMITS)).toEqual({ ok: false, reason: 'unreadable' });
    expect(await makeSafePhoto(jpeg, { ...LIMITS, maxBytes: jpeg.length - 1 })).toEqual({
      ok: false,
      reason: 'size',
    });
  });

  it('keeps only the pixels of a polyglot: what was hidden after the image is gone', async () => {
    const html = Buffer.from('<html><script>polyglot-marker()</script></html>');
    const zip = Buffer.from('PK\u0003\u0004polyglot-zip-entry', 'latin1');
    const result = await makeSafePhoto(Buffer.concat([await plainJpeg(), html, zip]), LIMITS);
    if (!result.ok) throw new Error(`refused: ${result.reason}`);
    expect(result.photo.data.includes('polyglot')).toBe(false);
    expect(result.photo.data.includes('PK\u0003\u0004', 0, 'latin1')).toBe(false);
  });
});

import { open } from 'node:fs/promises';
import sharp from 'sharp';

/**
 * A photo someone uploaded, made safe to keep and to show
 * (docs/operations.md#photos-with-an-enquiry): a visitor's photos with an
 * enquiry now, the owner's job photos later, each with its own limits.
 *
 * Nothing about the upload is trusted: not its name, not its declared type.
 * Its first bytes must be JPEG, PNG or WebP and sharp must detect the same;
 * its size in pixels is read from its header and refused over the limit
 * before anything is decoded (a decompression bomb costs a header read),
 * and the decoder is held to the same limit. A truncated or corrupt file is
 * refused (`failOn`). What is kept is the first frame, turned upright by its
 * orientation, fitted inside `maxEdge` pixels (never enlarged), converted to
 * sRGB and encoded again as JPEG without any metadata: no EXIF (GPS, camera,
 * time), XMP, IPTC, ICC profile or comment survives, nor anything appended
 * to or hidden in the file.
 *
 * Memory is bounded: sharp keeps no cache, and one photo is decoded at a
 * time, process-wide (setSafePhotoConcurrency); the rest wait their turn.
 */

export interface SafePhotoLimits {
  /** The largest upload, in bytes. */
  maxBytes: number;
  /** The most pixels (width × height) an upload may have. */
  maxPixels: number;
  /** The longest edge of the photo kept, in pixels. */
  maxEdge: number;
  /** JPEG quality of the photo kept (default 82). */
  quality?: number;
}

export interface SafePhoto {
  /** The JPEG kept. */
  data: Buffer;
  width: number;
  height: number;
  type: 'image/jpeg';
}

/** Why an upload was refused: its format, its bytes, its pixels, or it could not be decoded. */
export type SafePhotoRefusal = 'type' | 'size' | 'pixels' | 'unreadable';

export type SafePhotoResult =
  { ok: true; photo: SafePhoto } | { ok: false; reason: SafePhotoRefusal };

const ACCEPTED_FORMATS: ReadonlySet<string> = new Set(['jpeg', 'png', 'webp']);

/**
 * Photos decoded at once in this process. libvips already spreads one photo
 * over the cores, so one at a time takes as many a second as two, and ten
 * 12 MP uploads at once peak about 80 MB lower (npm run bench:leads).
 */
const DEFAULT_CONCURRENCY = 1;

// Decoded images are never kept between photos.
sharp.cache(false);

const startsWith = (data: Uint8Array, bytes: readonly number[], at = 0) =>
  bytes.every((byte, index) => data[at + index] === byte);

/** The format the first bytes say, among the accepted ones only. */
export function sniffPhotoFormat(data: Uint8Array): 'jpeg' | 'png' | 'webp' | null {
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  // RIFF....WEBP
  if (startsWith(data, [0x52, 0x49, 0x46, 0x46]) && startsWith(data, [0x57, 0x45, 0x42, 0x50], 8)) {
    return 'webp';
  }
  return null;
}

/** A first-come queue of at most `limit` tasks at once. */
function limiter(limit: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

let queue = limiter(DEFAULT_CONCURRENCY);

/** How many photos this process decodes at once (default 1). */
export function setSafePhotoConcurrency(limit: number): void {
  queue = limiter(Math.max(1, Math.floor(limit)));
}

/** sharp's "Input image exceeds pixel limit" is the bomb; anything else could not be decoded. */
function refusalOf(error: unknown): SafePhotoRefusal {
  const message = error instanceof Error ? error.message : '';
  return message.includes('exceeds pixel limit') ? 'pixels' : 'unreadable';
}

/**
 * An upload: its bytes, or the temporary file it was written to as it
 * arrived (an upload is never held whole in memory: intake/multipart.server.ts).
 */
export type PhotoUpload = Uint8Array | { file: string };

/** The upload's size and first bytes (enough to tell its format). */
async function peek(upload: PhotoUpload): Promise<{ size: number; head: Uint8Array }> {
  if (upload instanceof Uint8Array) return { size: upload.byteLength, head: upload };
  const handle = await open(upload.file, 'r');
  try {
    const { size } = await handle.stat();
    const head = new Uint8Array(16);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return { size, head: head.subarray(0, bytesRead) };
  } finally {
    await handle.close();
  }
}

async function sanitise(upload: PhotoUpload, limits: SafePhotoLimits): Promise<SafePhotoResult> {
  const { size, head } = await peek(upload);
  if (size > limits.maxBytes) return { ok: false, reason: 'size' };
  const sniffed = sniffPhotoFormat(head);
  if (!sniffed) return { ok: false, reason: 'type' };
  // sharp reads a file itself, a part at a time.
  const data = upload instanceof Uint8Array ? upload : upload.file;
  const input = { failOn: 'error', limitInputPixels: limits.maxPixels, page: 0, pages: 1 } as const;
  let metadata: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    metadata = await sharp(data, input).metadata();
  } catch (error) {
    return { ok: false, reason: refusalOf(error) };
  }
  if (metadata.format !== sniffed || !ACCEPTED_FORMATS.has(metadata.format)) {
    return { ok: false, reason: 'type' };
  }
  const { width, height } = metadata;
  if (!width || !height) return { ok: false, reason: 'unreadable' };
  if (width * height > limits.maxPixels) return { ok: false, reason: 'pixels' };
  try {
    const { data: jpeg, info } = await sharp(data, { ...input, sequentialRead: true })
      .rotate()
      .resize({
        width: limits.maxEdge,
        height: limits.maxEdge,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .toColourspace('srgb')
      .jpeg({ quality: limits.quality ?? 82 })
      .toBuffer({ resolveWithObject: true });
    return {
      ok: true,
      photo: { data: jpeg, width: info.width, height: info.height, type: 'image/jpeg' },
    };
  } catch (error) {
    return { ok: false, reason: refusalOf(error) };
  }
}

/** One upload made safe, or the reason it was refused; waits its turn in the process's queue. */
export function makeSafePhoto(
  upload: PhotoUpload,
  limits: SafePhotoLimits,
): Promise<SafePhotoResult> {
  return queue(() => sanitise(upload, limits));
}

export interface FittedJpeg {
  data: Buffer;
  width: number;
  height: number;
}

/**
 * A JPEG this site made (a kept photo, already bare of metadata) made
 * smaller when it is over `maxBytes`: scaled down, its aspect kept, and
 * encoded again without metadata until it fits. One that fits is given
 * back as it is. Waits its turn in the same queue as makeSafePhoto.
 */
export function fitJpeg(data: Uint8Array, maxBytes: number): Promise<FittedJpeg> {
  return queue(async () => {
    const input = { failOn: 'error', limitInputPixels: 40_000_000 } as const;
    const { width = 0, height = 0 } = await sharp(data, input).metadata();
    if (data.byteLength <= maxBytes) return { data: Buffer.from(data), width, height };
    let edge = Math.max(width, height);
    let size = data.byteLength;
    for (;;) {
      // The bytes of a JPEG follow its pixels: scale the edge by the square
      // root of the ratio, and a little more, so one or two tries do.
      edge = Math.max(16, Math.floor(edge * Math.min(0.9, Math.sqrt(maxBytes / size) * 0.95)));
      const { data: jpeg, info } = await sharp(data, input)
        .resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true })
        .jpeg({ quality: 80 })
        .toBuffer({ resolveWithObject: true });
      if (jpeg.byteLength <= maxBytes || edge === 16) {
        return { data: jpeg, width: info.width, height: info.height };
      }
      size = jpeg.byteLength;
    }
  });
}

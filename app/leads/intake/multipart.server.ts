import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import {
  PHOTO_COUNT_MESSAGE,
  PHOTO_RULES,
  PHOTO_SIZE_MESSAGE,
  PHOTO_TYPE_MESSAGE,
  PHOTOS_FIELD,
} from './form-rules.ts';

/**
 * A lead posted as `multipart/form-data` (docs/operations.md#photos-with-an-enquiry):
 * the lead's text fields and up to PHOTO_RULES.maxCount files in `photos`,
 * streamed through busboy with a limit on everything: the whole body at
 * most PHOTO_RULES.maxMultipartBody (413 beyond), each file at most
 * PHOTO_RULES.maxBytes, the text fields together at most `fieldBytes` (the
 * 16 KiB of any other body), at most MAX_FIELDS of them. A file part is
 * written to a temporary file as it arrives (uploadSpool), never held whole
 * in memory; the caller removes them with `discard()` once it is done,
 * whatever the outcome. A file part with nothing in it (a form posted with
 * no file chosen) is not a photo.
 *
 * Nothing here decides whether a photo is one: its bytes go to
 * app/images/safe-photo.server.ts.
 */

/** Text fields a multipart lead may have (a lead has about a dozen). */
export const MAX_FIELDS = 32;

export interface MultipartPart {
  /** The temporary file holding the part as posted, at most PHOTO_RULES.maxBytes. */
  file: string;
}

/**
 * A folder of its own for one request's uploaded files, under the system's
 * temporary folder (the service's private /tmp under systemd), made on the
 * first file; `discard` removes it and everything in it.
 */
export function uploadSpool() {
  let folder: Promise<string> | undefined;
  let count = 0;
  return {
    /** A new file's path in the folder. */
    async next(): Promise<string> {
      folder ??= mkdtemp(path.join(tmpdir(), 'glass-upload-'));
      return path.join(await folder, `part-${count++}`);
    },
    async discard(): Promise<void> {
      if (!folder) return;
      const made = await folder.catch(() => null);
      if (made) await rm(made, { recursive: true, force: true });
    },
  };
}

/**
 * Waits until a stream that refused a write drains, fails or closes, and
 * takes its listeners back: a long upload waits thousands of times, and
 * listeners left behind would pile up on the parser (the caller listens
 * for 'error' for the whole read).
 */
export function writable(stream: NodeJS.EventEmitter): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('error', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('error', done);
    stream.on('close', done);
  });
}

export type ReadMultipartResult = ReadMultipartOutcome & {
  /** Removes the temporary files of the parts; call it once done with them, whatever the outcome. */
  discard: () => Promise<void>;
};

type ReadMultipartOutcome =
  | {
      ok: true;
      /** Text fields, the first value of each. */
      fields: Record<string, string>;
      /** Non-empty file parts of `photos`, in order. */
      photos: MultipartPart[];
      /** A refusal of the photos found while reading (the field's message), if any. */
      photoError?: string;
    }
  | {
      ok: false;
      status: 400 | 413;
      /** Which limit: the body's, the text fields', or an unreadable body. */
      reason: 'body' | 'fields' | 'malformed';
      /** The text fields read before stopping, to show them again. */
      fields: Record<string, string>;
    };

interface Chunks {
  [Symbol.asyncIterator](): AsyncIterator<Uint8Array>;
}

export async function readMultipart(
  contentType: string,
  body: Chunks | null,
  options: { fieldBytes: number; bodyBytes?: number },
): Promise<ReadMultipartResult> {
  const spool = uploadSpool();
  try {
    return { ...(await readParts(contentType, body, options, spool)), discard: spool.discard };
  } catch (error) {
    await spool.discard();
    throw error;
  }
}

async function readParts(
  contentType: string,
  body: Chunks | null,
  options: { fieldBytes: number; bodyBytes?: number },
  spool: ReturnType<typeof uploadSpool>,
): Promise<ReadMultipartOutcome> {
  const bodyLimit = options.bodyBytes ?? PHOTO_RULES.maxMultipartBody;
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  /** The photo parts by their place among the file parts (undefined: not a photo). */
  const photoSlots: Array<MultipartPart | undefined> = [];
  let photoError: string | undefined;
  let failure: 'fields' | 'malformed' | undefined;
  let fieldBytes = 0;

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      limits: {
        fieldNameSize: 100,
        fieldSize: options.fieldBytes,
        fields: MAX_FIELDS,
        fileSize: PHOTO_RULES.maxBytes,
        // One more than the photos: a form with no file chosen sends one empty part.
        files: PHOTO_RULES.maxCount + 1,
        parts: MAX_FIELDS + PHOTO_RULES.maxCount + 1,
        headerPairs: 20,
      },
    });
  } catch {
    // No boundary, or not multipart after all.
    return { ok: false, status: 400, reason: 'malformed', fields };
  }
  const refusePhotos = (message: string) => {
    photoError ??= message;
  };
  const fail = (reason: 'fields' | 'malformed') => {
    failure ??= reason;
  };

  parser.on('field', (name, value, info) => {
    // An empty one is no file chosen (as a browser sends it, a file part; some clients, a field).
    if (name === PHOTOS_FIELD) return value === '' ? undefined : refusePhotos(PHOTO_TYPE_MESSAGE);
    fieldBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
    if (info.valueTruncated || info.nameTruncated || fieldBytes > options.fieldBytes) {
      return fail('fields');
    }
    if (!(name in fields)) fields[name] = value;
  });
  // Each file part's writing to its temporary file; all are awaited before the answer.
  const writes: Array<Promise<void>> = [];
  parser.on('file', (name, stream, info) => {
    let tooLarge = false;
    stream.on('limit', () => {
      tooLarge = true;
      refusePhotos(PHOTO_SIZE_MESSAGE);
    });
    // A body cut short (or stopped at the limit) ends the part with an error:
    // without a listener it would be thrown out of the process.
    stream.on('error', () => fail('malformed'));
    // Its place is taken now, so the parts stay in the order posted.
    const index = writes.length;
    writes.push(
      (async () => {
        const file = await spool.next();
        // Until then the part waits, paused, and busboy with it. The file
        // takes the part at its own pace (backpressure); a part cut short
        // closes its file too.
        const out = createWriteStream(file);
        const written = await pipeline(stream, out).then(
          () => true,
          () => false,
        );
        if (!written) return fail('malformed');
        if (out.bytesWritten === 0) return; // no file chosen
        if (name !== PHOTOS_FIELD) return fail('malformed');
        // Its name is never trusted, but a file part without one is not a photo from a form.
        if (!info.filename) return refusePhotos(PHOTO_TYPE_MESSAGE);
        if (tooLarge) return;
        photoSlots[index] = { file };
      })(),
    );
  });
  parser.on('filesLimit', () => refusePhotos(PHOTO_COUNT_MESSAGE));
  parser.on('fieldsLimit', () => fail('fields'));
  parser.on('partsLimit', () => fail('fields'));

  const finished = new Promise<void>((resolve) => {
    parser.on('close', resolve);
    parser.on('error', () => {
      fail('malformed');
      resolve();
    });
  });

  // Read by hand, not with for-await: leaving that loop early would destroy
  // a Node request's socket before the 413 could be sent.
  let size = 0;
  if (body) {
    const chunksOf = body[Symbol.asyncIterator]();
    try {
      for (;;) {
        const { done, value } = await chunksOf.next();
        if (done) break;
        size += value.byteLength;
        if (size > bodyLimit) {
          parser.destroy();
          await Promise.allSettled(writes);
          return { ok: false, status: 413, reason: 'body', fields };
        }
        if (failure === 'malformed') continue; // read to the end, answer then
        if (!parser.write(value)) await writable(parser);
      }
    } catch {
      parser.destroy();
      await Promise.allSettled(writes);
      return { ok: false, status: 400, reason: 'malformed', fields };
    }
  }
  if (failure !== 'malformed') {
    parser.end();
    await finished;
  } else {
    // A part cut off mid-way ends, and its file is closed.
    parser.destroy();
  }
  await Promise.allSettled(writes);
  if (failure)
    return { ok: false, status: failure === 'fields' ? 413 : 400, reason: failure, fields };
  const photos = photoSlots.filter((part): part is MultipartPart => part !== undefined);
  if (photos.length > PHOTO_RULES.maxCount) refusePhotos(PHOTO_COUNT_MESSAGE);
  return { ok: true, fields, photos, ...(photoError ? { photoError } : {}) };
}

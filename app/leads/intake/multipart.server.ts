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
 * streamed through busboy with a limit on everything, so what is held in
 * memory is bounded: the whole body at most PHOTO_RULES.maxMultipartBody
 * (413 beyond), each file at most PHOTO_RULES.maxBytes, the text fields
 * together at most `fieldBytes` (the 16 KiB of any other body), at most
 * MAX_FIELDS of them. A file part with nothing in it (a form posted with no
 * file chosen) is not a photo.
 *
 * Nothing here decides whether a photo is one: its bytes go to
 * app/images/safe-photo.server.ts.
 */

/** Text fields a multipart lead may have (a lead has about a dozen). */
export const MAX_FIELDS = 32;

export interface MultipartPart {
  /** The whole file as posted, at most PHOTO_RULES.maxBytes. */
  data: Buffer;
}

export type ReadMultipartResult =
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
  const bodyLimit = options.bodyBytes ?? PHOTO_RULES.maxMultipartBody;
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  const photos: MultipartPart[] = [];
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
  parser.on('file', (name, stream, info) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Nothing more is kept once the photos are refused.
      if (photoError === undefined && failure === undefined) chunks.push(chunk);
    });
    stream.on('limit', () => refusePhotos(PHOTO_SIZE_MESSAGE));
    // A body cut short (or stopped at the limit) ends the part with an error:
    // without a listener it would be thrown out of the process.
    stream.on('error', () => fail('malformed'));
    stream.on('end', () => {
      if (size === 0) return; // no file chosen
      if (name !== PHOTOS_FIELD) return fail('malformed');
      // Its name is never trusted, but a file part without one is not a photo from a form.
      if (!info.filename) return refusePhotos(PHOTO_TYPE_MESSAGE);
      if (photos.length >= PHOTO_RULES.maxCount) return refusePhotos(PHOTO_COUNT_MESSAGE);
      if (photoError === undefined && failure === undefined) {
        photos.push({ data: Buffer.concat(chunks, size) });
      }
    });
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
          return { ok: false, status: 413, reason: 'body', fields };
        }
        if (failure === 'malformed') continue; // read to the end, answer then
        if (!parser.write(value)) {
          await new Promise<void>((resolve) => {
            parser.once('drain', resolve);
            parser.once('error', () => resolve());
            parser.once('close', resolve);
          });
        }
      }
    } catch {
      parser.destroy();
      return { ok: false, status: 400, reason: 'malformed', fields };
    }
  }
  if (failure !== 'malformed') {
    parser.end();
    await finished;
  }
  if (failure)
    return { ok: false, status: failure === 'fields' ? 413 : 400, reason: failure, fields };
  return { ok: true, fields, photos, ...(photoError ? { photoError } : {}) };
}

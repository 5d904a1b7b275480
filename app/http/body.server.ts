import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import getRawBody from 'raw-body';

/**
 * The one reader of request bodies, every one within a limit: a lead's
 * (app/leads/intake/receive-lead.server.ts, through both of its doors), a
 * sign-in page's, an owner's page's form or upload
 * (app/owner/owner-page.server.ts). A body declared (Content-Length) over
 * its limit is refused before a byte is read; one that turns out longer is
 * refused at the limit, the rest left unread. Nothing here cancels or
 * destroys the request's stream: that would close a Node request's socket
 * before the 413 could be sent, so the server answers first and closes the
 * connection the careful way (server/http-server.server.ts).
 *
 * - A whole body (a form, JSON) is read by raw-body, Express's parsers' own
 *   reader, into memory: it is small.
 * - A multipart body is read by busboy: its text fields within their own
 *   limits, and the parts of one file field written to temporary files as
 *   they arrive, with backpressure, never held whole in memory
 *   (docs/decisions/0009-uploads-streamed-to-disk-with-turns.md). The caller
 *   removes them with `discard()` once it is done, whatever the outcome.
 */

/**
 * What a reader needs of a request: its headers and its body. A Web
 * Request (an Astro page's) is one as it is; a Node request (the lead
 * API's) is one with itself as the body, read by its events, without
 * copying its headers or wrapping its stream (server/lead-api.server.ts,
 * `leadRequestOf`).
 */
export interface BodyRequest {
  headers: { get(name: string): string | null };
  body: AsyncIterable<Uint8Array> | null;
}

/** A body that could not be read: 413 over its limit, 400 cut short or unreadable. */
export type BodyRefused = { ok: false; status: 400 | 413 };

export type BodyRead<T> = { ok: true; value: T } | BodyRefused;

/** The most a form post to an owner's page may hold (the longest, opening hours and facts, is a few kilobytes). */
export const FORM_LIMIT_BYTES = 64 * 1024;

/** Whether the request's declared length (Content-Length) is over `limit`. */
export function declaredOver(request: Pick<BodyRequest, 'headers'>, limit: number): boolean {
  const declared = Number(request.headers.get('content-length'));
  return Number.isFinite(declared) && declared > limit;
}

/** The body as a Node stream: a Node request as it is, anything else read as it is pulled. */
function nodeStream(body: AsyncIterable<Uint8Array>): Readable {
  return body instanceof Readable ? body : Readable.from(body, { objectMode: false });
}

/** The whole body, at most `limit` bytes. */
export async function readBytes(request: BodyRequest, limit: number): Promise<BodyRead<Buffer>> {
  if (declaredOver(request, limit)) return { ok: false, status: 413 };
  if (!request.body) return { ok: true, value: Buffer.alloc(0) };
  try {
    return { ok: true, value: await getRawBody(nodeStream(request.body), { limit }) };
  } catch (error) {
    const tooLarge = (error as { type?: unknown }).type === 'entity.too.large';
    return { ok: false, status: tooLarge ? 413 : 400 };
  }
}

/** The whole body as UTF-8 text (a byte order mark dropped), at most `limit` bytes. */
export async function readText(request: BodyRequest, limit: number): Promise<BodyRead<string>> {
  const read = await readBytes(request, limit);
  return read.ok ? { ok: true, value: new TextDecoder().decode(read.value) } : read;
}

/** A posted form's fields (application/x-www-form-urlencoded), at most `limit` bytes. */
export async function readForm(
  request: BodyRequest,
  limit = FORM_LIMIT_BYTES,
): Promise<BodyRead<URLSearchParams>> {
  const read = await readText(request, limit);
  return read.ok ? { ok: true, value: new URLSearchParams(read.value) } : read;
}

/** The first value of each field, in an object with no prototype. */
export function firstValues(fields: Iterable<[string, string]>): Record<string, string> {
  const first: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of fields) {
    if (!(name in first)) first[name] = value;
  }
  return first;
}

// ---------------------------------------------------------------------------
// Multipart

/** The limits of a multipart body: each is a refusal, or a problem of the files. */
export interface MultipartLimits {
  /** The whole body: 413 beyond, declared or streamed. */
  bodyBytes: number;
  /** The one field whose parts are files; a file part of any other is refused (400). */
  fileField: string;
  /** Files with something in them (more: `too-many`). */
  files: number;
  /** Each file (more: `too-large`, the file not kept). */
  fileBytes: number;
  /** Text fields (more: 413). */
  fields: number;
  /** The text fields' names and values together (more: 413). */
  fieldBytes: number;
}

/** A file part as posted (not yet checked in any way), in a temporary file. */
export interface UploadedFile {
  file: string;
}

/**
 * What was wrong with the files while the body was read, each once, in the
 * order found: text (or a part without a file name) where a file goes, a
 * file over its limit, more files than the limit.
 */
export type FileProblem = 'not-a-file' | 'too-large' | 'too-many';

export type MultipartRead = (
  | {
      ok: true;
      /** The text fields, in the order posted. */
      fields: URLSearchParams;
      /** The file field's parts with something in them, in order; none over its limit. */
      files: UploadedFile[];
      problems: FileProblem[];
    }
  | {
      ok: false;
      status: 400 | 413;
      /** Which limit: the body's, the text fields', or a body that could not be read. */
      reason: 'body' | 'fields' | 'malformed';
      /** The text fields read before stopping, to show them again. */
      fields: URLSearchParams;
    }
) & {
  /** Removes the temporary files; call it once done with them, whatever the outcome. */
  discard: () => Promise<void>;
};

/**
 * A folder of its own for one request's uploaded files, under the system's
 * temporary folder (the service's private /tmp under systemd), made on the
 * first file; `discard` removes it and everything in it.
 */
function uploadSpool() {
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
 * listeners left behind would pile up on the parser (the reader listens
 * for 'error' for the whole read).
 */
function writable(stream: NodeJS.EventEmitter): Promise<void> {
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

/** Reads a `multipart/form-data` body within `limits` (see MultipartLimits). */
export async function readMultipart(
  request: BodyRequest,
  limits: MultipartLimits,
): Promise<MultipartRead> {
  const spool = uploadSpool();
  try {
    return { ...(await readParts(request, limits, spool)), discard: spool.discard };
  } catch (error) {
    await spool.discard();
    throw error;
  }
}

type MultipartOutcome = MultipartRead extends infer R
  ? R extends unknown
    ? Omit<R, 'discard'>
    : never
  : never;

async function readParts(
  request: BodyRequest,
  limits: MultipartLimits,
  spool: ReturnType<typeof uploadSpool>,
): Promise<MultipartOutcome> {
  const fields = new URLSearchParams();
  if (declaredOver(request, limits.bodyBytes)) {
    return { ok: false, status: 413, reason: 'body', fields };
  }
  /** The files by their place among the file parts (undefined: none kept). */
  const slots: Array<UploadedFile | undefined> = [];
  const problems: FileProblem[] = [];
  let failure: 'fields' | 'malformed' | undefined;
  let fieldBytes = 0;

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': request.headers.get('content-type') ?? '' },
      limits: {
        fieldNameSize: 100,
        fieldSize: limits.fieldBytes,
        fields: limits.fields,
        fileSize: limits.fileBytes,
        // One more than the files: a form with no file chosen sends one empty part.
        files: limits.files + 1,
        parts: limits.fields + limits.files + 1,
        headerPairs: 20,
      },
    });
  } catch {
    // No boundary, or not multipart after all.
    return { ok: false, status: 400, reason: 'malformed', fields };
  }
  const problem = (found: FileProblem) => {
    if (!problems.includes(found)) problems.push(found);
  };
  const fail = (reason: 'fields' | 'malformed') => {
    failure ??= reason;
  };

  parser.on('field', (name, value, info) => {
    // An empty one is no file chosen (as a browser sends it, a file part; some clients, a field).
    if (name === limits.fileField) return value === '' ? undefined : problem('not-a-file');
    fieldBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
    if (info.valueTruncated || info.nameTruncated || fieldBytes > limits.fieldBytes) {
      return fail('fields');
    }
    fields.append(name, value);
  });
  // Each file part's writing to its temporary file; all are awaited before the answer.
  const writes: Array<Promise<void>> = [];
  parser.on('file', (name, stream, info) => {
    let tooLarge = false;
    stream.on('limit', () => {
      tooLarge = true;
      problem('too-large');
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
        if (name !== limits.fileField) return fail('malformed');
        // Its name is never trusted, but a file part without one is not a file from a form.
        if (!info.filename) return problem('not-a-file');
        if (tooLarge) return;
        slots[index] = { file };
      })(),
    );
  });
  parser.on('filesLimit', () => problem('too-many'));
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
  if (request.body) {
    const chunksOf = request.body[Symbol.asyncIterator]();
    try {
      for (;;) {
        const { done, value } = await chunksOf.next();
        if (done) break;
        size += value.byteLength;
        if (size > limits.bodyBytes) {
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
  if (failure) {
    return { ok: false, status: failure === 'fields' ? 413 : 400, reason: failure, fields };
  }
  const files = slots.filter((part): part is UploadedFile => part !== undefined);
  if (files.length > limits.files) problem('too-many');
  return { ok: true, fields, files, problems };
}

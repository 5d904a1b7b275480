import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../leads/testing/test-support.server.ts';
import {
  readBytes,
  readForm,
  readMultipart,
  type MultipartLimits,
  type MultipartRead,
} from './body.server.ts';

/**
 * The one body reader (body.server.ts): every limit refused without the
 * body being read whole, and never by cancelling the request's stream (a
 * Node request's socket would close before the 413 could be sent).
 */

/** A request whose body is `chunks` chunks of `size` bytes, counting what was pulled and whether it was cancelled. */
function counted(chunks: number, size: number, headers: Record<string, string> = {}) {
  const seen = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (seen.pulled === chunks) return controller.close();
        seen.pulled += 1;
        controller.enqueue(new Uint8Array(size).fill(0x61));
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request('https://glass.example.nz/admin', {
    method: 'POST',
    headers,
    body,
    duplex: 'half',
  } as RequestInit);
  return { request, seen };
}

describe('a whole body', () => {
  it('is read up to its limit', async () => {
    const post = new Request('https://glass.example.nz/', { method: 'POST', body: 'a=1&b=%C4%81' });
    const read = await readForm(post, 100);
    expect(read.ok && [...read.value]).toEqual([
      ['a', '1'],
      ['b', 'ā'],
    ]);
  });

  it('over its limit is refused 413 once the limit is passed, without being read whole or cancelled', async () => {
    const { request, seen } = counted(1000, 1024);
    expect(await readForm(request, 8 * 1024)).toEqual({ ok: false, status: 413 });
    expect(seen.pulled).toBeLessThan(20);
    expect(seen.cancelled).toBe(false);
  });

  it('declared over its limit is refused 413 at once, not a byte read', async () => {
    const { request, seen } = counted(1000, 1024, { 'content-length': String(1000 * 1024) });
    expect(await readBytes(request, 8 * 1024)).toEqual({ ok: false, status: 413 });
    expect(seen.pulled).toBe(0);
  });

  it('cut short is refused 400', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(10));
        controller.error(new Error('the client went away'));
      },
    });
    const request = { headers: new Headers(), body };
    expect(await readBytes(request, 1024)).toEqual({ ok: false, status: 400 });
  });
});

const LIMITS: MultipartLimits = {
  bodyBytes: 1024 * 1024,
  fileField: 'photo',
  files: 2,
  fileBytes: 256 * 1024,
  fields: 4,
  fieldBytes: 1024,
};
const BOUNDARY = '----glass-body-test';
const TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** A multipart body's parts: text fields, and files as [name, filename, bytes]. */
function multipart(
  fields: Array<[string, string]>,
  files: Array<[string, string, number]>,
): Buffer[] {
  const parts: Buffer[] = [];
  for (const [name, value] of fields) {
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  for (const [name, filename, bytes] of files) {
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\n` +
          'Content-Type: image/jpeg\r\n\r\n',
      ),
      Buffer.alloc(bytes, 7),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return parts;
}

/** The chunks as a request's body, 16 KiB at a time. */
function requestOf(parts: Buffer[], headers: Record<string, string> = {}) {
  const whole = Buffer.concat(parts);
  return {
    headers: new Headers({ 'content-type': TYPE, ...headers }),
    body: {
      async *[Symbol.asyncIterator]() {
        for (let at = 0; at < whole.length; at += 16 * 1024) {
          yield new Uint8Array(whole.subarray(at, at + 16 * 1024));
        }
      },
    },
  };
}

describe('a multipart body', () => {
  let spoolRoot: string;
  let savedTmp: string | undefined;
  const reads: MultipartRead[] = [];
  beforeEach(() => {
    savedTmp = process.env.TMPDIR;
    spoolRoot = mkdtempSync(path.join(tmpdir(), 'glass-body-test-'));
    process.env.TMPDIR = spoolRoot;
  });
  afterEach(async () => {
    await Promise.all(reads.splice(0).map((read) => read.discard()));
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
    rmSync(spoolRoot, { recursive: true, force: true });
  });
  const read = async (request: Parameters<typeof readMultipart>[0], limits = LIMITS) => {
    const result = await readMultipart(request, limits);
    reads.push(result);
    return result;
  };
  /** The bytes written so far to the spool's files. */
  const spooled = () =>
    readdirSync(spoolRoot, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .reduce((sum, entry) => sum + statSync(path.join(entry.parentPath, entry.name)).size, 0);

  it('gives its fields and files, each file in a temporary file that discard removes', async () => {
    const result = await read(
      requestOf(
        multipart(
          [
            ['service', 'windows'],
            ['service', 'doors'],
          ],
          [['photo', 'a.jpg', 100_000]],
        ),
      ),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.fields.getAll('service')).toEqual(['windows', 'doors']);
    expect(result.files.map((file) => statSync(file.file).size)).toEqual([100_000]);
    expect(result.problems).toEqual([]);
    await result.discard();
    expect(spooled()).toBe(0);
  });

  it('streams a file to disk as it arrives, before the body has ended', async () => {
    const parts = multipart([], [['photo', 'a.jpg', 200 * 1024]]);
    const head = Buffer.concat(parts.slice(0, 1));
    const request = {
      headers: new Headers({ 'content-type': TYPE }),
      body: {
        async *[Symbol.asyncIterator]() {
          yield new Uint8Array(head);
          yield new Uint8Array(150 * 1024).fill(7);
          // The body goes on only once most of what came is on disk.
          await eventually(() => expect(spooled()).toBeGreaterThanOrEqual(100 * 1024), 10_000);
          yield new Uint8Array(50 * 1024).fill(7);
          yield new Uint8Array(Buffer.concat(parts.slice(2)));
        },
      },
    };
    const result = await read(request);
    expect(result.ok && result.files.map((file) => statSync(file.file).size)).toEqual([200 * 1024]);
  });

  it('over its limit is refused 413 at the limit, without being read whole or cancelled', async () => {
    const { request, seen } = counted(10_000, 1024, { 'content-type': TYPE });
    const result = await read(request);
    expect(result).toMatchObject({ ok: false, status: 413, reason: 'body' });
    expect(seen.pulled).toBeLessThan(LIMITS.bodyBytes / 1024 + 20);
    expect(seen.cancelled).toBe(false);
  });

  it('declared over its limit is refused 413 at once, not a byte read', async () => {
    const { request, seen } = counted(10_000, 1024, {
      'content-type': TYPE,
      'content-length': String(10_000 * 1024),
    });
    expect(await read(request)).toMatchObject({ ok: false, status: 413, reason: 'body' });
    expect(seen.pulled).toBe(0);
  });

  it('names what was wrong with the files, in the order found, and keeps none over its limit', async () => {
    const result = await read(
      requestOf(
        multipart(
          [['photo', 'not a file']],
          [
            ['photo', 'a.jpg', 300 * 1024],
            ['photo', 'b.jpg', 10],
            ['photo', 'c.jpg', 10],
            ['photo', 'd.jpg', 10],
          ],
        ),
      ),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.problems).toEqual(['not-a-file', 'too-large', 'too-many']);
    expect(result.files).toHaveLength(2);
  });

  it('refuses text fields over their limits with 413, and a file in another field with 400', async () => {
    const long = await read(requestOf(multipart([['note', 'x'.repeat(2000)]], [])));
    expect(long).toMatchObject({ ok: false, status: 413, reason: 'fields' });
    const many = await read(
      requestOf(
        multipart(
          Array.from({ length: 6 }, (_, at): [string, string] => [`f${at}`, 'v']),
          [],
        ),
      ),
    );
    expect(many).toMatchObject({ ok: false, status: 413, reason: 'fields' });
    const elsewhere = await read(requestOf(multipart([], [['other', 'a.jpg', 10]])));
    expect(elsewhere).toMatchObject({ ok: false, status: 400, reason: 'malformed' });
  });

  it('refuses a body that is not multipart with 400', async () => {
    const request = { headers: new Headers({ 'content-type': 'multipart/form-data' }), body: null };
    expect(await read(request)).toMatchObject({ ok: false, status: 400, reason: 'malformed' });
  });
});

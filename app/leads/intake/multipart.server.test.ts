import { statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { readLeadMultipart, type ReadMultipartResult } from './multipart.server.ts';

/** A multipart body with one `photos` part of `bytes` bytes, in chunks of `chunk` bytes. */
function chunkedBody(bytes: number, chunk: number) {
  const boundary = '----glass-multipart-test';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nMere\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="photos"; filename="a.jpg"\r\n` +
      'Content-Type: image/jpeg\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const whole = Buffer.concat([head, Buffer.alloc(bytes, 7), tail]);
  return {
    headers: new Headers({ 'content-type': `multipart/form-data; boundary=${boundary}` }),
    body: {
      async *[Symbol.asyncIterator]() {
        for (let at = 0; at < whole.length; at += chunk) {
          yield new Uint8Array(whole.subarray(at, at + chunk));
        }
      },
    },
  };
}

describe('reading a multipart body', () => {
  let read: ReadMultipartResult | undefined;
  afterEach(async () => {
    await read?.discard();
  });

  it('waits for the parser thousands of times and leaves no listener behind', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      read = await readLeadMultipart(chunkedBody(4 * 1024 * 1024, 512), { fieldBytes: 16 * 1024 });
      // Warnings are emitted on a later turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(read.ok).toBe(true);
    if (read.ok) {
      expect(read.photos.map((photo) => statSync(photo.file).size)).toEqual([4 * 1024 * 1024]);
    }
    expect(warnings.map((warning) => warning.name)).not.toContain('MaxListenersExceededWarning');
  });
});

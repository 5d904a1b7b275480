import type { AddressInfo } from 'node:net';
import net from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpServer, type ClientTimeLimits } from './http-server.server.ts';
import { UPLOAD_BUSY_MESSAGE, uploadSlots } from './upload-slots.server.ts';

/**
 * Turns for uploads (docs/operations.md#photos-with-an-enquiry): at most
 * `slots` are read at once; another waits unread, with its time limit
 * standing still, and is answered 503 with Retry-After when no turn comes.
 */

const limits: ClientTimeLimits = {
  headersMs: 5_000,
  requestMs: 5_000,
  // Short windows, so a held clock is what keeps a waiting upload alive.
  upload: { minBytesPerSecond: 1024, windowMs: 300 },
  lingerMs: 5_000,
  keepAliveMs: 5_000,
  checkEveryMs: 100,
};

let server: ReturnType<typeof createHttpServer> | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A route that reads an upload to its end and says how many bytes it got. */
async function start(turns: ReturnType<typeof uploadSlots>) {
  const app = express();
  app.post('/upload', turns(), async (req, res) => {
    let size = 0;
    for await (const chunk of req) size += (chunk as Buffer).length;
    res.json({ size });
  });
  server = createHttpServer(app, limits);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** An upload whose body is sent only when `send()` is called; its answer once it comes. */
function upload(port: number, bytes = 4096) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  socket.write(
    `POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n` +
      `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${bytes}\r\n\r\n`,
  );
  const answer = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  return {
    send: () => socket.write(Buffer.alloc(bytes, 0x61)),
    /** Sends the body steadily, 512 bytes every 50 ms (10 KiB/s). */
    trickle() {
      let sent = 0;
      const timer = setInterval(() => {
        if (sent >= bytes || !socket.writable) return clearInterval(timer);
        socket.write(Buffer.alloc(Math.min(512, bytes - sent), 0x61));
        sent += 512;
      }, 50);
    },
    answer,
  };
}

describe('turns for uploads', () => {
  it('one at a time: the second waits unread past its time limit, and is read once the first is done', async () => {
    const port = await start(uploadSlots({ slots: 1, waitMs: 10_000 }));
    // The first takes 1.6 s, steadily: the second waits, unread, for more
    // than five of its upload windows, its clock held.
    const first = upload(port, 16 * 1024);
    first.trickle();
    // Larger than what the connection's buffers take: most of it waits.
    const second = upload(port, 4 * 1024 * 1024);
    second.send();
    expect(await first.answer).toMatch(/^HTTP\/1\.1 200 [\s\S]*\{"size":16384\}$/);
    expect(await second.answer).toMatch(/^HTTP\/1\.1 200 [\s\S]*\{"size":4194304\}$/);
  });

  it('no turn within the wait: 503 with Retry-After, unread; the next one is read', async () => {
    const port = await start(uploadSlots({ slots: 1, waitMs: 200, retryAfterS: 30 }));
    const first = upload(port, 8192);
    first.trickle();
    const second = upload(port);
    const refused = await second.answer;
    expect(refused).toMatch(/^HTTP\/1\.1 503 /);
    expect(refused).toMatch(/^Retry-After: 30$/im);
    expect(refused).toContain(UPLOAD_BUSY_MESSAGE);
    expect(await first.answer).toMatch(/^HTTP\/1\.1 200 /);
    const third = upload(port);
    third.send();
    expect(await third.answer).toMatch(/^HTTP\/1\.1 200 /);
  });
});

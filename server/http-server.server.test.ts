import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAD_BODY_LIMIT_BYTES } from '../app/leads/intake/receive-lead.server.ts';
import { eventually } from '../app/leads/testing/test-support.server.ts';
import {
  CLIENT_TIME_LIMITS,
  createHttpServer,
  type ClientTimeLimits,
} from './http-server.server.ts';
import { startTestSite, type TestSite } from './testing/site-test-support.server.ts';

describe('time limits on slow clients', () => {
  it('give a 16 KiB form post from a slow phone room, and drop a trickle within seconds', () => {
    const server = createHttpServer(() => undefined);
    expect(server.headersTimeout).toBe(CLIENT_TIME_LIMITS.headersMs);
    expect(server.keepAliveTimeout).toBe(CLIENT_TIME_LIMITS.keepAliveMs);
    // The largest post and 2 KiB of headers at 5 kbit/s, far below a 2G phone's upload.
    const slowPhoneMs = (((LEAD_BODY_LIMIT_BYTES + 2048) * 8) / 5_000) * 1000;
    expect(CLIENT_TIME_LIMITS.requestMs).toBeGreaterThanOrEqual(slowPhoneMs);
    // Node's own limits are 60 s for headers and 300 s for a request, looked at every 30 s.
    expect(CLIENT_TIME_LIMITS.headersMs + CLIENT_TIME_LIMITS.checkEveryMs).toBeLessThanOrEqual(
      15_000,
    );
    expect(CLIENT_TIME_LIMITS.requestMs + CLIENT_TIME_LIMITS.checkEveryMs).toBeLessThanOrEqual(
      60_000,
    );
  });

  describe('300 connections trickling their headers', () => {
    // The same server with limits short enough for a test; the limits above
    // are checked on their own. A ceiling the trickles must outlast while the
    // visitor is answered, so a loaded machine has seconds for that request.
    const limits: ClientTimeLimits = {
      headersMs: 5_000,
      requestMs: 6_000,
      upload: { minBytesPerSecond: 1024, windowMs: 2_000 },
      lingerMs: 5_000,
      keepAliveMs: 5_000,
      checkEveryMs: 250,
    };
    const COUNT = 300;
    let site: TestSite;

    beforeAll(async () => {
      site = await startTestSite({}, (app) => createHttpServer(app, limits));
    });
    afterAll(() => site.close());

    /** A client that starts a request and then sends its headers a byte every 100 ms, never finishing. */
    function trickler(port: number) {
      const socket = net.connect(port, '127.0.0.1');
      let answer = '';
      let open = true;
      const closed = new Promise<string>((resolve) => {
        socket.on('close', () => {
          open = false;
          clearInterval(timer);
          resolve(answer);
        });
      });
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
      socket.on('error', () => undefined);
      socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      const header = 'X-Slow: a\r\n';
      let sent = 0;
      const timer = setInterval(() => {
        if (socket.writable) socket.write(header[sent++ % header.length]!);
      }, 100);
      return { closed, isOpen: () => open };
    }

    it('the site answers a visitor while they trickle, and closes each with a 408 once its limit passes', async () => {
      const port = Number(new URL(site.url).port);
      const clients = Array.from({ length: COUNT }, () => trickler(port));
      await eventually(async () => {
        const connections = await new Promise<number>((resolve, reject) =>
          site.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
        );
        expect(connections).toBe(COUNT);
      });

      const page = await fetch(`${site.url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>Home</title>');
      // Answered while every slow client still held its connection.
      expect(clients.filter((client) => client.isOpen())).toHaveLength(COUNT);

      const answers = await Promise.all(clients.map((client) => client.closed));
      for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    });
  });

  it('give a 20 MB job photo from a phone on a weak connection its time', () => {
    const { minBytesPerSecond, windowMs } = CLIENT_TIME_LIMITS.upload;
    // 20 MiB at 1 Mbit/s takes about 3 minutes; the whole-request limit would end it at 30 s.
    const phoneBytesPerSecond = 1_000_000 / 8;
    expect(minBytesPerSecond).toBeLessThanOrEqual(phoneBytesPerSecond / 10);
    // A stalled upload is ended within a window (and one look).
    expect(windowMs + CLIENT_TIME_LIMITS.checkEveryMs).toBeLessThanOrEqual(30_000);
  });

  describe('uploads: ended when they stop arriving, not after a total time', () => {
    // The same rules with limits short enough for a test: a form post has
    // 1.5 s; an upload must bring 2 KiB every 2 s.
    const limits: ClientTimeLimits = {
      headersMs: 1_000,
      requestMs: 1_500,
      upload: { minBytesPerSecond: 1024, windowMs: 2_000 },
      lingerMs: 5_000,
      keepAliveMs: 5_000,
      checkEveryMs: 250,
    };
    let site: TestSite;
    let port: number;
    beforeAll(async () => {
      site = await startTestSite({ LEAD_RATE_LIMIT: '1000' }, (app) =>
        createHttpServer(app, limits),
      );
      port = Number(new URL(site.url).port);
    });
    afterAll(() => site.close());

    const BOUNDARY = 'slow-phone';
    async function photoLead(): Promise<Buffer> {
      // A photo of noise: about 150 KB of JPEG.
      const noise = randomBytes(300 * 300 * 3);
      const photo = await sharp(noise, { raw: { width: 300, height: 300, channels: 3 } })
        .jpeg({ quality: 95 })
        .toBuffer();
      const fields = {
        name: 'Tama Wilson',
        email: 'tama@example.nz',
        phone: '027 555 0199',
        service: 'Windows',
        message: 'A photo of the cracked pane.',
        source: 'quote_form',
      };
      const parts = Object.entries(fields).map(
        ([name, value]) =>
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      );
      return Buffer.concat([
        Buffer.from(parts.join('')),
        Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="photos"; filename="pane.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
        ),
        photo,
        Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
      ]);
    }

    /**
     * Posts `body` over a raw socket, `piece` bytes every `everyMs` (none
     * after `stopAt` bytes); resolves with the answer once the connection ends.
     */
    function throttledPost(
      path: string,
      type: string,
      body: Buffer,
      pace: { piece: number; everyMs: number; stopAt?: number },
    ): Promise<{ answer: string; sentMs: number; sent: number }> {
      const socket = net.connect(port, '127.0.0.1');
      const started = Date.now();
      let answer = '';
      let sent = 0;
      let sentMs = 0;
      const stopAt = pace.stopAt ?? body.length;
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
      socket.on('error', () => undefined);
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n` +
          `Content-Type: ${type}\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      const timer = setInterval(() => {
        if (sent >= stopAt || !socket.writable) return clearInterval(timer);
        const piece = body.subarray(sent, Math.min(sent + pace.piece, stopAt));
        socket.write(piece);
        sent += piece.length;
        sentMs = Date.now() - started;
      }, pace.everyMs);
      return new Promise((resolve) =>
        socket.on('close', () => {
          clearInterval(timer);
          resolve({ answer, sentMs, sent });
        }),
      );
    }

    it('a slow but steady upload takes longer than the whole-request limit, and is accepted', async () => {
      const body = await photoLead();
      // About 20 KiB/s (160 kbit/s): several times the form post's 1.5 s.
      const result = await throttledPost(
        '/api/leads',
        `multipart/form-data; boundary=${BOUNDARY}`,
        body,
        {
          piece: 2 * 1024,
          everyMs: 100,
        },
      );
      expect(result.sentMs).toBeGreaterThan(2 * limits.requestMs);
      expect(result.sent).toBe(body.length);
      expect(result.answer).toMatch(/^HTTP\/1\.1 201 /);
    });

    it('a stalled upload is ended with a 408', async () => {
      const body = await photoLead();
      const result = await throttledPost(
        '/api/leads',
        `multipart/form-data; boundary=${BOUNDARY}`,
        body,
        {
          piece: 8 * 1024,
          everyMs: 50,
          stopAt: 32 * 1024,
        },
      );
      expect(result.sent).toBe(32 * 1024);
      expect(result.answer).toMatch(/^HTTP\/1\.1 408 /);
    });

    it('a form post (not an upload) still has the whole-request limit', async () => {
      const body = Buffer.from(`name=${'a'.repeat(8 * 1024)}`);
      const result = await throttledPost('/api/leads', 'application/x-www-form-urlencoded', body, {
        piece: 256,
        everyMs: 100,
      });
      expect(result.sent).toBeLessThan(body.length);
      expect(result.answer).toMatch(/^HTTP\/1\.1 408 /);
    });
  });

  describe('an answer given before the body is in', () => {
    const limits: ClientTimeLimits = {
      headersMs: 1_000,
      requestMs: 1_500,
      upload: { minBytesPerSecond: 1024, windowMs: 2_000 },
      lingerMs: 1_000,
      keepAliveMs: 5_000,
      checkEveryMs: 250,
    };
    let server: ReturnType<typeof createHttpServer>;
    let port: number;
    beforeAll(async () => {
      // Refuses every post at once, without reading it (as a 429 over the limit is).
      server = createHttpServer((_req, res) => {
        res.writeHead(429, { 'Content-Type': 'text/plain', 'Retry-After': '60' });
        res.end('Too many requests.');
      }, limits);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    /**
     * Sends a declared 8 MiB upload in 64 KiB pieces every `everyMs`; the
     * answer and how it ended. `stubborn`: the client goes on sending after
     * the server's side has ended.
     */
    function post(everyMs: number, stubborn = false) {
      const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: stubborn });
      const total = 8 * 1024 * 1024;
      let answer = '';
      let sent = 0;
      let ending = 'end';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
      socket.on('error', (error: NodeJS.ErrnoException) => (ending = error.code ?? 'error'));
      socket.write(
        `POST /api/leads HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
          `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${total}\r\n\r\n`,
      );
      const started = Date.now();
      const timer = setInterval(() => {
        if (sent >= total || !socket.writable) return clearInterval(timer);
        socket.write(Buffer.alloc(64 * 1024, 0x61));
        sent += 64 * 1024;
      }, everyMs);
      return new Promise<{ answer: string; ending: string; sent: number; ms: number }>((resolve) =>
        socket.on('close', () => {
          clearInterval(timer);
          resolve({ answer, ending, sent, ms: Date.now() - started });
        }),
      );
    }

    it('says Connection: close, and ends so the client reads the answer, not a reset', async () => {
      for (let round = 0; round < 5; round++) {
        const result = await post(1);
        expect(result.answer).toMatch(/^HTTP\/1\.1 429 /);
        expect(result.answer).toMatch(/^Connection: close$/im);
        expect(result.ending).toBe('end');
      }
    });

    it('takes the rest from a client that goes on sending no longer than lingerMs', async () => {
      // 64 KiB every 200 ms, 320 KiB/s: within the upload's pace, 26 s for all of it.
      const result = await post(200, true);
      expect(result.answer).toMatch(/^HTTP\/1\.1 429 /);
      expect(result.sent).toBeGreaterThan(64 * 1024);
      expect(result.sent).toBeLessThan(8 * 1024 * 1024);
      expect(result.ms).toBeLessThan(limits.lingerMs + 5_000);
    });
  });
});

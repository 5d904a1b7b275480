import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAD_BODY_LIMIT_BYTES } from '../app/leads/intake/receive-lead.server.ts';
import { eventually } from '../app/leads/testing/test-support.server.ts';
import {
  CLIENT_TIME_LIMITS,
  createHttpServer,
  type ClientTimeLimits,
} from './http-server.server.ts';
import { startTestSite, type TestSite } from './site-test-support.server.ts';

describe('time limits on slow clients', () => {
  it('give a 16 KiB form post from a slow phone room, and drop a trickle within seconds', () => {
    const server = createHttpServer(() => undefined);
    expect(server.headersTimeout).toBe(CLIENT_TIME_LIMITS.headersMs);
    expect(server.requestTimeout).toBe(CLIENT_TIME_LIMITS.requestMs);
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
});

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { openStore } from '../app/db/open-store.server.ts';
import { ownerSessions, sessionCookie } from '../app/owner/sessions.server.ts';
import { freePort } from './support/free-port.ts';
import {
  attachServerLogsOnFailure,
  startSiteServer,
  tempDataDir,
  type SiteServer,
} from './support/lead-server.ts';

/**
 * Uploads against the production server as a process
 * (docs/operations.md#photos-with-an-enquiry, "Time limits"): a post the
 * server will refuse is answered before its body is read, and uploads are
 * never held whole in memory, measured as the server process's resident
 * memory (VmRSS in /proc) while eight 30 MB posts arrive at once.
 */

test.describe.configure({ timeout: 10 * 60_000 });
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

const MB = 1024 * 1024;
/** What eight parallel 30 MB posts may add to the server's memory at most. */
const MEMORY_BUDGET_KB = 96 * 1024;

/** The server process's resident memory, in kB. */
function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]);
}

/** Samples a process's resident memory until stopped; gives the highest seen. */
function watchMemory(pid: number) {
  let peak = rssKb(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssKb(pid));
    } catch {
      // The process has gone; the test says why.
    }
  }, 20);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

const BOUNDARY = '----glass-upload-test';

/** A contact form's multipart body: its fields, then photo parts of `photoBytes` each. */
function multipartBody(
  fields: Record<string, string>,
  photos: number,
  photoBytes: number,
  field = 'photos',
): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  for (let index = 0; index < photos; index++) {
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="p${index}.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
    );
    // Begins as a JPEG does, and is none.
    const bytes = randomBytes(photoBytes);
    bytes.set([0xff, 0xd8, 0xff, 0xe0]);
    parts.push(bytes, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}

const ENQUIRY = {
  form: 'contact_form',
  name: 'Tama Wilson',
  email: 'tama@example.nz',
  phone: '027 555 0199',
  service: 'Pool Fence',
  message: 'Photos attached.',
};

interface RawAnswer {
  /** The status of the answer, or 0 when the connection closed without one. */
  status: number;
  /** Milliseconds from the first byte sent to the status line. */
  ms: number;
  head: string;
}

/**
 * A POST over a raw socket: its headers, then `body` (or only its first
 * `send` bytes, after which the client waits), declaring `declared` bytes.
 * Resolves on the answer's status line, or on the connection's end.
 */
function rawPost(
  url: string,
  path: string,
  body: Buffer,
  options: { send?: number; declared?: number; headers?: Record<string, string> } = {},
): Promise<RawAnswer> {
  const { port } = new URL(url);
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let received = '';
    let done = false;
    const finish = (status: number) => {
      if (done) return;
      done = true;
      resolve({ status, ms: Date.now() - started, head: received.split('\r\n\r\n')[0] ?? '' });
      socket.destroy();
    };
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (received.includes('\r\n\r\n')) {
        finish(Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0));
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => finish(Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0)));
    const extra = Object.entries(options.headers ?? {})
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${new URL(url).host}\r\n` +
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
        `Content-Length: ${options.declared ?? body.length}\r\n${extra}\r\n`,
    );
    const sent = body.subarray(0, options.send ?? body.length);
    // Written in pieces, so the server reads it as it arrives.
    const write = (at: number) => {
      if (done || at >= sent.length) return;
      const piece = sent.subarray(at, at + 256 * 1024);
      if (socket.write(piece)) setImmediate(() => write(at + piece.length));
      else socket.once('drain', () => write(at + piece.length));
    };
    write(0);
  });
}

/** Uses up a client's LEAD_RATE_LIMIT of 1 with one small, invalid post. */
async function useUpAllowance(server: SiteServer) {
  const first = await fetch(`${server.url}/api/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  expect(first.status).toBe(400);
}

/** Eight 30 MB posts at once; the peak rise of the server's memory, and their statuses. */
async function eightAtOnce(server: SiteServer, path: string, headers: Record<string, string> = {}) {
  const pid = server.process.pid!;
  // One small upload first, as a server that has served a while has: the
  // image library is loaded (its code and threads, once per process).
  await rawPost(server.url, path, multipartBody(ENQUIRY, 1, 64 * 1024), { headers });
  // Three photo parts of 10 MB less a little: a 30 MB body within every limit.
  const bodies = Array.from({ length: 8 }, () => multipartBody(ENQUIRY, 3, 10 * MB - 4096));
  expect(bodies[0]!.length).toBeGreaterThan(29 * MB);
  const before = rssKb(pid);
  const memory = watchMemory(pid);
  const answers = await Promise.all(
    bodies.map((body) => rawPost(server.url, path, body, { headers })),
  );
  const peak = memory.stop();
  return { rise: peak - before, before, peak, statuses: answers.map((answer) => answer.status) };
}

test.describe('a post from a client over LEAD_RATE_LIMIT', () => {
  let server: SiteServer;
  let data: { dir: string; remove(): void };
  test.beforeAll(async () => {
    data = tempDataDir();
    server = await startSiteServer({ DATA_DIR: data.dir, LEAD_RATE_LIMIT: '1' });
    await useUpAllowance(server);
  });
  test.afterAll(async () => {
    await server?.stop();
    data?.remove();
  });

  for (const path of ['/api/leads', '/quote']) {
    test(`to ${path}: a declared 30 MB post that sends only 64 KB gets its 429 within 3 s`, async () => {
      const body = multipartBody(ENQUIRY, 3, 10 * MB - 4096);
      const answer = await rawPost(server.url, path, body, { send: 64 * 1024 });
      expect(answer.status, answer.head).toBe(429);
      expect(answer.head).toMatch(/^Retry-After: \d+$/im);
      expect(answer.head).toMatch(/^Connection: close$/im);
      expect(answer.ms).toBeLessThan(3000);
    });
  }

  test('eight parallel 30 MB posts are all refused, and raise the memory by at most 96 MB', async () => {
    const { rise, before, peak, statuses } = await eightAtOnce(server, '/api/leads');
    console.log(`over the limit: VmRSS ${before} kB before, ${peak} kB at most: +${rise} kB`);
    expect(statuses).toEqual(Array(8).fill(429));
    expect(rise).toBeLessThanOrEqual(MEMORY_BUDGET_KB);
  });
});

test('a declared length over the limit is answered 413 before the body is read', async () => {
  const data = tempDataDir();
  const server = await startSiteServer({ DATA_DIR: data.dir });
  try {
    for (const path of ['/api/leads', '/contact']) {
      const answer = await rawPost(server.url, path, Buffer.alloc(64 * 1024, 0x61), {
        send: 64 * 1024,
        declared: 40 * MB,
      });
      expect(answer.status, `${path}: ${answer.head}`).toBe(413);
      expect(answer.ms).toBeLessThan(3000);
    }
  } finally {
    await server.stop();
    data.remove();
  }
});

test('eight parallel 30 MB posts within the limit are each answered, and raise the memory by at most 96 MB', async () => {
  const data = tempDataDir();
  const server = await startSiteServer({ DATA_DIR: data.dir, LEAD_RATE_LIMIT: '1000' });
  try {
    const { rise, before, peak, statuses } = await eightAtOnce(server, '/api/leads');
    console.log(`within the limit: VmRSS ${before} kB before, ${peak} kB at most: +${rise} kB`);
    // Each photo begins as a JPEG and is none: refused, nothing stored.
    expect(statuses).toEqual(Array(8).fill(400));
    expect(rise).toBeLessThanOrEqual(MEMORY_BUDGET_KB);
  } finally {
    await server.stop();
    data.remove();
  }
});

test.describe("the owner's job-photo upload", () => {
  let server: SiteServer;
  let data: { dir: string; remove(): void };
  let cookie: string;
  let origin: string;
  test.beforeAll(async () => {
    data = tempDataDir();
    const port = await freePort();
    origin = `http://localhost:${port}`;
    server = await startSiteServer({ DATA_DIR: data.dir, SITE_URL: origin, PORT: String(port) });
    const store = await openStore({ dataDir: data.dir });
    try {
      const { owner } = await store.addOwner('kiri@glass.example.nz', new Date().toISOString());
      const session = await ownerSessions(store).create(owner.id);
      cookie = `${sessionCookie(origin).name}=${session}`;
    } finally {
      await store.close();
    }
  });
  test.afterAll(async () => {
    await server?.stop();
    data?.remove();
  });

  const photoFields = {
    service: 'windows',
    alt: 'A new lounge window in Bethlehem',
    caption: '',
    revision: '0',
  };

  test('a declared length over the limit is answered 413 before the body is read', async () => {
    const answer = await rawPost(server.url, '/admin/site/photos', Buffer.alloc(64 * 1024), {
      send: 64 * 1024,
      declared: 40 * MB,
      headers: { cookie, origin },
    });
    expect(answer.status, answer.head).toBe(413);
    expect(answer.ms).toBeLessThan(3000);
  });

  test('eight parallel 20 MB uploads raise the memory by at most 96 MB', async () => {
    const pid = server.process.pid!;
    // One small upload first: the image library is loaded, as on a server that has served a while.
    await rawPost(
      server.url,
      '/admin/site/photos',
      multipartBody(photoFields, 1, 64 * 1024, 'photo'),
      {
        headers: { cookie, origin },
      },
    );
    const bodies = Array.from({ length: 8 }, () =>
      multipartBody(photoFields, 1, 20 * MB - 4096, 'photo'),
    );
    const before = rssKb(pid);
    const memory = watchMemory(pid);
    const answers = await Promise.all(
      bodies.map((body) =>
        rawPost(server.url, '/admin/site/photos', body, { headers: { cookie, origin } }),
      ),
    );
    const peak = memory.stop();
    console.log(`job photos: VmRSS ${before} kB before, ${peak} kB at most: +${peak - before} kB`);
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(400));
    expect(peak - before).toBeLessThanOrEqual(MEMORY_BUDGET_KB);
  });

  test('with 60 photos in the draft, an upload is refused before it is read or stored', async () => {
    const store = await openStore({ dataDir: data.dir });
    try {
      const ownerId = (await store.findOwnerByEmail('kiri@glass.example.nz'))?.id ?? null;
      const photo = await sharp({
        create: { width: 32, height: 24, channels: 3, background: '#4a7d8c' },
      })
        .jpeg()
        .toBuffer();
      const list = [];
      for (let index = 0; index < 60; index++) {
        const stored = await store.addSitePhoto({
          bytes: new Uint8Array(photo),
          width: 32,
          height: 24,
          ownerId,
        });
        list.push({
          photoId: stored.id,
          service: 'windows' as const,
          alt: `Job photo number ${index}`,
        });
      }
      const draft = (await store.siteContentDraft()).jobPhotos;
      const saved = await store.saveSiteContentSection('jobPhotos', list, draft.revision, ownerId);
      expect(saved.saved).toBe(true);
    } finally {
      await store.close();
    }
    const body = multipartBody(photoFields, 1, 20 * MB - 4096, 'photo');
    const answer = await rawPost(server.url, '/admin/site/photos', body, {
      send: 64 * 1024,
      headers: { cookie, origin },
    });
    expect(answer.status, answer.head).toBe(400);
    expect(answer.ms).toBeLessThan(3000);
  });
});

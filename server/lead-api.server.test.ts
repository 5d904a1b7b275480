import http from 'node:http';
import sharp from 'sharp';
import { webhookTargets } from '../app/leads/delivery/webhooks.server.ts';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import {
  createLeadService,
  type LeadService,
  type SubmitContext,
} from '../app/leads/lead-service.server.ts';
import { createProofOfWork } from '../app/leads/intake/proof-of-work.server.ts';
import {
  INVALID_EMAIL_MESSAGE,
  REQUIRED_FIELDS_MESSAGE,
  SUBMIT_FAILED_MESSAGE,
  UNEXPECTED_ERROR_MESSAGE,
} from '../app/leads/intake/schema.ts';
import { openSqliteStore } from '../app/db/store-sqlite.server.ts';
import type { AppStore } from '../app/db/store.server.ts';
import {
  silentLogger,
  startReceiver,
  tempDataDir,
  type Receiver,
  sqliteHarness,
  STORE_BACKENDS,
} from '../app/leads/testing/test-support.server.ts';
import {
  API_ERROR_MESSAGES,
  isAllowedOrigin,
  readLeadRequest,
} from '../app/leads/intake/receive-lead.server.ts';
import {
  createLeadApiRouter,
  createLeadRateLimiter,
  isRateLimited,
  leadGuards,
} from './lead-api.server.ts';

const SITE_URL = 'https://www.glass.example.nz';
const lead = {
  name: 'Aroha Ngata',
  email: 'aroha@example.co.nz',
  phone: '021 555 0101',
  service: 'Windows',
  message: 'Cracked pane',
  source: 'contact_form',
};

interface TestApi {
  url: string;
  close(): Promise<void>;
}

async function listen(app: express.Express): Promise<TestApi> {
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/leads`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function apiApp(service: LeadService, rateLimit = 1000): express.Express {
  const app = express();
  app.use(
    '/api/leads',
    createLeadApiRouter({ service, rateLimit, siteUrl: SITE_URL, logger: silentLogger() }),
  );
  return app;
}

const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/** A raw request, for bodies fetch will not send as-is (chunked, no content type). */
function rawPost(
  url: string,
  body: Buffer | string,
  headers: Record<string, string>,
  chunked = false,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
      );
    });
    request.on('error', reject);
    if (chunked) {
      // No Content-Length: the limit must hold while streaming.
      const data = Buffer.from(body);
      for (let offset = 0; offset < data.length; offset += 4096) {
        request.write(data.subarray(offset, offset + 4096));
      }
      request.end();
    } else {
      request.end(body);
    }
  });
}

describe('POST /api/leads', () => {
  let data: ReturnType<typeof tempDataDir>;
  let store: AppStore;
  let hook: Receiver;
  let api: TestApi;

  beforeEach(async () => {
    data = tempDataDir('lead-api-');
    store = await openSqliteStore({ dataDir: data.dir });
    hook = await startReceiver('ok');
    const service = createLeadService({
      store,
      targets: webhookTargets([hook.url]),
      acceptMode: 'delivered',
      timeoutMs: 1000,
      logger: silentLogger(),
    });
    api = await listen(apiApp(service));
  });

  afterEach(async () => {
    await api.close();
    await hook.close();
    await store.close();
    data.remove();
  });

  it('201: accepts a JSON lead and answers { id, created_at }', async () => {
    const response = await postJson(api.url, lead);
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as { id: string; created_at: string };
    expect(Object.keys(body).sort()).toEqual(['created_at', 'id']);
    const stored = await store.getLead(body.id);
    expect(stored).toEqual(
      expect.objectContaining({ status: 'accepted', created_at: body.created_at }),
    );
    expect(hook.requests[0]?.json).toEqual(expect.objectContaining({ id: body.id, ...lead }));
  });

  it('201: accepts a form-encoded lead (forms without JavaScript)', async () => {
    const response = await fetch(api.url, {
      method: 'POST',
      body: new URLSearchParams({ ...lead, source: 'quote_form' }),
    });
    expect(response.status).toBe(201);
    expect(await store.exportLeads()).toEqual([
      expect.objectContaining({ source: 'quote_form', email: lead.email }),
    ]);
  });

  it("201 and 400 for a form's fields named by `form` (the form's script), in the form's terms", async () => {
    const callback = {
      firstName: 'Aroha',
      lastName: 'Ngata',
      email: 'aroha@example.co.nz',
      phone: '021 555 0101',
      postcode: '3110',
      serviceType: 'Home Glass',
      form: 'hero_form',
    };
    const form = (fields: Record<string, string>) =>
      fetch(api.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      });
    const accepted = await form(callback);
    expect(accepted.status).toBe(201);
    expect(await accepted.json()).toEqual({
      id: expect.any(String),
      created_at: expect.any(String),
    });
    const refused = await form({ ...callback, postcode: '31 10 31 10 31' });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { fields: object }).fields).toHaveProperty('postcode');
    const [lead] = await store.exportLeads();
    expect(lead).toMatchObject({ name: 'Aroha Ngata', source: 'hero_form' });
  });

  it('200: the same idempotency key answers the first answer again', async () => {
    const keyed = { ...lead, idempotency_key: 'api-dup-key-1' };
    const first = await postJson(api.url, keyed);
    const second = await postJson(api.url, keyed);
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual(await first.json());
    expect(hook.requests).toHaveLength(1);
    expect(await store.exportLeads()).toHaveLength(1);
  });

  it('400: a validation rule fails, with the visitor message and the fields', async () => {
    const response = await postJson(api.url, { ...lead, email: 'aroha-at-example' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: INVALID_EMAIL_MESSAGE,
      fields: { email: INVALID_EMAIL_MESSAGE },
    });
    const empty = await postJson(api.url, {});
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { error: string }).error).toBe(REQUIRED_FIELDS_MESSAGE);
    expect(await store.exportLeads()).toEqual([]);
  });

  it('400: malformed JSON, a JSON scalar, an empty body', async () => {
    for (const body of ['{"name": "x",', '"just a string"', '42', 'null', '']) {
      const response = await fetch(api.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(response.status, body).toBe(400);
      const json = (await response.json()) as { error: string; fields: object };
      expect(json.fields).toEqual(expect.any(Object));
      expect(typeof json.error).toBe('string');
    }
    const malformed = await fetch(api.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{oops',
    });
    expect(await malformed.json()).toEqual({ error: API_ERROR_MESSAGES.malformed, fields: {} });
  });

  it('403: a cross-origin post is refused', async () => {
    const evil = await postJson(api.url, lead, { origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(await evil.json()).toEqual({ error: API_ERROR_MESSAGES.crossOrigin });
    const opaque = await postJson(api.url, lead, { origin: 'null' });
    expect(opaque.status).toBe(403);
    const fetchSite = await postJson(api.url, lead, { 'sec-fetch-site': 'cross-site' });
    expect(fetchSite.status).toBe(403);
    expect(await store.exportLeads()).toEqual([]);
    expect(hook.requests).toHaveLength(0);
  });

  it('same-origin posts pass: SITE_URL origin, the Host origin, or no Origin', async () => {
    const site = await postJson(api.url, lead, {
      origin: SITE_URL,
      'sec-fetch-site': 'same-origin',
    });
    expect(site.status).toBe(201);
    const host = await postJson(api.url, lead, { origin: new URL(api.url).origin });
    expect(host.status).toBe(201);
    const none = await postJson(api.url, lead);
    expect(none.status).toBe(201);
  });

  it('413: a body over 16 KiB, declared or streamed', async () => {
    const big = JSON.stringify({ ...lead, message: 'x'.repeat(17 * 1024) });
    const declared = await postJson(api.url, JSON.parse(big));
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({ error: API_ERROR_MESSAGES.tooLarge });
    const streamed = await rawPost(api.url, big, { 'content-type': 'application/json' }, true);
    expect(streamed.status).toBe(413);
    const form = await rawPost(
      api.url,
      new URLSearchParams({ ...lead, message: 'y'.repeat(17 * 1024) }).toString(),
      { 'content-type': 'application/x-www-form-urlencoded' },
    );
    expect(form.status).toBe(413);
    // Just under the limit is read (and then fails validation, not size).
    const under = JSON.stringify({ ...lead, message: 'z'.repeat(16 * 1024 - 200) });
    expect(Buffer.byteLength(under)).toBeLessThan(16 * 1024);
    expect((await rawPost(api.url, under, { 'content-type': 'application/json' })).status).toBe(
      400,
    );
    expect(await store.exportLeads()).toEqual([]);
  });

  it('415: any other content type', async () => {
    const cases: Array<Record<string, string>> = [
      { 'content-type': 'text/plain' },
      { 'content-type': 'multipart/mixed; boundary=x' },
      { 'content-type': 'application/xml' },
      { 'content-type': 'application/json-patch+json' },
      { 'content-type': 'application/json; charset=utf-16' },
      {},
    ];
    for (const headers of cases) {
      const response = await rawPost(api.url, JSON.stringify(lead), headers);
      expect(response.status, JSON.stringify(headers)).toBe(415);
      expect(JSON.parse(response.body)).toEqual({ error: API_ERROR_MESSAGES.unsupportedType });
    }
    expect(await store.exportLeads()).toEqual([]);
  });

  it('multipart: the lead and its photos (201), a body that is not multipart after all (400)', async () => {
    const form = new FormData();
    for (const [name, value] of Object.entries(lead)) form.append(name, value);
    const jpeg = await sharp({
      create: { width: 40, height: 30, channels: 3, background: { r: 1, g: 2, b: 3 } },
    })
      .jpeg()
      .toBuffer();
    form.append('photos', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'a.jpg');
    const response = await fetch(api.url, { method: 'POST', body: form });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    expect((await store.getLead(id))?.photos).toEqual([
      expect.objectContaining({ position: 0, width: 40, height: 30 }),
    ]);
    const broken = await rawPost(api.url, JSON.stringify(lead), {
      'content-type': 'multipart/form-data; boundary=x',
    });
    expect(broken.status).toBe(400);
    expect(JSON.parse(broken.body)).toEqual({ error: API_ERROR_MESSAGES.malformed, fields: {} });
    expect(await store.exportLeads()).toHaveLength(1);
  });

  it('405: other methods', async () => {
    const response = await fetch(api.url);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('502: every webhook failed', async () => {
    hook.mode = 'fail';
    const response = await postJson(api.url, lead);
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ error: SUBMIT_FAILED_MESSAGE });
    expect(await store.exportLeads()).toEqual([
      expect.objectContaining({ status: 'not_accepted' }),
    ]);
  });
});

describe('rate limit and unexpected failures', () => {
  const okService: LeadService = {
    submit: async () => ({
      kind: 'accepted',
      status: 201,
      id: 'id',
      created_at: '2025-01-01T00:00:00.000Z',
      spam: false,
      urgent: false,
    }),
  };

  it('429 with Retry-After after LEAD_RATE_LIMIT requests in 10 minutes', async () => {
    const api = await listen(apiApp(okService, 3));
    try {
      for (let index = 0; index < 3; index++) {
        expect((await postJson(api.url, lead)).status).toBe(201);
      }
      const limited = await postJson(api.url, lead);
      expect(limited.status).toBe(429);
      expect(await limited.json()).toEqual({ error: API_ERROR_MESSAGES.tooManyRequests });
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(500);
      expect(retryAfter).toBeLessThanOrEqual(600);
    } finally {
      await api.close();
    }
  });

  it('form posts to a page pass the same guards: one count, flagged for the page to answer', async () => {
    const limiter = createLeadRateLimiter({ limit: 2 });
    const app = express();
    app.use(
      '/api/leads',
      createLeadApiRouter({
        service: okService,
        rateLimit: 2,
        siteUrl: SITE_URL,
        logger: silentLogger(),
        limiter,
      }),
    );
    // Stands in for the page that answers a form post: reports what it would be told.
    app.post('/quote', ...leadGuards(SITE_URL, limiter), (_req, res) => {
      res.json({ rateLimited: isRateLimited(res) });
    });
    const api = await listen(app);
    const pageUrl = api.url.replace('/api/leads', '/quote');
    const postForm = () =>
      fetch(pageUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'name=x',
      });
    try {
      expect(await (await postForm()).json()).toEqual({ rateLimited: false });
      expect((await postJson(api.url, lead)).status).toBe(201);
      // The third request of this visitor, through either door, is over the limit.
      const flagged = await postForm();
      expect(flagged.status).toBe(200);
      expect(await flagged.json()).toEqual({ rateLimited: true });
      expect(Number(flagged.headers.get('retry-after'))).toBeGreaterThan(500);
      const api429 = await postJson(api.url, lead);
      expect(api429.status).toBe(429);
      expect(await api429.json()).toEqual({ error: API_ERROR_MESSAGES.tooManyRequests });
      // A form post from another site is refused before it is counted.
      const evil = await fetch(pageUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: 'https://evil.example',
        },
        body: 'name=x',
      });
      expect(evil.status).toBe(403);
      expect(await evil.json()).toEqual({ error: API_ERROR_MESSAGES.crossOrigin });
    } finally {
      await api.close();
    }
  });

  for (const backend of STORE_BACKENDS) {
    it.skipIf(backend.skip)(
      `two servers on one ${backend.label} store share one count per visitor`,
      async () => {
        const harness = await backend.harness();
        const [storeA, storeB] = [await harness.open(), await harness.open()];
        const appOn = (store: AppStore) => {
          const app = express();
          app.use(
            '/api/leads',
            createLeadApiRouter({
              service: okService,
              rateLimit: 3,
              siteUrl: SITE_URL,
              logger: silentLogger(),
              limiter: createLeadRateLimiter({ limit: 3, store }),
            }),
          );
          return app;
        };
        const [a, b] = [await listen(appOn(storeA)), await listen(appOn(storeB))];
        try {
          const statuses = [];
          for (const api of [a, b, a, b]) statuses.push((await postJson(api.url, lead)).status);
          expect(statuses).toEqual([201, 201, 201, 429]);
          const limited = await postJson(a.url, lead);
          expect(limited.status).toBe(429);
          expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(500);
        } finally {
          await a.close();
          await b.close();
          await storeA.close();
          await storeB.close();
          await harness.cleanup();
        }
      },
    );
  }

  it('a store that cannot count falls back to counting in this process', async () => {
    const harness = await sqliteHarness();
    const store = await harness.open();
    await store.close();
    const app = express();
    app.use(
      '/api/leads',
      createLeadApiRouter({
        service: okService,
        rateLimit: 1,
        siteUrl: SITE_URL,
        logger: silentLogger(),
        limiter: createLeadRateLimiter({ limit: 1, store }),
      }),
    );
    const api = await listen(app);
    try {
      expect((await postJson(api.url, lead)).status).toBe(201);
      expect((await postJson(api.url, lead)).status).toBe(429);
    } finally {
      await api.close();
      await harness.cleanup();
    }
  });

  it('a throwing service is answered 502 with the unexpected-error message', async () => {
    const broken: LeadService = {
      submit: async () => {
        throw new Error('boom');
      },
    };
    const api = await listen(apiApp(broken));
    try {
      const response = await postJson(api.url, lead);
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual({ error: UNEXPECTED_ERROR_MESSAGE });
    } finally {
      await api.close();
    }
  });
});

describe('GET /api/leads/challenge', () => {
  let harness: Awaited<ReturnType<typeof sqliteHarness>>;
  let store: AppStore;
  let api: TestApi;
  const signals: Array<SubmitContext | undefined> = [];
  const recording: LeadService = {
    submit: async (_input, _photos, given) => {
      signals.push(given);
      return {
        kind: 'accepted',
        status: 201,
        id: 'id',
        created_at: '2025-01-01T00:00:00.000Z',
        spam: false,
        urgent: false,
      };
    },
  };

  async function start(rateLimit = 1000): Promise<void> {
    const app = express();
    app.use(
      '/api/leads',
      createLeadApiRouter({
        service: recording,
        rateLimit,
        siteUrl: SITE_URL,
        logger: silentLogger(),
        proofOfWork: createProofOfWork({
          store,
          difficulty: { cost: 10, counterMin: 10, counterMax: 30 },
        }),
      }),
    );
    api = await listen(app);
  }

  beforeEach(async () => {
    signals.length = 0;
    harness = await sqliteHarness();
    store = await harness.open();
  });

  afterEach(async () => {
    await api.close();
    await store.close().catch(() => undefined);
    await harness.cleanup();
  });

  it('answers a new signed challenge each time, never cached; its solution is checked with the lead', async () => {
    await start();
    const response = await fetch(`${api.url}/challenge`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const challenge = (await response.json()) as Challenge;
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    const other = (await (await fetch(`${api.url}/challenge`)).json()) as Challenge;
    expect(other.parameters.nonce).not.toBe(challenge.parameters.nonce);

    const solution = await solveChallenge({ challenge, deriveKey });
    const altcha = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
    for (let sent = 0; sent < 2; sent++) {
      expect((await postJson(api.url, { ...lead, altcha })).status).toBe(201);
    }
    expect((await postJson(api.url, lead)).status).toBe(201);
    expect(signals.map((given) => given?.proof)).toEqual(['valid', 'replayed', 'absent']);
    expect((await fetch(`${api.url}/challenge`, { method: 'POST' })).status).toBe(405);
  });

  it('is limited per visitor to three times LEAD_RATE_LIMIT, on a count of its own', async () => {
    await start(2);
    for (let index = 0; index < 6; index++) {
      expect((await fetch(`${api.url}/challenge`)).status).toBe(200);
    }
    const limited = await fetch(`${api.url}/challenge`);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ error: API_ERROR_MESSAGES.tooManyRequests });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(500);
    // Enquiries draw on their own count.
    expect((await postJson(api.url, lead)).status).toBe(201);
  });

  it('answers 503 while the store cannot give the signing key', async () => {
    await start();
    await store.close();
    const response = await fetch(`${api.url}/challenge`);
    expect(response.status).toBe(503);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ error: UNEXPECTED_ERROR_MESSAGE });
  });
});

describe('reusable pieces', () => {
  it('isAllowedOrigin', () => {
    const site = 'https://www.glass.example.nz';
    expect(isAllowedOrigin({}, site)).toBe(true);
    expect(isAllowedOrigin({ origin: site }, site)).toBe(true);
    expect(isAllowedOrigin({ origin: 'https://www.glass.example.nz:443' }, site)).toBe(true);
    expect(isAllowedOrigin({ origin: 'http://www.glass.example.nz' }, site)).toBe(false);
    expect(isAllowedOrigin({ origin: 'https://evil.example' }, site)).toBe(false);
    expect(isAllowedOrigin({ origin: 'null' }, site)).toBe(false);
    expect(isAllowedOrigin({ origin: 'http://localhost:3000', host: 'localhost:3000' }, site)).toBe(
      true,
    );
    expect(isAllowedOrigin({ origin: 'http://localhost', host: 'localhost:80' }, site)).toBe(true);
    expect(isAllowedOrigin({ origin: 'http://evil.example', host: 'localhost:3000' }, site)).toBe(
      false,
    );
    expect(isAllowedOrigin({ secFetchSite: 'cross-site' }, site)).toBe(false);
    expect(isAllowedOrigin({ origin: site, secFetchSite: 'cross-site' }, site)).toBe(false);
    expect(isAllowedOrigin({ secFetchSite: 'same-site' }, site)).toBe(true);
    expect(isAllowedOrigin({ origin: 'ftp://www.glass.example.nz' }, site)).toBe(false);
  });

  it('readLeadRequest applies the API body rules to a Web Request', async () => {
    const make = (body: BodyInit, type?: string) =>
      new Request('http://localhost/x', {
        method: 'POST',
        headers: type ? { 'content-type': type } : {},
        body,
      });
    expect(await readLeadRequest(make(JSON.stringify(lead), 'application/json'))).toEqual({
      ok: true,
      body: lead,
    });
    const form = await readLeadRequest(
      make('name=A&name=B&email=a%40b.c', 'application/x-www-form-urlencoded;charset=UTF-8'),
    );
    expect(form.ok && { ...(form.body as object) }).toEqual({ name: 'A', email: 'a@b.c' });
    expect(await readLeadRequest(make('{bad', 'application/json'))).toEqual(
      expect.objectContaining({ ok: false, status: 400, fields: {} }),
    );
    expect(await readLeadRequest(make('"s"', 'application/json'))).toEqual(
      expect.objectContaining({ ok: false, status: 400 }),
    );
    expect(await readLeadRequest(make('x', 'text/plain'))).toEqual(
      expect.objectContaining({ ok: false, status: 415 }),
    );
    const gzipped = new Request('http://localhost/x', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: '{}',
    });
    expect(await readLeadRequest(gzipped)).toEqual(
      expect.objectContaining({ ok: false, status: 415 }),
    );
    expect(await readLeadRequest(make('x'.repeat(17_000), 'application/json'))).toEqual(
      expect.objectContaining({ ok: false, status: 413 }),
    );
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(new Uint8Array(1024).fill(32));
        controller.close();
      },
    });
    const streamed = new Request('http://localhost/x', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(await readLeadRequest(streamed)).toEqual(
      expect.objectContaining({ ok: false, status: 413 }),
    );
  });
});

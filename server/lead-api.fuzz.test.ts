import http from 'node:http';
import { webhookTargets } from '../app/leads/delivery/webhooks.server.ts';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLeadService } from '../app/leads/lead-service.server.ts';
import { HONEYPOT_FIELD } from '../app/leads/intake/schema.ts';
import { openSqliteStore } from '../app/db/store-sqlite.server.ts';
import type { AppStore } from '../app/db/store.server.ts';
import {
  captureLogger,
  startReceiver,
  tempDataDir,
  type Receiver,
} from '../app/leads/testing/test-support.server.ts';
import { createLeadApiRouter } from './lead-api.server.ts';

/**
 * Throws thousands of malformed bodies at POST /api/leads: every answer must
 * be a 4xx with a JSON error, and nothing may be stored or sent. Every case
 * is built to be invalid (at least one broken rule), so a 201 would mean a
 * rule is missing. Deterministic: set FUZZ_SEED to replay a run.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 0x5eed_1e4d);
const CASES = Number(process.env.FUZZ_CASES ?? 2500);

/** mulberry32: small, fast, good enough, reproducible. */
function prng(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}
type Random = ReturnType<typeof prng>;

const VALID = {
  name: 'Aroha Ngata',
  email: 'aroha@example.co.nz',
  phone: '021 555 0101',
  service: 'Windows',
  message: 'Cracked pane',
  source: 'contact_form',
};

const ALPHABETS = [
  'abcdefghijklmnopqrstuvwxyz',
  'ABC xyz 0123456789 .,;:!?-_',
  'āēīōūĀĒĪŌŪ',
  '😀🪟🔨🏠👍🏽',
  '\u200b\u200d\u202e\u2066\ufeff',
  '"\'\\/<>{}[]&%$#=+@`~|^',
  '\t\n\r\u0000\u0007\u001b',
  'مرحبا שלום 你好 こんにちは',
];

function randomString(r: Random, maxLength: number): string {
  const length = r.int(maxLength + 1);
  const alphabet = [...r.pick(ALPHABETS)];
  let out = '';
  for (let i = 0; i < length; i++) out += r.pick(alphabet);
  if (r.chance(0.05)) out += '\ud800'; // a lone surrogate
  return out;
}

function randomJson(r: Random, depth = 0): unknown {
  const kind = r.int(depth > 2 ? 5 : 7);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return r.chance(0.5);
    case 2:
      return r.pick([0, -1, 1e308, -0, 12345678, 0.1, Number.MAX_SAFE_INTEGER]);
    case 3:
    case 4:
      return randomString(r, 40);
    case 5:
      return Array.from({ length: r.int(4) }, () => randomJson(r, depth + 1));
    default: {
      const out: Record<string, unknown> = {};
      for (let i = r.int(5); i > 0; i--) out[randomKey(r)] = randomJson(r, depth + 1);
      return out;
    }
  }
}

/** Random keys, including the lead's own names and prototype-polluting ones, never the honeypot. */
function randomKey(r: Random): string {
  return r.pick([
    'name',
    'email',
    'phone',
    'service',
    'message',
    'source',
    'idempotency_key',
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    `x_${randomString(r, 8)}`,
  ]);
}

const wrongTypes = (r: Random): unknown =>
  r.pick([0, 12345678, true, false, [], ['Aroha Ngata'], {}, { value: 'x' }, null]);

/** Each returns a value that breaks that field's rules. */
const BREAKERS: Record<string, (r: Random, lead: Record<string, unknown>) => unknown> = {
  name: (r) =>
    r.pick([
      '',
      '   ',
      'x',
      ` ${randomString(r, 0)}a `,
      'n'.repeat(101 + r.int(3000)),
      // zod counts code points: 101 emoji are over the limit.
      '😀'.repeat(101 + r.int(100)),
      wrongTypes(r),
    ]),
  email: (r) =>
    r.pick([
      '',
      ' ',
      'plain',
      'two words@example.com',
      'a@b',
      '@b.co',
      'a@.co',
      'a@b.',
      'a@@b.co',
      `${'e'.repeat(250)}@example.com`,
      `${randomString(r, 20).replace(/@/g, '')}`,
      wrongTypes(r),
    ]),
  phone: (r) => r.pick(['', '  ', '1234567', '😀😀😀', 'p'.repeat(21 + r.int(500)), wrongTypes(r)]),
  // A call-back type is wrong for the contact and quote forms, a service for the home form.
  service: (r, lead) =>
    r.pick([
      '',
      lead.source === 'hero_form' ? 'Windows' : 'Home Glass',
      'windows',
      `zz-${randomString(r, 30)}`,
      'W'.repeat(200),
      wrongTypes(r),
    ]),
  message: (r) => r.pick(['', ' \n\t ', 'm'.repeat(1001 + r.int(5000)), wrongTypes(r)]),
  source: (r) => r.pick(['', 'admin', 'HERO_FORM', `zz-${randomString(r, 20)}`, wrongTypes(r)]),
  idempotency_key: (r) =>
    r.pick([
      'short',
      'has spaces in it',
      'k'.repeat(101),
      'semi;colon!',
      '日本語キー日本語キー',
      12345678,
    ]),
  [HONEYPOT_FIELD]: (r) => 'w'.repeat(2001 + r.int(1000)),
  missing: () => undefined,
};

/** A near-valid lead with at least one broken rule. */
function brokenLead(r: Random): Record<string, unknown> {
  const lead: Record<string, unknown> = { ...VALID };
  if (r.chance(0.2)) lead.source = 'hero_form';
  if (lead.source === 'hero_form') {
    lead.service = r.pick(['Home Glass', 'Business Glass']);
  }
  const fields = Object.keys(BREAKERS);
  const count = 1 + r.int(3);
  for (let i = 0; i < count; i++) {
    const field = r.pick(fields);
    if (field === 'missing') {
      delete lead[r.pick(Object.keys(VALID))];
    } else {
      lead[field] = BREAKERS[field]!(r, lead);
    }
  }
  // Only breaking the honeypot with a short value would be spam (stored): re-break something else then.
  const trap = lead[HONEYPOT_FIELD];
  if (count === 1 && typeof trap === 'string' && trap.length <= 2000) {
    lead.name = '';
  }
  // Sprinkle extra and polluting keys.
  for (let i = r.int(3); i > 0; i--) lead[randomKey(r) + '_extra'] = randomJson(r);
  return lead;
}

/** JSON text with prototype-polluting keys written literally (JSON.stringify would drop __proto__). */
function pollutingJson(r: Random): string {
  const base = JSON.stringify(brokenLead(r));
  const injections = [
    '"__proto__":{"polluted":"yes","isAdmin":true}',
    '"constructor":{"prototype":{"polluted":"yes"}}',
    '"__proto__":[1,2,3]',
    '"__proto__":null',
  ];
  return base.replace('{', `{${r.pick(injections)},`);
}

/** encodeURIComponent throws on lone surrogates; a browser would send U+FFFD. */
const enc = (text: string) => encodeURIComponent(text.toWellFormed());

function urlencoded(record: Record<string, unknown>, r: Random): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (value === undefined) continue;
    // A form has only strings: a broken non-string field is sent empty
    // (an empty key would mean "no key", so that one gets a bad value).
    const broken = key === 'idempotency_key' ? 'bad key!' : '';
    const text =
      typeof value === 'string' ? value : key.endsWith('_extra') ? JSON.stringify(value) : broken;
    parts.push(`${enc(key)}=${enc(text ?? '')}`);
    // Repeated keys.
    if (r.chance(0.1)) parts.push(`${enc(key)}=${enc(text ?? '')}`);
  }
  if (r.chance(0.3))
    parts.push(
      r.pick([
        '__proto__[polluted]=yes',
        'constructor[prototype][x]=1',
        'a[b][c]=d',
        '%E0%A4%A=bad',
        '&&&',
        '=',
      ]),
    );
  return parts.join('&');
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=UTF-8',
  'text/plain',
  'text/html',
  'multipart/form-data; boundary=----x',
  'application/xml',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/jsonp',
  'application/problem+json',
  '*/*',
  ';;;',
  'application/json; foo="unterminated',
];

interface FuzzCase {
  label: string;
  contentType: string | null;
  body: Buffer;
}

function makeCase(r: Random, index: number): FuzzCase {
  const kind = r.int(9);
  const json = (text: string, label: string): FuzzCase => ({
    label,
    contentType: r.chance(0.85) ? r.pick(CONTENT_TYPES.slice(0, 3)) : r.pick(CONTENT_TYPES),
    body: Buffer.from(text),
  });
  switch (kind) {
    case 0:
      return json(JSON.stringify(randomJson(r)) ?? 'null', `#${index} random JSON value`);
    case 1:
    case 2:
      return json(JSON.stringify(brokenLead(r)), `#${index} broken lead (JSON)`);
    case 3:
      return json(pollutingJson(r), `#${index} prototype pollution (JSON)`);
    case 4: {
      const text = JSON.stringify(brokenLead(r));
      return json(text.slice(0, r.int(text.length)), `#${index} truncated JSON`);
    }
    case 5:
      return {
        label: `#${index} broken lead (form)`,
        contentType: r.chance(0.85) ? CONTENT_TYPES[3]! : r.pick(CONTENT_TYPES),
        body: Buffer.from(urlencoded(brokenLead(r), r)),
      };
    case 6: {
      const bytes = Buffer.alloc(r.int(2048));
      for (let i = 0; i < bytes.length; i++) bytes[i] = r.int(256);
      return {
        label: `#${index} random bytes`,
        contentType: r.chance(0.2) ? null : r.pick(CONTENT_TYPES),
        body: bytes,
      };
    }
    case 7:
      // Over the 16 KiB limit.
      return json(
        JSON.stringify({
          ...VALID,
          message: randomString(r, 10).padEnd(16_500 + r.int(40_000), 'x'),
        }),
        `#${index} oversized`,
      );
    default:
      return {
        label: `#${index} valid-looking body, wrong content type`,
        contentType: r.pick(CONTENT_TYPES.slice(5)),
        body: Buffer.from(r.chance(0.5) ? pollutingJson(r) : urlencoded(brokenLead(r), r)),
      };
  }
}

function send(
  agent: http.Agent,
  port: number,
  fuzz: FuzzCase,
): Promise<{ status: number; body: string; contentType: string | undefined }> {
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = { 'content-length': fuzz.body.length };
    if (fuzz.contentType !== null) headers['content-type'] = fuzz.contentType;
    const request = http.request(
      { host: '127.0.0.1', port, path: '/api/leads', method: 'POST', headers, agent },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            contentType: response.headers['content-type'],
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(fuzz.body);
  });
}

describe('POST /api/leads fuzz', () => {
  let data: ReturnType<typeof tempDataDir>;
  let store: AppStore;
  let hook: Receiver;
  let server: http.Server;
  let port: number;
  const log = captureLogger('info');

  beforeAll(async () => {
    data = tempDataDir('lead-fuzz-');
    store = await openSqliteStore({ dataDir: data.dir });
    hook = await startReceiver('ok');
    const service = createLeadService({
      store,
      targets: webhookTargets([hook.url]),
      acceptMode: 'delivered',
      timeoutMs: 1000,
      logger: log.logger,
    });
    const app = express();
    app.use(
      '/api/leads',
      createLeadApiRouter({
        service,
        rateLimit: 1_000_000,
        siteUrl: 'http://localhost:3000',
        logger: log.logger,
      }),
    );
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await hook.close();
    await store.close();
    data.remove();
  });

  it(`answers ${CASES} malformed requests with 4xx only and stores nothing (seed ${SEED})`, async () => {
    const r = prng(SEED);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    const cases = Array.from({ length: CASES }, (_, index) => makeCase(r, index));
    try {
      let next = 0;
      const worker = async () => {
        while (next < cases.length) {
          const fuzz = cases[next++]!;
          const answer = await send(agent, port, fuzz);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          let error: unknown;
          try {
            error = (JSON.parse(answer.body) as { error?: unknown }).error;
          } catch {
            error = undefined;
          }
          if (answer.status < 400 || answer.status > 499 || typeof error !== 'string') {
            failures.push(
              `${fuzz.label} [${fuzz.contentType}] ${fuzz.body.subarray(0, 200).toString()} -> ${answer.status} ${answer.body.slice(0, 200)}`,
            );
          }
        }
      };
      await Promise.all([worker(), worker(), worker(), worker()]);
    } finally {
      agent.destroy();
    }
    expect(failures, `seed ${SEED}: ${failures.slice(0, 5).join('\n')}`).toEqual([]);
    // Every family of rejection was exercised.
    for (const status of [400, 413, 415]) expect(statuses.get(status) ?? 0).toBeGreaterThan(20);
    expect(await store.exportLeads()).toEqual([]);
    expect(hook.requests).toHaveLength(0);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(log.text()).not.toContain('aroha@example.co.nz');
  });
});

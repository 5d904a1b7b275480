import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { APIContext } from 'astro';
import type { Request, Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDataDir } from '../app/leads/testing/test-support.server.ts';
import { SQLITE_FILE_NAME } from '../app/db/store-sqlite.server.ts';
import { SIGN_IN_POST_LIMIT } from '../app/owner/limits.server.ts';
import { POST } from '../app/pages/admin/sign-in/options.ts';
import { startTestSite, type TestSite } from './testing/site-test-support.server.ts';

/**
 * The passkey sign-in's challenge request (POST /admin/sign-in/options) on
 * the server as start.ts assembles it, answered by the real endpoint: an
 * anonymous flood from one client, or one IPv6 /64, gets 429s, and the
 * challenges it leaves in the store stay few.
 */
describe('the passkey challenge request', () => {
  let site: TestSite;
  const data = tempDataDir('options-');

  beforeAll(async () => {
    site = await startTestSite(
      { SITE_URL: 'https://glass.example.nz', DATA_DIR: data.dir },
      undefined,
      async (req: Request, res: Response, _next, locals) => {
        // Routed as Astro routes: by the decoded path.
        const route = decodeURI(new URL(req.url, 'http://x').pathname);
        if (
          path.posix.normalize(route).replace(/\/$/, '') !== '/admin/sign-in/options' ||
          !locals
        ) {
          res.status(404).end();
          return;
        }
        const request = new globalThis.Request(`https://glass.example.nz${route}`, {
          method: req.method,
        });
        const answer = await POST({ locals, request } as unknown as APIContext);
        res
          .status(answer.status)
          .type('application/json')
          .send(await answer.text());
      },
    );
  });
  afterAll(async () => {
    await site?.close();
    data.remove();
  });

  const ask = async (forwardedFor?: string, spelling = '/admin/sign-in/options') => {
    const response = await fetch(`${site.url}${spelling}`, {
      method: 'POST',
      headers: {
        origin: 'https://glass.example.nz',
        'content-type': 'application/json',
        ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
      },
      body: '{}',
    });
    const text = await response.text();
    const body = response.headers.get('content-type')?.startsWith('application/json')
      ? (JSON.parse(text) as { ok: boolean; message?: string })
      : text;
    return { status: response.status, body };
  };

  /** `count` requests, `parallel` at a time; the number of answers of each status. */
  async function flood(count: number, parallel: number, forwardedFor: (i: number) => string) {
    const statuses: Record<number, number> = {};
    let next = 0;
    await Promise.all(
      Array.from({ length: parallel }, async () => {
        while (next < count) {
          const i = next++;
          const { status } = await ask(forwardedFor(i));
          statuses[status] = (statuses[status] ?? 0) + 1;
        }
      }),
    );
    return statuses;
  }

  const storedChallenges = () => {
    const db = new DatabaseSync(path.join(data.dir, SQLITE_FILE_NAME), { readOnly: true });
    try {
      return Number(
        (db.prepare('SELECT count(*) AS n FROM owner_challenges').get() as { n: number }).n,
      );
    } finally {
      db.close();
    }
  };

  it('answers at most 60 of 600 from one client, the rest 429, and stores at most as many challenges', async () => {
    const started = Date.now();
    const statuses = await flood(600, 20, () => '198.51.100.7');
    const seconds = (Date.now() - started) / 1000;
    const ok = statuses[200] ?? 0;
    expect({ ok: ok > 0 && ok <= 60, others: statuses }).toEqual({
      ok: true,
      others: { 200: ok, 429: 600 - ok },
    });
    expect(storedChallenges()).toBeLessThanOrEqual(ok);
    // The refusal says what to do, as the sign-in page shows it.
    const refused = await ask('198.51.100.7');
    expect(refused).toEqual({
      status: 429,
      body: { ok: false, message: expect.stringContaining('sign-in link by e-mail') },
    });
    // Another client is not refused for it.
    expect((await ask('198.51.100.8')).status).toBe(200);
    console.info(`600 requests in ${seconds.toFixed(1)} s: ${JSON.stringify(statuses)}`);
  });

  it('counts the request however its path is spelt', async () => {
    const spellings = [
      '/admin/sign-in/options',
      '/admin/sign-in/%6Fptions',
      '/admin/sign-in/%2e/options',
      '/admin/sign-in/options/',
    ];
    const statuses: Record<number, number> = {};
    for (let i = 0; i < 120; i++) {
      const spelling = spellings[i % spellings.length]!;
      const { status } = await ask('198.51.100.20', spelling);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
    // One client's allowance, not one per spelling.
    expect(statuses[200] ?? 0).toBeLessThanOrEqual(SIGN_IN_POST_LIMIT.max);
    expect(statuses[429]).toBe(120 - (statuses[200] ?? 0));
  });

  it('counts one IPv6 /64 as one client', async () => {
    const statuses = await flood(
      200,
      10,
      (i) => `2001:db8:4:5:${(i + 1).toString(16)}:0:0:${(i * 7 + 1).toString(16)}`,
    );
    expect(statuses[429]).toBeGreaterThanOrEqual(140);
    expect(statuses[200] ?? 0).toBeLessThanOrEqual(60);
    expect(Object.keys(statuses).sort()).toEqual(['200', '429']);
    // The next /64 is someone else.
    expect((await ask('2001:db8:4:6::1')).status).toBe(200);
  });
});

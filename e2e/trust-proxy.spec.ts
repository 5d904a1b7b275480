import { expect, test } from '@playwright/test';
import {
  attachServerLogsOnFailure,
  startSiteServer,
  tempDataDir,
  type SiteServer,
} from './support/lead-server.ts';

/**
 * TRUST_PROXY (docs/operations.md#environment): whose X-Forwarded-For the server
 * believes. The rate limit counts the address the server believes, and the
 * line logged for a refused client names its network (IPv4 /24). These clients connect from
 * 127.0.0.1, so X-Forwarded-For is either the report of a believed proxy or
 * a forgery.
 */

const LIMIT = 2;

// eslint-disable-next-line no-empty-pattern -- Playwright needs the destructuring to pass testInfo.
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

async function startWith(trustProxy: string): Promise<SiteServer & { cleanup(): Promise<void> }> {
  const data = tempDataDir();
  const server = await startSiteServer({
    DATA_DIR: data.dir,
    LEAD_RATE_LIMIT: String(LIMIT),
    TRUST_PROXY: trustProxy,
  });
  return Object.assign(server, {
    async cleanup() {
      await server.stop();
      data.remove();
    },
  });
}

/** An empty enquiry: counted by the rate limit (400 under it, 429 over it), nothing stored. */
async function post(server: SiteServer, forwardedFor?: string): Promise<number> {
  const response = await fetch(`${server.url}/api/leads`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
    },
    body: '{}',
  });
  await response.body?.cancel();
  return response.status;
}

/** The request lines the server logged, parsed. */
function requestLines(server: SiteServer): Array<Record<string, unknown>> {
  return server
    .output()
    .split('\n')
    .filter((line) => line.includes('"path":"/api/leads"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function refusedLine(server: SiteServer) {
  await expect
    .poll(() => requestLines(server).filter((line) => line.status === 429).length)
    .toBeGreaterThan(0);
  return requestLines(server).find((line) => line.status === 429)!;
}

for (const [trustProxy, why] of [
  ['false', 'no proxy is believed'],
  ['10.9.8.7', 'the client is not the believed proxy'],
] as const) {
  test(`TRUST_PROXY=${trustProxy}: forged X-Forwarded-For changes nothing (${why})`, async () => {
    const server = await startWith(trustProxy);
    try {
      const statuses = [];
      for (let index = 0; index <= LIMIT; index += 1) {
        statuses.push(await post(server, `203.0.113.${index + 1}`));
      }
      // One count for every forged address: the connection's own.
      expect(statuses).toEqual([400, 400, 429]);
      expect(await post(server)).toBe(429);
      const refused = await refusedLine(server);
      // The network of the address believed, never the address (addressNetwork).
      expect(refused.client).toBe('127.0.0.0/24');
      expect(server.output()).not.toContain('203.0.113.');
    } finally {
      await server.cleanup();
    }
  });
}

test('TRUST_PROXY=1: a count per client the proxy reports, and the refused one’s network is in the log', async () => {
  const server = await startWith('1');
  try {
    const flooder = '198.51.100.7';
    const statuses = [];
    for (let index = 0; index <= LIMIT; index += 1) {
      // The proxy appends the address it saw; anything before it is the client's own claim.
      statuses.push(await post(server, `10.0.0.${index}, ${flooder}`));
    }
    expect(statuses).toEqual([400, 400, 429]);
    // Other visitors behind the same proxy are not affected.
    expect(await post(server, '198.51.100.8')).toBe(400);
    expect(await post(server, '2001:db8::8')).toBe(400);
    const refused = await refusedLine(server);
    expect(refused).toMatchObject({ status: 429, client: '198.51.100.0/24', level: 40 });
    expect(server.output()).not.toContain(flooder);
    // Ordinary requests still carry no address.
    const ordinary = requestLines(server).filter((line) => line.status !== 429);
    expect(ordinary.length).toBeGreaterThan(0);
    for (const line of ordinary) expect(line).not.toHaveProperty('client');
    expect(server.output()).not.toContain('198.51.100.8');
  } finally {
    await server.cleanup();
  }
});

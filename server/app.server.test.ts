import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../app/leads/testing/test-support.server.ts';
import { startTestSite, type TestSite } from './testing/site-test-support.server.ts';

describe('request log', () => {
  let site: TestSite;

  beforeAll(async () => {
    site = await startTestSite({ LEAD_RATE_LIMIT: '2', TRUST_PROXY: 'loopback' });
  });
  afterAll(() => site.close());

  /** An empty enquiry: counted by the rate limit (400 under it, 429 over it), nothing stored. */
  async function post(forwardedFor: string): Promise<number> {
    const response = await fetch(`${site.url}/api/leads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
      body: '{}',
    });
    await response.body?.cancel();
    return response.status;
  }

  it('names the network of a client the rate limit refused, never its address', async () => {
    const clients = ['198.51.100.7', '2001:db8:abcd:12::7'];
    for (const client of clients) {
      const statuses = [await post(client), await post(client), await post(client)];
      expect(statuses, client).toEqual([400, 400, 429]);
    }
    await eventually(() => {
      const refused = site.log.entries().filter((line) => line.status === 429);
      expect(refused.map((line) => line.client)).toEqual(['198.51.100.0/24', '2001:db8:abcd::/48']);
    });
    for (const client of clients) expect(site.log.text()).not.toContain(client);
    // The other request lines carry no address at all.
    const ordinary = site.log.entries().filter((line) => line.msg === 'request');
    expect(ordinary.length).toBeGreaterThan(0);
    for (const line of ordinary) expect(line).not.toHaveProperty('client');
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { LeadRecord, AppStore } from '../../db/store.server.ts';
import { photoLinks, PHOTO_LINK_TTL_S } from './signed-photo-links.server.ts';
import { webhookLabel, webhookTargetKey } from './target-names.ts';
import { AllTargetsFailedError, deliverToTargets } from './targets.server.ts';
import {
  startReceiver,
  STORE_BACKENDS,
  type Receiver,
  type StoreHarness,
} from '../testing/test-support.server.ts';
import {
  isLoopbackHost,
  parseRetryAfter,
  postWebhook,
  webhookTargets,
  type WebhookPayload,
} from './webhooks.server.ts';
import { NO_ATTRIBUTION } from '../intake/attribution.ts';

const payload: WebhookPayload = {
  id: '6f1c7f0e-8a51-4c1f-9a0e-2f3b0d9e1a11',
  name: 'Aroha Ngata',
  email: 'aroha@example.co.nz',
  phone: '021 555 0101',
  service: 'Windows',
  message: 'Cracked pane',
  created_at: '2025-03-01T00:00:00.000Z',
  source: 'contact_form',
  urgent: false,
  attribution: NO_ATTRIBUTION,
  photos: [],
};

let receivers: Receiver[] = [];
async function receiver(mode: 'ok' | 'fail' | 'hang' = 'ok') {
  const started = await startReceiver(mode);
  receivers.push(started);
  return started;
}

afterEach(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  receivers = [];
});

describe('postWebhook', () => {
  it('POSTs the lead as JSON with identifying headers', async () => {
    const hook = await receiver('ok');
    expect(await postWebhook(hook.url, payload, { userAgent: 'Test-Agent/1' })).toEqual({
      ok: true,
      detail: 'HTTP 200',
    });
    const [request] = hook.requests;
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['user-agent']).toBe('Test-Agent/1');
    expect(request?.headers['idempotency-key']).toBe(payload.id);
    expect(request?.json).toEqual(payload);
  });

  it('names the site in the default User-Agent', async () => {
    const hook = await receiver('ok');
    await postWebhook(hook.url, payload);
    expect(hook.requests[0]?.headers['user-agent']).toMatch(/TaurangaGlassWebsite/);
  });

  it('reports a non-2xx answer with its status and a short body excerpt', async () => {
    const hook = await receiver('fail');
    hook.failStatus = 503;
    hook.failBody = `Service\nUnavailable ${'z'.repeat(500)}`;
    const result = await postWebhook(hook.url, payload);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.status).toBe(503);
    expect(result.permanent).toBe(false);
    expect(result.error.startsWith('HTTP 503 Service Unavailable: Service Unavailable zzz')).toBe(
      true,
    );
    // 'HTTP 503 Service Unavailable: ' + 200 characters + ellipsis
    expect(result.error.length).toBeLessThanOrEqual('HTTP 503 Service Unavailable: '.length + 201);
  });

  it('times out a receiver that never answers', async () => {
    const hook = await receiver('hang');
    const started = Date.now();
    const result = await postWebhook(hook.url, payload, { timeoutMs: 300 });
    // Answered at the timeout, not when the receiver lets go (it never does).
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(result).toEqual({
      ok: false,
      permanent: false,
      error: 'timed out after 300 ms',
      summary: 'no answer within 0.3 s',
      advice: 'check the address, and that the service answers quickly',
    });
  });

  it('reports connection errors', async () => {
    const hook = await receiver('ok');
    await hook.close();
    const result = await postWebhook(hook.url, payload, { timeoutMs: 2000 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/fetch failed|ECONNREFUSED/);
  });
});

describe('webhook targets', () => {
  const lead: LeadRecord = { ...payload, status: 'accepted', idempotency_key: null } as LeadRecord;

  it('are named and keyed by their position alone: never the address or its host', () => {
    const url = 'https://s3cr3t-sub.hooks.example.com/catch/123/t0ken?token=abc';
    const [first, second] = webhookTargets(['https://a.example.com/x', url]);
    expect([first?.key, first?.label]).toEqual(['webhook:1', 'webhook 1']);
    expect([second?.key, second?.label]).toEqual(['webhook:2', 'webhook 2']);
    expect([webhookTargetKey(2), webhookLabel(2)]).toEqual(['webhook:3', 'webhook 3']);
    // A new address at a position keeps its key, so the deliveries waiting for
    // that position go to the new address.
    expect(webhookTargets(['https://a.example.com/x', 'https://b.example.net/y'])[1]?.key).toBe(
      second?.key,
    );
    // The same address twice is one target, named by its first position.
    expect(webhookTargets([url, url, 'https://c.example.org/z']).map((t) => t.label)).toEqual([
      'webhook 1',
      'webhook 3',
    ]);
  });

  it('keep the host out of the error text: a sub-domain may be the token', async () => {
    const hook = await receiver('fail');
    const host = `s3cr3t-sub.localhost:${hook.port}`;
    // Where *.localhost resolves, the receiver echoes the host; elsewhere the
    // lookup fails with an error that names it (getaddrinfo ENOTFOUND …).
    hook.failBody = `no hook at ${host}`;
    const [target] = webhookTargets([`http://${host}/hook`], { timeoutMs: 2000 });
    const outcome = await target?.deliver(lead);
    expect(outcome?.ok).toBe(false);
    if (outcome?.ok !== false) return;
    expect(`${outcome.error} ${outcome.summary ?? ''}`).not.toContain('s3cr3t');
  });

  it('keep the address out of the error text, even when the receiver echoes it', async () => {
    const hook = await receiver('fail');
    const url = `${hook.url}/t0ken-abcdef?key=s3cr3tvalue`;
    hook.failBody = `No hook at ${url} (path /hook/t0ken-abcdef, key s3cr3tvalue)`;
    const [target] = webhookTargets([url]);
    const outcome = await target?.deliver(lead);
    expect(outcome?.ok).toBe(false);
    if (outcome?.ok !== false) return;
    expect(outcome.error).not.toMatch(/t0ken|s3cr3t/);
    expect(outcome.error).toContain('[webhook address]');
  });

  it('sign each request the Standard Webhooks way when a secret is set', async () => {
    const hook = await receiver('ok');
    const secret = `whsec_${Buffer.from('k'.repeat(32)).toString('base64')}`;
    const [target] = webhookTargets([hook.url], { secret });
    expect(await target?.deliver(lead)).toEqual({ ok: true, detail: 'HTTP 200' });
    const request = hook.requests[0];
    const headers = request?.headers as Record<string, string>;
    expect(headers['webhook-id']).toBe(`msg_${payload.id}`);
    expect(Number(headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -2);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(request?.body ?? '', headers)).toEqual(payload);
    // Another secret does not verify it.
    const other = `whsec_${Buffer.from('z'.repeat(32)).toString('base64')}`;
    expect(() => new Webhook(other).verify(request?.body ?? '', headers)).toThrow();
  });

  it('send no signature headers without a secret', async () => {
    const hook = await receiver('ok');
    await webhookTargets([hook.url])[0]?.deliver(lead);
    expect(hook.requests[0]?.headers['webhook-signature']).toBeUndefined();
  });

  it('mark a test lead as such in the payload', async () => {
    const hook = await receiver('ok');
    await webhookTargets([hook.url])[0]?.deliver(lead, { test: true });
    expect(hook.requests[0]?.json).toEqual({ ...payload, test: true });
  });

  it('say whether the lead is urgent: "urgent": true or false (docs/operations.md#webhook-payload)', async () => {
    const hook = await receiver('ok');
    const [target] = webhookTargets([hook.url]);
    await target?.deliver({ ...lead, urgent: true });
    await target?.deliver(lead);
    expect(hook.requests.map((request) => (request.json as { urgent: unknown }).urgent)).toEqual([
      true,
      false,
    ]);
    expect(hook.requests[0]?.json).toEqual({ ...payload, urgent: true });
  });

  it('say where the enquiry came from: "attribution", every field null when not known', async () => {
    const hook = await receiver('ok');
    const [target] = webhookTargets([hook.url]);
    const attribution = {
      ...NO_ATTRIBUTION,
      landing: '/?utm_source=google&utm_medium=cpc&gclid=Cj0KCQ',
      referrer: 'www.google.com',
      utm_source: 'google',
      utm_medium: 'cpc',
      gclid: 'Cj0KCQ',
    };
    await target?.deliver({ ...lead, attribution });
    await target?.deliver(lead);
    expect(hook.requests.map((request) => request.json)).toEqual([
      { ...payload, attribution },
      payload,
    ]);
    expect(payload.attribution).toEqual({
      landing: null,
      referrer: null,
      utm_source: null,
      utm_medium: null,
      utm_campaign: null,
      utm_term: null,
      utm_content: null,
      gclid: null,
    });
  });

  it('classify refusals: 400, 401, 403, 404, 410, 422 are permanent, others are not', async () => {
    const hook = await receiver('fail');
    const [target] = webhookTargets([hook.url]);
    const permanence: Record<number, boolean> = {};
    for (const status of [400, 401, 403, 404, 405, 408, 410, 422, 429, 500, 503]) {
      hook.failStatus = status;
      const outcome = await target?.deliver(lead);
      if (outcome && !outcome.ok) permanence[status] = outcome.permanent;
    }
    expect(permanence).toEqual({
      400: true,
      401: true,
      403: true,
      404: true,
      405: false,
      408: false,
      410: true,
      422: true,
      429: false,
      500: false,
      503: false,
    });
  });

  it('read Retry-After in seconds or as a date', async () => {
    const now = Date.parse('2025-03-01T00:00:00.000Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Sat, 01 Mar 2025 00:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Fri, 28 Feb 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
    const hook = await receiver('fail');
    hook.failStatus = 429;
    hook.headers = { 'retry-after': '30' };
    const outcome = await webhookTargets([hook.url])[0]?.deliver(lead);
    expect(outcome).toEqual(expect.objectContaining({ ok: false, retryAfterMs: 30_000 }));
  });

  it('loopback hosts are the only ones allowed plain http', () => {
    for (const host of ['127.0.0.1', '127.3.4.5', 'localhost', 'api.localhost', '[::1]', '::1']) {
      expect(isLoopbackHost(host)).toBe(true);
    }
    for (const host of ['10.0.0.1', 'example.com', '128.0.0.1', 'localhost.example.com']) {
      expect(isLoopbackHost(host)).toBe(false);
    }
  });
});

for (const backend of STORE_BACKENDS) {
  describe.skipIf(backend.skip)(`a webhook's photos (${backend.label})`, () => {
    const NOW = Date.parse('2025-03-04T01:05:00.000Z');
    let harness: StoreHarness;
    let store: AppStore;
    afterEach(async () => {
      await store?.close();
      await harness?.cleanup();
    });

    async function withPhotos(count: number): Promise<LeadRecord> {
      harness = await backend.harness();
      store = await harness.open();
      const lead: LeadRecord = {
        ...payload,
        id: randomUUID(),
        status: 'accepted',
        idempotency_key: null,
      } as LeadRecord;
      const photos = Array.from({ length: count }, (_, index) => ({
        data: new Uint8Array(randomBytes(100 + index)),
        width: 640 + index,
        height: 480,
      }));
      await store.insertLead(lead, [], photos);
      return lead;
    }

    const photoOptions = () => ({
      source: store,
      links: photoLinks({
        siteUrl: 'https://glass.example.nz',
        secret: () => store.getOrCreateSecret('photo-links'),
      }),
    });

    it('lists each photo as a signed link under SITE_URL, valid 7 days, with its size', async () => {
      const lead = await withPhotos(2);
      const hook = await receiver('ok');
      const [target] = webhookTargets([hook.url], { photos: photoOptions(), now: () => NOW });
      expect(await target?.deliver(lead)).toEqual({ ok: true, detail: 'HTTP 200' });
      const sent = hook.requests[0]?.json as WebhookPayload;
      expect(sent.photos.map(({ width, height, bytes }) => [width, height, bytes])).toEqual([
        [640, 480, 100],
        [641, 480, 101],
      ]);
      const expires = Math.floor(NOW / 1000) + PHOTO_LINK_TTL_S;
      const verifier = photoLinks({
        siteUrl: 'https://glass.example.nz',
        secret: () => store.getOrCreateSecret('photo-links'),
      });
      for (const [index, photo] of sent.photos.entries()) {
        const url = new URL(photo.url);
        expect(url.origin).toBe('https://glass.example.nz');
        expect(url.pathname).toBe(`/lead-photos/${lead.id}/${index + 1}`);
        expect(url.searchParams.get('expires')).toBe(String(expires));
        const sig = url.searchParams.get('sig');
        expect(
          await verifier.verify(lead.id, String(index + 1), String(expires), sig, NOW),
        ).toEqual({ number: index + 1, expiresAt: expires * 1000 });
        // Not for the other photo.
        expect(await verifier.verify(lead.id, String(2 - index), String(expires), sig, NOW)).toBe(
          null,
        );
      }
      // The rest of the payload is as before.
      expect({ ...sent, photos: [] }).toEqual({ ...payload, id: lead.id });
    });

    it('an empty list without photos, for a test lead, and for photos the store could not keep', async () => {
      const lead = await withPhotos(0);
      const hook = await receiver('ok');
      const [target] = webhookTargets([hook.url], { photos: photoOptions(), now: () => NOW });
      await target?.deliver(lead);
      await target?.deliver(lead, { test: true });
      await target?.deliver(lead, {
        unstoredPhotos: [{ data: new Uint8Array(10), width: 4, height: 4 }],
      });
      expect(hook.requests.map((request) => (request.json as WebhookPayload).photos)).toEqual([
        [],
        [],
        [],
      ]);
    });

    it('is tried again, not sent without its photos, while the store cannot be read', async () => {
      const lead = await withPhotos(1);
      const hook = await receiver('ok');
      const [target] = webhookTargets([hook.url], { photos: photoOptions(), now: () => NOW });
      await store.close();
      const outcome = await target?.deliver(lead);
      expect(outcome).toMatchObject({ ok: false, permanent: false });
      expect(hook.requests).toHaveLength(0);
    });
  });
}

describe('delivering to every target', () => {
  const lead: LeadRecord = { ...payload, status: 'accepted', idempotency_key: null } as LeadRecord;

  it('sends to every target concurrently', async () => {
    const first = await receiver('hang');
    const second = await receiver('hang');
    // Sent one after the other, the second would wait for the first's minute-long timeout.
    const targets = webhookTargets([first.url, second.url], { timeoutMs: 60_000 });
    const pending = deliverToTargets(targets, lead);
    // Both requests arrive while the first one is still hanging.
    await first.waitForRequests(1);
    await second.waitForRequests(1);
    // Then both receivers go away, which ends both attempts at once.
    await Promise.all([first.close(), second.close()]);
    const attempts = await pending;
    expect(attempts.map((a) => a.outcome.ok)).toEqual([false, false]);
  });

  it('tolerates one failing target while another succeeds', async () => {
    const down = await receiver('fail');
    const up = await receiver('ok');
    const attempts = await deliverToTargets(webhookTargets([down.url, up.url]), lead);
    expect(attempts.map((a) => a.outcome.ok)).toEqual([false, true]);
  });

  it("'All webhooks failed' names each failure by label", async () => {
    const a = await receiver('fail');
    const b = await receiver('hang');
    a.failBody = 'boom';
    const targets = webhookTargets([a.url, b.url], { timeoutMs: 200 });
    const error = new AllTargetsFailedError(await deliverToTargets(targets, lead));
    expect(error.message).toBe(
      `All webhooks failed: webhook 1: HTTP 500 Internal Server Error: boom; ` +
        `webhook 2: timed out after 200 ms`,
    );
    expect(error.message).not.toContain('/hook');
  });
});

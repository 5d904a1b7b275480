import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from './test-support.server.ts';
import {
  AllWebhooksFailedError,
  postToWebhooks,
  postWebhook,
  sendLeadToWebhooks,
  type WebhookPayload,
} from './webhooks.server.ts';

const payload: WebhookPayload = {
  id: '6f1c7f0e-8a51-4c1f-9a0e-2f3b0d9e1a11',
  name: 'Aroha Ngata',
  email: 'aroha@example.co.nz',
  phone: '021 555 0101',
  service: 'Windows',
  message: 'Cracked pane',
  created_at: '2025-03-01T00:00:00.000Z',
  source: 'contact_form',
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
      url: hook.url,
      ok: true,
      status: 200,
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
    expect(result.error.startsWith('HTTP 503 Service Unavailable zzz')).toBe(true);
    // 'HTTP 503 ' + 200 characters + ellipsis
    expect(result.error.length).toBeLessThanOrEqual('HTTP 503 '.length + 201);
  });

  it('times out a receiver that never answers', async () => {
    const hook = await receiver('hang');
    const started = Date.now();
    const result = await postWebhook(hook.url, payload, { timeoutMs: 300 });
    // Answered at the timeout, not when the receiver lets go (it never does).
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(result).toEqual({ url: hook.url, ok: false, error: 'timed out after 300 ms' });
  });

  it('reports connection errors', async () => {
    const hook = await receiver('ok');
    await hook.close();
    const result = await postWebhook(hook.url, payload, { timeoutMs: 2000 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/fetch failed|ECONNREFUSED/);
  });
});

describe('sending to all webhooks', () => {
  it('sends to every address concurrently', async () => {
    const first = await receiver('hang');
    const second = await receiver('hang');
    // Sent one after the other, the second would wait for the first's minute-long timeout.
    const pending = postToWebhooks([first.url, second.url], payload, { timeoutMs: 60_000 });
    // Both requests arrive while the first one is still hanging.
    await first.waitForRequests(1);
    await second.waitForRequests(1);
    // Then both receivers go away, which ends both attempts at once.
    await Promise.all([first.close(), second.close()]);
    const attempts = await pending;
    expect(attempts.map((a) => a.ok)).toEqual([false, false]);
  });

  it('succeeds when at least one answers 2xx', async () => {
    const down = await receiver('fail');
    const up = await receiver('ok');
    const attempts = await sendLeadToWebhooks([down.url, up.url], payload);
    expect(attempts.filter((a) => a.ok)).toHaveLength(1);
  });

  it("throws 'All webhooks failed' with each failure when none does (SPEC §8)", async () => {
    const a = await receiver('fail');
    const b = await receiver('hang');
    a.failBody = 'boom';
    const error = await sendLeadToWebhooks([a.url, b.url], payload, { timeoutMs: 200 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AllWebhooksFailedError);
    expect((error as Error).message).toBe(
      `All webhooks failed: ${a.url}: HTTP 500 boom; ${b.url}: timed out after 200 ms`,
    );
  });
});

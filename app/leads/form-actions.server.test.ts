import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { webhookTargets } from './webhooks.server.ts';
import { API_ERROR_MESSAGES } from './lead-request.server.ts';
import type { LeadsRequestContext } from './context.ts';
import { submitLeadFormPost, wantsJson } from './form-actions.server.ts';
import type { LeadFormResult } from './form-submission.ts';
import { createLeadService } from './lead-service.server.ts';
import {
  HONEYPOT_FIELD,
  INVALID_EMAIL_MESSAGE,
  REQUIRED_FIELDS_MESSAGE,
  SUBMIT_FAILED_MESSAGE,
  type LeadSource,
} from './schema.ts';
import { openSqliteLeadStore } from './store-sqlite.server.ts';
import type { LeadStore } from './store.server.ts';
import { silentLogger, startReceiver, tempDataDir, type Receiver } from './test-support.server.ts';

const ORIGIN = 'https://glass.example.com';

let store: LeadStore;
let data: ReturnType<typeof tempDataDir>;
let receivers: Receiver[];

beforeEach(async () => {
  data = tempDataDir('form-actions-');
  store = await openSqliteLeadStore({ dataDir: data.dir });
  receivers = [await startReceiver('ok'), await startReceiver('ok')];
});

afterEach(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await store.close();
  data.remove();
});

/** The server's lead service for one request, as the production server provides it. */
function leadsFor(
  options: { rateLimited?: boolean; acceptMode?: 'delivered' | 'stored' } = {},
): LeadsRequestContext {
  return {
    service: createLeadService({
      store,
      targets: webhookTargets(receivers.map((receiver) => receiver.url)),
      acceptMode: options.acceptMode ?? 'delivered',
      timeoutMs: 1000,
      logger: silentLogger(),
    }),
    siteUrl: ORIGIN,
    rateLimited: options.rateLimited ?? false,
  };
}

function post(
  path: string,
  fields: Record<string, string>,
  options: { headers?: Record<string, string>; body?: string } = {},
): Request {
  return new Request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: ORIGIN,
      ...options.headers,
    },
    body: options.body ?? new URLSearchParams(fields).toString(),
  });
}

type Outcome = { status: number; body?: LeadFormResult; location?: string | null };

/** What submitLeadFormPost answered for `form`'s post. */
async function run(
  form: LeadSource,
  request: Request,
  leads: LeadsRequestContext | null = leadsFor(),
): Promise<Outcome> {
  const outcome = await submitLeadFormPost(request, leads, form);
  if ('redirect' in outcome) return { status: outcome.status, location: outcome.redirect };
  return { status: outcome.status, body: outcome.result };
}

const callback = {
  firstName: '  Aroha ',
  lastName: 'Ngata',
  email: ' Aroha@Example.CO.NZ ',
  phone: ' 021 555 0101 ',
  postcode: '3110',
  serviceType: 'Business Glass',
};

const enquiry = {
  name: ' Tama Wilson ',
  email: 'TAMA@example.nz',
  phone: '027 555 0199',
  service: 'Pool Fence',
  message: '  Glass pool fence for a new deck. ',
};

describe('a plain form post (no JavaScript)', () => {
  it('valid: redirected to /thank-you (303); the lead is stored and delivered', async () => {
    const outcome = await run('hero_form', post('/', callback));
    expect(outcome).toEqual({ status: 303, location: '/thank-you' });
    const [lead] = await store.exportLeads();
    expect(lead).toMatchObject({
      name: 'Aroha Ngata',
      email: 'aroha@example.co.nz',
      phone: '021 555 0101',
      service: 'Business Glass',
      message: 'Service type: Business Glass. Postal code: 3110',
      source: 'hero_form',
      status: 'accepted',
    });
    for (const receiver of receivers) {
      expect(receiver.requests[0]?.json).toMatchObject({
        name: 'Aroha Ngata',
        source: 'hero_form',
      });
    }
  });

  it('invalid: 400 with the SPEC §8 message, the failing fields and the values typed', async () => {
    const outcome = await run(
      'quote_form',
      post('/quote', { ...enquiry, email: 'tama@example', [HONEYPOT_FIELD]: 'bots only' }),
    );
    expect(outcome.status).toBe(400);
    expect(outcome.body).toMatchObject({
      ok: false,
      error: INVALID_EMAIL_MESSAGE,
      fields: { email: INVALID_EMAIL_MESSAGE },
      values: { ...enquiry, email: 'tama@example' },
    });
    // The next plain post of the re-rendered page carries a key; the trap is not echoed.
    const values = (outcome.body as Extract<LeadFormResult, { ok: false }>).values;
    expect(values.idempotency_key).toMatch(/^[A-Za-z0-9_-]{8,}$/);
    expect(values).not.toHaveProperty(HONEYPOT_FIELD);
    expect(await store.exportLeads()).toEqual([]);
  });

  it('blank fields: the required message', async () => {
    const outcome = await run('hero_form', post('/', { ...callback, lastName: '  ' }));
    expect(outcome.status).toBe(400);
    expect(outcome.body).toMatchObject({
      error: REQUIRED_FIELDS_MESSAGE,
      fields: { lastName: REQUIRED_FIELDS_MESSAGE },
    });
  });

  it('the contact and quote pages record their own source', async () => {
    await run('contact_form', post('/contact', enquiry));
    await run('quote_form', post('/quote', enquiry));
    const leads = await store.exportLeads();
    expect(leads.map((lead) => lead.source)).toEqual(['contact_form', 'quote_form']);
    expect(leads[0]).toMatchObject({
      name: 'Tama Wilson',
      email: 'tama@example.nz',
      service: 'Pool Fence',
      message: 'Glass pool fence for a new deck.',
    });
  });
});

describe('a scripted post (js=1)', () => {
  it("valid: { ok, created_at } for the analytics, with the stored lead's time", async () => {
    const outcome = await run('quote_form', post('/quote', { ...enquiry, js: '1' }));
    expect(outcome.status).toBe(201);
    const [lead] = await store.exportLeads();
    expect(outcome.body).toEqual({ ok: true, created_at: lead?.created_at });
  });

  it('the same key twice (a double click, a retry): one lead, one delivery, the same answer', async () => {
    const fields = { ...enquiry, js: '1', idempotency_key: 'double-click-key-1' };
    const [first, second] = await Promise.all([
      run('quote_form', post('/quote', fields)),
      run('quote_form', post('/quote', fields)),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 201]);
    expect(first.body).toEqual(second.body);
    expect(await store.exportLeads()).toHaveLength(1);
    expect(receivers[0]?.requests).toHaveLength(1);
  });

  it('honeypot filled: looks like success, kept as spam, never delivered', async () => {
    const outcome = await run(
      'quote_form',
      post('/quote', { ...enquiry, js: '1', [HONEYPOT_FIELD]: 'http://spam.example' }),
    );
    expect(outcome.body).toMatchObject({ ok: true });
    const [lead] = await store.exportLeads();
    expect(lead?.status).toBe('spam');
    expect(receivers[0]?.requests).toHaveLength(0);
  });

  it('every webhook failing: 502 with the SPEC §8 message and the values kept', async () => {
    for (const receiver of receivers) receiver.mode = 'fail';
    const outcome = await run('hero_form', post('/', { ...callback, js: '1' }));
    expect(outcome.status).toBe(502);
    expect(outcome.body).toMatchObject({ ok: false, error: SUBMIT_FAILED_MESSAGE });
    expect((outcome.body as { values: Record<string, string> }).values.firstName).toBe('  Aroha ');
  });
});

describe('the API rules apply to the forms too', () => {
  it('over the rate limit (flagged by the server): 429 with the message, nothing stored', async () => {
    const outcome = await run(
      'quote_form',
      post('/quote', enquiry),
      leadsFor({ rateLimited: true }),
    );
    expect(outcome.status).toBe(429);
    expect(outcome.body).toMatchObject({ error: API_ERROR_MESSAGES.tooManyRequests });
    expect((outcome.body as { values: Record<string, string> }).values.name).toBe(enquiry.name);
    expect(await store.exportLeads()).toEqual([]);
  });

  it('larger than 16 KiB: 413', async () => {
    const outcome = await run(
      'quote_form',
      post('/quote', {}, { body: `message=${'x'.repeat(17 * 1024)}` }),
    );
    expect(outcome.status).toBe(413);
  });

  it('another content type: 415', async () => {
    const outcome = await run(
      'quote_form',
      post('/quote', enquiry, { headers: { 'Content-Type': 'text/plain' } }),
    );
    expect(outcome.status).toBe(415);
  });

  it('from another site: 403', async () => {
    const outcome = await run(
      'quote_form',
      post('/quote', enquiry, { headers: { Origin: 'https://evil.example' } }),
    );
    expect(outcome.status).toBe(403);
    expect(await store.exportLeads()).toEqual([]);
  });

  it('over-long fields are refused by the server even if a browser let them through', async () => {
    const outcome = await run(
      'quote_form',
      post('/quote', { ...enquiry, message: 'x'.repeat(1001), js: '1' }),
    );
    expect(outcome.status).toBe(400);
    expect(await store.exportLeads()).toEqual([]);
  });

  it("without the server's lead service (a bare dev server): the SPEC §8 message, not a crash", async () => {
    const errors = console.error;
    console.error = () => undefined;
    try {
      const outcome = await run('quote_form', post('/quote', enquiry), null);
      expect(outcome.status).toBe(502);
      expect(outcome.body).toMatchObject({ error: SUBMIT_FAILED_MESSAGE });
    } finally {
      console.error = errors;
    }
  });
});

describe("wantsJson: the form's script asks for JSON, a plain post for HTML", () => {
  it('reads the Accept header', () => {
    const html = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    expect(wantsJson(post('/quote', enquiry, { headers: { Accept: 'application/json' } }))).toBe(
      true,
    );
    expect(wantsJson(post('/quote', enquiry, { headers: html }))).toBe(false);
    expect(wantsJson(post('/quote', enquiry))).toBe(false);
  });
});

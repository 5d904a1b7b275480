import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { webhookTargets } from '../delivery/webhooks.server.ts';
import {
  API_ERROR_MESSAGES,
  formPostAnswer,
  receiveLead,
  type LeadsRequestContext,
} from './receive-lead.server.ts';
import type { LeadFormResult } from './form-submission.ts';
import { createLeadService, type LeadService, type SubmitContext } from '../lead-service.server.ts';
import { createProofOfWork, type ProofOfWork } from './proof-of-work.server.ts';
import { PROOF_OF_WORK_FIELD } from './form-submission.ts';
import {
  HONEYPOT_FIELD,
  INVALID_EMAIL_MESSAGE,
  REQUIRED_FIELDS_MESSAGE,
  SUBMIT_FAILED_MESSAGE,
  UNEXPECTED_ERROR_MESSAGE,
  URGENT_FIELD,
  URGENT_MESSAGE,
  URGENT_VALUE,
  type LeadSource,
  ATTRIBUTION_MESSAGE,
  REFERRER_MESSAGE,
} from './schema.ts';
import { NO_ATTRIBUTION } from './attribution.ts';
import { openSqliteStore } from '../../db/store-sqlite.server.ts';
import type { AppStore } from '../../db/store.server.ts';
import {
  silentLogger,
  startReceiver,
  tempDataDir,
  type Receiver,
} from '../testing/test-support.server.ts';

const ORIGIN = 'https://glass.example.com';

let store: AppStore;
let data: ReturnType<typeof tempDataDir>;
let receivers: Receiver[];

beforeEach(async () => {
  data = tempDataDir('receive-lead-');
  store = await openSqliteStore({ dataDir: data.dir });
  receivers = [await startReceiver('ok'), await startReceiver('ok')];
});

afterEach(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await store.close();
  data.remove();
});

/** The server's lead service for one request, as the production server provides it. */
function leadsFor(
  options: {
    rateLimited?: boolean;
    acceptMode?: 'delivered' | 'stored';
    proofOfWork?: ProofOfWork;
    /** Told what the door handed the lead service besides the lead. */
    onContext?: (context: SubmitContext | undefined) => void;
  } = {},
): LeadsRequestContext {
  const service = createLeadService({
    store,
    targets: webhookTargets(receivers.map((receiver) => receiver.url)),
    acceptMode: options.acceptMode ?? 'delivered',
    timeoutMs: 1000,
    logger: silentLogger(),
  });
  const watched: LeadService = {
    submit(input, photos, context) {
      options.onContext?.(context);
      return service.submit(input, photos, context);
    },
  };
  return {
    service: watched,
    rateLimited: options.rateLimited ?? false,
    ...(options.proofOfWork ? { proofOfWork: options.proofOfWork } : {}),
  };
}

function post(
  path: string,
  fields: Record<string, string>,
  options: { headers?: Record<string, string>; body?: string } = {},
): Request {
  const body = options.body ?? new URLSearchParams(fields).toString();
  return new Request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      // As a browser declares a form's body.
      'Content-Length': String(Buffer.byteLength(body)),
      Origin: ORIGIN,
      ...options.headers,
    },
    body,
  });
}

type Outcome = { status: number; body?: LeadFormResult; location?: string | null };

/** What the page of `form` answers a plain post with (app/pages/on-demand/*-form.astro). */
async function run(
  form: LeadSource,
  request: Request,
  leads: LeadsRequestContext = leadsFor(),
): Promise<Outcome> {
  const answer = formPostAnswer(await receiveLead(request, leads, form));
  if ('redirect' in answer) return { status: 303, location: answer.redirect };
  return { status: answer.status, body: answer.result };
}

/** What the form's script gets from POST /api/leads: the outcome, named by the body's `form`. */
const viaApi = (request: Request, leads: LeadsRequestContext = leadsFor()) =>
  receiveLead(request, leads);

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

  it('invalid: 400 with the documented message, the failing fields and the values typed', async () => {
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

describe('an urgent enquiry (docs/operations.md#urgent-enquiries)', () => {
  const urgent = { [URGENT_FIELD]: URGENT_VALUE };

  it.each([
    ['hero_form', '/', callback],
    ['contact_form', '/contact', enquiry],
    ['quote_form', '/quote', enquiry],
  ] as const)(
    '%s posted without JavaScript: to /thank-you/urgent, stored urgent',
    async (form, path, fields) => {
      const outcome = await run(form, post(path, { ...fields, ...urgent }));
      expect(outcome).toEqual({ status: 303, location: '/thank-you/urgent' });
      expect(await store.exportLeads()).toEqual([
        expect.objectContaining({ source: form, urgent: true }),
      ]);
    },
  );

  it('a refused urgent form keeps the box ticked on the page rendered again', async () => {
    const outcome = await run(
      'contact_form',
      post('/contact', { ...enquiry, ...urgent, phone: '' }),
    );
    expect(outcome.status).toBe(400);
    expect(outcome.body).toMatchObject({ values: { urgent: 'yes' } });
  });

  it("through the form's script: urgent in the outcome and the store", async () => {
    const outcome = await viaApi(post('/api/leads', { ...callback, ...urgent, form: 'hero_form' }));
    expect(outcome).toMatchObject({ ok: true, status: 201, urgent: true });
    expect(await store.exportLeads()).toEqual([expect.objectContaining({ urgent: true })]);
  });

  it('a program sends "urgent": "yes" or true; any other value is refused, naming the field', async () => {
    const json = (body: unknown) =>
      new Request(`${ORIGIN}/api/leads`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const lead = { ...enquiry, source: 'contact_form' };
    expect(await viaApi(json({ ...lead, urgent: 'yes' }))).toMatchObject({
      ok: true,
      urgent: true,
    });
    expect(await viaApi(json({ ...lead, urgent: true }))).toMatchObject({ ok: true, urgent: true });
    expect(await viaApi(json({ ...lead, urgent: false }))).toMatchObject({
      ok: true,
      urgent: false,
    });
    expect(await viaApi(json({ ...lead, urgent: 'urgent!' }))).toMatchObject({
      ok: false,
      status: 400,
      error: URGENT_MESSAGE,
      fields: { urgent: URGENT_MESSAGE },
    });
    expect((await store.exportLeads()).map((stored) => stored.urgent)).toEqual([true, true, false]);
  });
});

describe("the form's script, through the API (form=…)", () => {
  it("valid: the stored lead's id and time, for the analytics", async () => {
    const outcome = await viaApi(post('/api/leads', { ...enquiry, form: 'quote_form' }));
    const [lead] = await store.exportLeads();
    expect(outcome).toEqual({
      ok: true,
      status: 201,
      id: lead?.id,
      created_at: lead?.created_at,
      urgent: false,
    });
    expect(lead?.source).toBe('quote_form');
  });

  it("a refusal names the form's own fields, not the lead's", async () => {
    const outcome = await viaApi(
      post('/api/leads', { ...callback, lastName: ' ', form: 'hero_form' }),
    );
    expect(outcome).toMatchObject({
      ok: false,
      status: 400,
      error: REQUIRED_FIELDS_MESSAGE,
      fields: { lastName: REQUIRED_FIELDS_MESSAGE },
    });
  });

  it('the same key twice (a double click, a retry): one lead, one delivery, the same answer', async () => {
    const fields = { ...enquiry, form: 'quote_form', idempotency_key: 'double-click-key-1' };
    const [first, second] = await Promise.all([
      viaApi(post('/api/leads', fields)),
      viaApi(post('/api/leads', fields)),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 201]);
    expect({ ...first, status: 0 }).toEqual({ ...second, status: 0 });
    expect(await store.exportLeads()).toHaveLength(1);
    expect(receivers[0]?.requests).toHaveLength(1);
  });

  it('honeypot filled: looks like success, kept as spam, never delivered', async () => {
    const outcome = await viaApi(
      post('/api/leads', {
        ...enquiry,
        form: 'quote_form',
        [HONEYPOT_FIELD]: 'http://spam.example',
      }),
    );
    expect(outcome).toMatchObject({ ok: true });
    const [lead] = await store.exportLeads();
    expect(lead?.status).toBe('spam');
    expect(receivers[0]?.requests).toHaveLength(0);
  });

  it('every webhook failing: 502 with the documented message', async () => {
    for (const receiver of receivers) receiver.mode = 'fail';
    const outcome = await viaApi(post('/api/leads', { ...callback, form: 'hero_form' }));
    expect(outcome).toMatchObject({ ok: false, status: 502, error: SUBMIT_FAILED_MESSAGE });
  });

  it("without `form`, a lead as a program sends it, checked by the lead service's schema", async () => {
    const outcome = await viaApi(
      post(
        '/api/leads',
        { ...enquiry, source: 'contact_form' },
        {
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ ...enquiry, source: 'contact_form' }),
        },
      ),
    );
    expect(outcome).toMatchObject({ ok: true, status: 201 });
    const refused = await viaApi(post('/api/leads', { ...callback }));
    expect(refused).toMatchObject({ ok: false, status: 400 });
  });

  it('a service that throws: 502 with the unexpected-error message, reported', async () => {
    const reported: unknown[] = [];
    const outcome = await viaApi(post('/api/leads', { ...enquiry, form: 'quote_form' }), {
      service: { submit: () => Promise.reject(new Error('boom')) },
      rateLimited: false,
      onError: (error) => reported.push(error),
    });
    expect(outcome).toMatchObject({ ok: false, status: 502, error: UNEXPECTED_ERROR_MESSAGE });
    expect(reported).toHaveLength(1);
  });
});

describe('the proof of work (docs/forms.md#proof-of-work)', () => {
  /** Easy enough to solve at once here; its checks are in proof-of-work.server.test.ts. */
  const proofOfWork = () =>
    createProofOfWork({ store, difficulty: { cost: 10, counterMin: 10, counterMax: 30 } });

  /** What the form's script sends in `altcha`: a solved challenge, base64 JSON. */
  async function solved(proof: ProofOfWork): Promise<string> {
    const challenge = await proof.challenge();
    const solution = await solveChallenge({ challenge, deriveKey });
    return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  }

  it('a solution sent with the form is handed to the lead service as valid; sent again, spam', async () => {
    const proof = proofOfWork();
    const verdicts: Array<string | undefined> = [];
    const leads = leadsFor({ proofOfWork: proof, onContext: (s) => verdicts.push(s?.proof) });
    const altcha = await solved(proof);
    const fields = { ...enquiry, form: 'quote_form', [PROOF_OF_WORK_FIELD]: altcha };
    const first = await viaApi(
      post('/api/leads', { ...fields, idempotency_key: 'pow-first-01' }),
      leads,
    );
    expect(first).toMatchObject({ ok: true, status: 201 });
    // The same solution with another enquiry: looks accepted, kept as spam, never delivered.
    const replay = await viaApi(
      post('/api/leads', { ...fields, phone: '027 555 0100', idempotency_key: 'pow-second-1' }),
      leads,
    );
    expect(replay).toMatchObject({ ok: true, status: 201 });
    expect(verdicts).toEqual(['valid', 'replayed']);
    const stored = await store.exportLeads();
    expect(stored.map((lead) => [lead.phone, lead.status])).toEqual([
      ['027 555 0199', 'accepted'],
      ['027 555 0100', 'spam'],
    ]);
    for (const receiver of receivers) expect(receiver.requests).toHaveLength(1);
  });

  it('the same request retried (the same key) is answered as the first, not as a replay', async () => {
    const leads = leadsFor({ proofOfWork: proofOfWork() });
    const fields = {
      ...callback,
      form: 'hero_form',
      idempotency_key: 'pow-retried-1',
      [PROOF_OF_WORK_FIELD]: await solved(leads.proofOfWork!),
    };
    const first = await viaApi(post('/api/leads', fields), leads);
    const again = await viaApi(post('/api/leads', fields), leads);
    expect(first).toMatchObject({ ok: true, status: 201 });
    expect(again).toMatchObject({ ok: true, status: 200, id: first.ok ? first.id : '' });
    expect((await store.exportLeads()).map((lead) => lead.status)).toEqual(['accepted']);
  });

  it('an invalid one makes the lead spam, answered as a success', async () => {
    const verdicts: Array<string | undefined> = [];
    const leads = leadsFor({
      proofOfWork: proofOfWork(),
      onContext: (s) => verdicts.push(s?.proof),
    });
    const forged = Buffer.from(JSON.stringify({ challenge: { parameters: {} }, solution: {} }));
    const outcome = await viaApi(
      post('/api/leads', {
        ...callback,
        form: 'hero_form',
        [PROOF_OF_WORK_FIELD]: forged.toString('base64'),
      }),
      leads,
    );
    expect(outcome).toMatchObject({ ok: true, status: 201 });
    expect(verdicts).toEqual(['invalid']);
    expect((await store.exportLeads()).map((lead) => lead.status)).toEqual(['spam']);
    expect(receivers[0]?.requests).toHaveLength(0);
  });

  it('none, from a form without JavaScript or a program, is never spam for that alone', async () => {
    const verdicts: Array<string | undefined> = [];
    const leads = leadsFor({
      proofOfWork: proofOfWork(),
      onContext: (s) => verdicts.push(s?.proof),
    });
    expect(await run('hero_form', post('/', callback), leads)).toMatchObject({ status: 303 });
    const json = JSON.stringify({ ...enquiry, source: 'contact_form' });
    const program = await viaApi(
      post('/api/leads', {}, { headers: { 'Content-Type': 'application/json' }, body: json }),
      leads,
    );
    expect(program).toMatchObject({ ok: true, status: 201 });
    expect(verdicts).toEqual(['absent', 'absent']);
    expect((await store.exportLeads()).map((lead) => lead.status)).toEqual([
      'accepted',
      'accepted',
    ]);
  });
});

describe('the same rules for every door', () => {
  it('over the rate limit (flagged by the server): 429 with the message and the values, nothing stored', async () => {
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

  it('over the rate limit, a body not declared small is answered 429 without a byte read', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const request = new Request(`${ORIGIN}/quote`, {
      method: 'POST',
      headers: {
        'Content-Type': 'multipart/form-data; boundary=x',
        'Content-Length': String(30 * 1024 * 1024),
      },
      body,
      duplex: 'half',
    } as RequestInit);
    const outcome = await run('quote_form', request, leadsFor({ rateLimited: true }));
    expect(outcome.status).toBe(429);
    expect(outcome.body).toMatchObject({ error: API_ERROR_MESSAGES.tooManyRequests });
    // A stream pulls once to fill its buffer when made; nothing more was asked for.
    expect(pulled).toBeLessThanOrEqual(1);
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

  it('over-long fields are refused by the server even if a browser let them through', async () => {
    const outcome = await run(
      'quote_form',
      post('/quote', { ...enquiry, message: 'x'.repeat(1001) }),
    );
    expect(outcome.status).toBe(400);
    expect(await store.exportLeads()).toEqual([]);
  });
});

describe('where the enquiry came from (docs/operations.md#where-enquiries-come-from)', () => {
  const visit = {
    landing: '/?utm_source=google&utm_medium=cpc&gclid=Cj0KCQ',
    referrer: 'www.google.com',
    utm_source: 'google',
    utm_medium: 'cpc',
    utm_campaign: 'showers',
    utm_term: '',
    utm_content: '',
    gclid: 'Cj0KCQ',
  };
  const kept = { ...visit, utm_term: null, utm_content: null };

  it("the form's script sends the visit's fields: kept on the lead, and in the webhook", async () => {
    const outcome = await viaApi(post('/api/leads', { ...enquiry, ...visit, form: 'quote_form' }));
    expect(outcome).toMatchObject({ ok: true, status: 201 });
    const [lead] = await store.exportLeads();
    expect(lead?.attribution).toEqual(kept);
    expect(receivers[0]?.requests[0]?.json).toMatchObject({ attribution: kept });
  });

  it.each([
    ['hero_form', '/', callback],
    ['contact_form', '/contact', enquiry],
    ['quote_form', '/quote', enquiry],
  ] as const)(
    '%s posted without JavaScript: only the form’s page is known',
    async (form, path, fields) => {
      // Whatever a plain post claims, only its page is known for sure.
      const outcome = await run(form, post(path, { ...fields, ...visit }));
      expect(outcome.status).toBe(303);
      const [lead] = await store.exportLeads();
      expect(lead?.attribution).toEqual({ ...NO_ATTRIBUTION, landing: path });
    },
  );

  it('a bad value is refused with its message, naming the field; nothing is stored', async () => {
    const outcome = await viaApi(
      post('/api/leads', { ...enquiry, form: 'contact_form', gclid: 'x'.repeat(201) }),
    );
    expect(outcome).toMatchObject({
      ok: false,
      status: 400,
      error: ATTRIBUTION_MESSAGE,
      fields: { gclid: ATTRIBUTION_MESSAGE },
    });
    expect(await store.exportLeads()).toEqual([]);
  });

  it('a program may send them or not', async () => {
    const json = (body: unknown) =>
      new Request(`${ORIGIN}/api/leads`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const lead = { ...enquiry, source: 'contact_form' };
    expect(await viaApi(json(lead))).toMatchObject({ ok: true });
    expect(await viaApi(json({ ...lead, utm_source: 'newsletter' }))).toMatchObject({ ok: true });
    expect(await viaApi(json({ ...lead, referrer: 'https://x.example/' }))).toMatchObject({
      ok: false,
      status: 400,
      fields: { referrer: REFERRER_MESSAGE },
    });
    expect((await store.exportLeads()).map((stored) => stored.attribution)).toEqual([
      NO_ATTRIBUTION,
      { ...NO_ATTRIBUTION, utm_source: 'newsletter' },
    ]);
  });
});

import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerGate } from '../../server/owner-gate.server.ts';
import { startTestSite, type TestSite } from '../../server/testing/site-test-support.server.ts';
import { eventually } from '../leads/testing/test-support.server.ts';
import { startSmtpServer, type TestSmtpServer } from '../leads/testing/smtp-test-support.server.ts';
import type { OwnerRecord } from '../db/store.server.ts';
import type { OwnerPagesContext } from './context.server.ts';
import { SIGN_IN_LIMITS, signInLimits } from './limits.server.ts';
import { ownerSessions, secretHash } from './sessions.server.ts';
import {
  answerLinkRequest,
  finishPasskeySignIn,
  finishSetup,
  requestSignInLink,
  setupOptions,
  signInOptions,
  signInWithLink,
  signOut,
} from './sign-in.server.ts';

/**
 * The sign-in pages' work (sign-in.server.ts) on the server as start.ts
 * assembles it, with a real SMTP server on loopback for the e-mailed links.
 * Creating and using a real passkey needs a browser's authenticator:
 * e2e/owner-sign-in.spec.ts does that in Chromium.
 */

const SITE_URL = 'https://glass.example.nz';

let site: TestSite;
let smtp: TestSmtpServer;
let context: OwnerPagesContext;

beforeAll(async () => {
  smtp = await startSmtpServer();
  site = await startTestSite({
    SITE_URL,
    LEAD_EMAIL_TO: 'office@glass.example.nz',
    LEAD_EMAIL_FROM: 'website@glass.example.nz',
    SMTP_URL: smtp.url,
  });
  context = site.leads.ownerPages!;
});
afterAll(async () => {
  await site?.close();
  await smtp?.close();
});

let counter = 0;
async function newOwner(): Promise<OwnerRecord> {
  counter += 1;
  const { owner } = await context.store.addOwner(
    `owner${counter}.${Date.now()}@glass.example.nz`,
    new Date().toISOString(),
  );
  return owner;
}
const uniqueClient = () => `192.0.2.${(counter += 1)}-${Math.random()}`;
const tokenIn = (text: string, kind: string) =>
  new RegExp(`${SITE_URL}/admin/${kind}/([A-Za-z0-9_-]{43})`).exec(text)?.[1];

describe('an e-mailed sign-in link', () => {
  it('goes to an owner’s address only, works once, and starts a session', async () => {
    const owner = await newOwner();
    const before = smtp.messages.length;
    const stranger = await requestSignInLink(context, 'nobody@glass.example.nz', uniqueClient());
    expect(await stranger.sent).toBe(false);
    const asked = await requestSignInLink(
      context,
      ` ${owner.email.toUpperCase()} `,
      uniqueClient(),
    );
    expect(await asked.sent).toBe(true);
    await smtp.waitForMessages(before + 1);
    const mails = smtp.messages.slice(before);
    expect(mails.map((mail) => mail.envelope.to)).toEqual([[owner.email]]);
    const token = tokenIn(mails[0]?.parsed.text ?? '', 'sign-in');
    expect(token).toBeDefined();

    const session = await signInWithLink(context, token);
    expect((await context.sessions.resolve(session ?? undefined))?.owner.id).toBe(owner.id);
    expect(await signInWithLink(context, token)).toBeNull();
    expect(await signInWithLink(context, 'x'.repeat(43))).toBeNull();
    expect((await context.store.listActivity({ limit: 5 })).map((a) => a.action)).toContain(
      'owner.signed-in',
    );

    await signOut(context, owner, session ?? undefined);
    expect(await context.sessions.resolve(session ?? undefined)).toBeNull();
  });

  it('is sent at most 5 times an hour to one address from one client, an IPv6 /64 being one', async () => {
    const owner = await newOwner();
    const results: boolean[] = [];
    for (let i = 0; i < SIGN_IN_LIMITS.linkPerAddress.max + 2; i++) {
      const client = `2001:db8:77:${counter}:${i + 1}::1`;
      results.push(await (await requestSignInLink(context, owner.email, client)).sent);
    }
    expect(results).toEqual([true, true, true, true, true, false, false]);
  });

  it('cannot be used up for the owner by requests from other clients', async () => {
    const owner = await newOwner();
    // Strangers ask for the owner's links, from more clients than the allowance.
    const strangers: boolean[] = [];
    for (let i = 0; i < SIGN_IN_LIMITS.linkPerAddress.max * 3; i++) {
      strangers.push(await (await requestSignInLink(context, owner.email, uniqueClient())).sent);
    }
    expect(strangers.every(Boolean)).toBe(true);
    // The owner, on their own connection, still gets theirs.
    const own = uniqueClient();
    expect(await (await requestSignInLink(context, owner.email, own)).sent).toBe(true);
  });

  it('is limited per client too, whatever the addresses', async () => {
    const owner = await newOwner();
    const client = uniqueClient();
    for (let i = 0; i < SIGN_IN_LIMITS.linkPerClient.max; i++) {
      await requestSignInLink(context, `guess${i}@glass.example.nz`, client);
    }
    expect(await (await requestSignInLink(context, owner.email, client)).sent).toBe(false);
    expect(await (await requestSignInLink(context, owner.email, uniqueClient())).sent).toBe(true);
  });
});

describe("the link form's answer", () => {
  /**
   * The gate and the sign-in page's POST (answerLinkRequest) on a server,
   * with the store watched: whether the address is an owner's, the answer
   * is the same and is sent before the store is asked anything, so its
   * timing cannot tell either.
   */
  let server: http.Server;
  let url: string;
  let events: string[];

  beforeAll(async () => {
    events = [];
    const watched = new Set(['hitRateLimit', 'findOwnerByEmail', 'createOwnerLink']);
    const store = new Proxy(context.store, {
      get(target, name) {
        const value: unknown = Reflect.get(target, name, target);
        if (typeof value !== 'function' || !watched.has(String(name))) return value;
        return (...args: unknown[]) => {
          events.push(`store.${String(name)}`);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const watchedContext: OwnerPagesContext = {
      ...context,
      store,
      limits: signInLimits(store),
      sessions: ownerSessions(store),
    };
    const app = express();
    app.set('trust proxy', 'loopback');
    app.use(
      '/admin',
      ownerGate({
        context: watchedContext,
        render: async (req, res, _next, locals) => {
          const request = new Request(`${SITE_URL}${req.originalUrl}`, {
            method: req.method,
            headers: req.headers as Record<string, string>,
            body: Readable.toWeb(req) as ReadableStream,
            duplex: 'half',
          } as RequestInit);
          const answer = await answerLinkRequest(
            locals.ownerPages,
            request,
            locals.client,
            locals.afterResponse,
          );
          res.once('finish', () => events.push('answered'));
          res.status(answer.status);
          answer.headers.forEach((value, name) => res.setHeader(name, value));
          res.end(Buffer.from(await answer.arrayBuffer()));
        },
      }),
    );
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  let clients = 0;
  async function ask(email: string) {
    clients += 1;
    const response = await fetch(`${url}/admin/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        origin: SITE_URL,
        'content-type': 'application/x-www-form-urlencoded',
        'x-forwarded-for': `2001:db8:5a:${clients.toString(16)}::1`,
      },
      body: new URLSearchParams({ email }).toString(),
    });
    return {
      answer: {
        status: response.status,
        location: response.headers.get('location'),
        cookie: response.headers.get('set-cookie'),
        body: await response.text(),
      },
    };
  }

  it('is the same for an owner and a stranger, and sent before the store is asked', async () => {
    const owner = await newOwner();
    const answers = [];
    for (const email of [owner.email, 'stranger@glass.example.nz']) {
      events = [];
      const before = smtp.messages.length;
      const { answer } = await ask(email);
      answers.push(answer);
      // The work goes on after the answer: the limits, the owner, the link.
      await eventually(() =>
        expect(events).toContain(
          email === owner.email ? 'store.createOwnerLink' : 'store.findOwnerByEmail',
        ),
      );
      if (email === owner.email) await smtp.waitForMessages(before + 1);
      expect(events[0]).toBe('answered');
    }
    expect(answers[0]).toEqual({
      status: 303,
      location: '/admin/sign-in?asked',
      cookie: null,
      body: '',
    });
    expect(answers[1]).toEqual(answers[0]);
  });
});

describe('the set-up link', () => {
  it('gives passkey options for its owner without being used, and keeps the challenge in the store', async () => {
    const owner = await newOwner();
    const link = await context.sessions.createLink(owner.id, 'setup');
    const first = await setupOptions(context, link.token);
    const second = await setupOptions(context, link.token);
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok) return;
    expect(first.value.rp).toEqual({ id: 'glass.example.nz', name: expect.any(String) });
    expect(first.value.user.name).toBe(owner.email);
    expect(first.value.user.id).toBe(owner.webauthn_user_id);
    expect(first.value.authenticatorSelection).toEqual(
      expect.objectContaining({ residentKey: 'required', userVerification: 'required' }),
    );
    // Kept server-side, for this owner, once.
    const kept = await context.store.consumeOwnerChallenge(
      secretHash(first.value.challenge),
      'registration',
      new Date().toISOString(),
    );
    expect(kept).toEqual({ owner_id: owner.id });
    // The link still works.
    expect(
      await context.store.findOwnerLink(secretHash(link.token), 'setup', new Date().toISOString()),
    ).toEqual(owner);
  });

  it('refuses an expired, used or made-up link with a way to get a new one', async () => {
    for (const token of [undefined, 'nonsense', 'A'.repeat(43)]) {
      const answer = await setupOptions(context, token);
      expect(answer).toEqual({
        ok: false,
        status: 410,
        message: expect.stringContaining('Ask whoever runs the website’s server'),
      });
    }
  });

  it('keeps the link and stores nothing when the passkey does not verify', async () => {
    const owner = await newOwner();
    const link = await context.sessions.createLink(owner.id, 'setup');
    const options = await setupOptions(context, link.token);
    if (!options.ok) throw new Error('no options');
    const forged = {
      id: 'AAAA',
      rawId: 'AAAA',
      type: 'public-key',
      response: {
        clientDataJSON: Buffer.from(
          JSON.stringify({
            type: 'webauthn.create',
            challenge: options.value.challenge,
            origin: SITE_URL,
          }),
        ).toString('base64url'),
        attestationObject: 'AAAA',
      },
      clientExtensionResults: {},
    };
    for (const answer of [forged, undefined, 'x', { ...forged, type: 'other' }]) {
      const result = await finishSetup(context, link.token, answer, 'Mozilla/5.0 (iPhone)');
      expect(result).toEqual(expect.objectContaining({ ok: false, status: 400 }));
    }
    expect(await context.store.listPasskeys(owner.id)).toEqual([]);
    expect(await setupOptions(context, link.token)).toEqual(expect.objectContaining({ ok: true }));
  });
});

describe('signing in with a passkey', () => {
  it('keeps each challenge in the store, for anyone', async () => {
    const options = await signInOptions(context, uniqueClient());
    if (!options.ok) throw new Error('refused');
    expect(options.value.rpId).toBe('glass.example.nz');
    expect(options.value.userVerification).toBe('required');
    expect(options.value.allowCredentials ?? []).toEqual([]);
    expect(
      await context.store.consumeOwnerChallenge(
        secretHash(options.value.challenge),
        'authentication',
        new Date().toISOString(),
      ),
    ).toEqual({ owner_id: null });
  });

  it('counts failures per client, then refuses that client (and only it)', async () => {
    const client = uniqueClient();
    for (let i = 0; i < SIGN_IN_LIMITS.failedPasskeyPerClient.max; i++) {
      const answer = await finishPasskeySignIn(context, { id: 'nope' }, client);
      expect(answer).toEqual(expect.objectContaining({ ok: false, status: 401 }));
    }
    expect(await finishPasskeySignIn(context, { id: 'nope' }, client)).toEqual(
      expect.objectContaining({ ok: false, status: 429 }),
    );
    expect(await signInOptions(context, client)).toEqual(
      expect.objectContaining({ ok: false, status: 429 }),
    );
    expect(await signInOptions(context, uniqueClient())).toEqual(
      expect.objectContaining({ ok: true }),
    );
  });

  it('counts a failure against the address of the passkey it names, from any client', async () => {
    const owner = await newOwner();
    const id = Buffer.from(`passkey-${owner.id}`).toString('base64url');
    await context.store.addPasskey({
      id,
      owner_id: owner.id,
      public_key: new Uint8Array(77),
      counter: 0,
      transports: ['internal'],
      name: 'iPhone',
      created_at: new Date().toISOString(),
    });
    const options = await signInOptions(context, uniqueClient());
    if (!options.ok) throw new Error('refused');
    const answer = {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: Buffer.from(
          JSON.stringify({
            type: 'webauthn.get',
            challenge: options.value.challenge,
            origin: SITE_URL,
          }),
        ).toString('base64url'),
        authenticatorData: 'AAAA',
        signature: 'AAAA',
      },
      clientExtensionResults: {},
    };
    for (let i = 0; i < SIGN_IN_LIMITS.failedPasskeyPerAddress.max; i++) {
      expect(await finishPasskeySignIn(context, answer, uniqueClient())).toEqual(
        expect.objectContaining({ ok: false, status: 401 }),
      );
    }
    expect(await finishPasskeySignIn(context, answer, uniqueClient())).toEqual(
      expect.objectContaining({ ok: false, status: 429 }),
    );
    expect(await context.limits.passkeyBlocked(uniqueClient(), owner.email)).toBe(true);
  });
});

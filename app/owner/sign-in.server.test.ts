import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSite, type TestSite } from '../../server/site-test-support.server.ts';
import { startSmtpServer, type TestSmtpServer } from '../leads/testing/smtp-test-support.server.ts';
import type { OwnerRecord } from '../leads/store/store.server.ts';
import type { OwnerPagesContext } from './context.server.ts';
import { SIGN_IN_LIMITS } from './limits.server.ts';
import { secretHash } from './sessions.server.ts';
import {
  finishPasskeySignIn,
  finishSetup,
  readBody,
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

describe('a request body', () => {
  it('is read up to its limit, and refused beyond it', async () => {
    const post = (body: string) => new Request('https://x.test/', { method: 'POST', body });
    expect(await readBody(post('hello'), 10)).toBe('hello');
    expect(await readBody(post('x'.repeat(11)), 10)).toBeNull();
    const streamed = new Request('https://x.test/', {
      method: 'POST',
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < 5; i++) controller.enqueue(new Uint8Array(4));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(await readBody(streamed, 10)).toBeNull();
  });
});

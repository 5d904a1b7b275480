import type { AstroCookies } from 'astro';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { OwnerLinkKind, OwnerRecord } from '../db/store.server.ts';
import type { OwnerPagesContext } from './context.server.ts';
import {
  authenticationOptions,
  deviceName,
  registrationOptions,
  verifyAuthentication,
  verifyRegistration,
} from './passkeys.server.ts';
import { TOO_MANY } from './limits.server.ts';
import { readForm, readText, type BodyRequest } from '../http/body.server.ts';
import { deviceSlug, OWNER_ACTIVITY } from './owner-activity.ts';
import { isSecret, ownerLinkUrl, secretHash, sessionTag } from './sessions.server.ts';

/**
 * What the sign-in pages under /admin do (docs/operations.md, "Owner's
 * pages"), apart from Astro: the pages and endpoints in app/pages/admin read
 * the request, call one of these and answer. Every way in ends in
 * startSession(): a session, the owner's sign-in noted, a line in the
 * activity list.
 */

/** The most a sign-in request's body may hold; a passkey's answer is a few kilobytes. */
export const BODY_LIMIT_BYTES = 64 * 1024;

/** A JSON body (the passkey script's), or undefined when it is too large or not JSON. */
export async function readJson(request: BodyRequest): Promise<unknown> {
  const read = await readText(request, BODY_LIMIT_BYTES);
  if (!read.ok) return undefined;
  try {
    return JSON.parse(read.value) as unknown;
  } catch {
    return undefined;
  }
}

/** A JSON answer of the sign-in endpoints (never cached: the gate says so for all of /admin). */
export function jsonAnswer(status: number, body: Record<string, unknown>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}

/** An answer for an endpoint from an Answer that failed. */
export function failedAnswer(answer: { status: number; message: string }): Response {
  return jsonAnswer(answer.status, { ok: false, message: answer.message });
}

export type SignInWay = 'setup' | 'passkey' | 'link';

/** Starts a session for an owner: the cookie's value, or null when the owner is gone. */
export async function startSession(
  context: OwnerPagesContext,
  owner: OwnerRecord,
  way: SignInWay,
): Promise<string | null> {
  const session = await context.sessions.create(owner.id);
  if (session === null) return null;
  await context.store.recordActivity({
    at: new Date().toISOString(),
    actor: owner.email,
    action: OWNER_ACTIVITY.signedIn,
    detail: `way=${way},session=${sessionTag(session)}`,
  });
  return session;
}

/** Sets the session cookie on an answer (Astro.cookies). */
export function setSessionCookie(
  cookies: AstroCookies,
  context: OwnerPagesContext,
  session: string,
): void {
  cookies.set(context.cookie.name, session, {
    ...context.cookie.options,
    maxAge: context.cookie.maxAgeSeconds,
  });
}

/** Clears the session cookie, with the attributes it was set with. */
export function clearSessionCookie(cookies: AstroCookies, context: OwnerPagesContext): void {
  cookies.delete(context.cookie.name, context.cookie.options);
}

export type Answer<T> = { ok: true; value: T } | { ok: false; status: number; message: string };

const NO_LINK =
  'This set-up link has expired, has been used already, or is not a link we made. Ask whoever runs the website’s server for a new one.';

// ---------------------------------------------------------------------------
// The set-up link: creating a passkey

/** The owner a link is for while it works, without using it (mail scanners open links too). */
export async function linkOwner(
  context: OwnerPagesContext,
  token: string | undefined,
  kind: OwnerLinkKind,
): Promise<OwnerRecord | null> {
  if (!isSecret(token)) return null;
  return context.store.findOwnerLink(secretHash(token), kind, new Date().toISOString());
}

export async function setupOptions(
  context: OwnerPagesContext,
  token: string | undefined,
): Promise<Answer<PublicKeyCredentialCreationOptionsJSON>> {
  const owner = await linkOwner(context, token, 'setup');
  if (!owner) return { ok: false, status: 410, message: NO_LINK };
  return { ok: true, value: await registrationOptions(context, owner) };
}

/**
 * Stores the new passkey once it verifies, using the set-up link then (not
 * before: a passkey that failed leaves the link working), and starts a
 * session. Resolves with the session cookie's value.
 */
export async function finishSetup(
  context: OwnerPagesContext,
  token: string | undefined,
  answer: unknown,
  userAgent: string | null,
): Promise<Answer<string>> {
  const owner = await linkOwner(context, token, 'setup');
  if (!owner) return { ok: false, status: 410, message: NO_LINK };
  const verified = await verifyRegistration(context, owner, answer);
  if (!verified.ok) {
    return {
      ok: false,
      status: 400,
      message: 'That passkey could not be checked. Try again, or try another device.',
    };
  }
  // Used now: of two answers at once, one goes on.
  if (!(await context.sessions.consumeLink(token, 'setup'))) {
    return { ok: false, status: 410, message: NO_LINK };
  }
  const now = new Date().toISOString();
  const added = await context.store.addPasskey({
    id: verified.passkey.id,
    owner_id: owner.id,
    public_key: verified.passkey.publicKey,
    counter: verified.passkey.counter,
    transports: verified.passkey.transports,
    name: deviceName(userAgent),
    created_at: now,
  });
  if (!added) {
    return { ok: false, status: 409, message: 'That passkey is registered already.' };
  }
  const session = await startSession(context, owner, 'setup');
  if (session === null) return { ok: false, status: 410, message: NO_LINK };
  // The device and the session it was made in: the activity list says
  // "on an iPhone", or "on this phone" to the owner still in that session.
  await context.store.recordActivity({
    at: now,
    actor: owner.email,
    action: OWNER_ACTIVITY.passkeyAdded,
    detail: `device=${deviceSlug(deviceName(userAgent))},session=${sessionTag(session)}`,
  });
  return { ok: true, value: session };
}

// ---------------------------------------------------------------------------
// Signing in with a passkey

export async function signInOptions(
  context: OwnerPagesContext,
  client: string,
): Promise<Answer<PublicKeyCredentialRequestOptionsJSON>> {
  if (await context.limits.passkeyBlocked(client)) {
    return { ok: false, status: 429, message: TOO_MANY };
  }
  return { ok: true, value: await authenticationOptions(context) };
}

/**
 * Checks a passkey's answer; a failure counts against this client and, when
 * the passkey names an owner, that owner's address. A success counts
 * nothing. Resolves with the session cookie's value.
 */
export async function finishPasskeySignIn(
  context: OwnerPagesContext,
  answer: unknown,
  client: string,
): Promise<Answer<string>> {
  if (await context.limits.passkeyBlocked(client)) {
    return { ok: false, status: 429, message: TOO_MANY };
  }
  const result = await verifyAuthentication(context, answer);
  if (result.owner && (await context.limits.passkeyBlocked(client, result.owner.email))) {
    return { ok: false, status: 429, message: TOO_MANY };
  }
  const session = result.ok ? await startSession(context, result.owner, 'passkey') : null;
  if (session === null) {
    await context.limits.countFailedPasskey(client, result.owner?.email);
    return {
      ok: false,
      status: 401,
      message:
        'That passkey did not sign you in. Try again, or ask for a sign-in link by e-mail below.',
    };
  }
  return { ok: true, value: session };
}

// ---------------------------------------------------------------------------
// Signing in with an e-mailed link

/** The most an address may be: RFC 5321's limit on a path. */
const ADDRESS_MAX = 254;

/**
 * Asks for a sign-in link. The visitor is told the same thing whatever
 * happens here (an owner's address or not, over a limit or not, the e-mail
 * sent or not), so the answer gives nothing away; the page runs this only
 * once its answer has been sent (answerLinkRequest), so its time gives
 * nothing away either. Resolves once the request is counted; `sent`
 * resolves once the e-mail was handed on.
 */
export async function requestSignInLink(
  context: OwnerPagesContext,
  address: string,
  client: string,
): Promise<{ sent: Promise<boolean> }> {
  const email = address.trim();
  if (!email || email.length > ADDRESS_MAX || !email.includes('@')) {
    return { sent: Promise.resolve(false) };
  }
  if (!(await context.limits.allowLinkRequest(email, client))) {
    context.logger.warn('Sign-in link request over its limit');
    return { sent: Promise.resolve(false) };
  }
  const { sendLink } = context;
  if (!sendLink) return { sent: Promise.resolve(false) };
  const owner = await context.store.findOwnerByEmail(email);
  if (!owner) return { sent: Promise.resolve(false) };
  const sent = (async () => {
    const link = await context.sessions.createLink(owner.id, 'sign-in');
    return sendLink({
      to: owner.email,
      url: ownerLinkUrl(context.siteOrigin, 'sign-in', link.token),
      kind: 'sign-in',
      expiresAt: link.expiresAt,
    });
  })().catch((error: unknown) => {
    context.logger.error({ err: error }, 'Sign-in link not sent');
    return false;
  });
  return { sent };
}

/** Where the link form's post leads: the sign-in page, saying a link is on its way if… */
export const LINK_ASKED_PATH = '/admin/sign-in?asked';

/**
 * The answer to the sign-in page's link form (POST /admin/sign-in): a
 * redirect to LINK_ASKED_PATH (post, redirect, get: a reload does not ask
 * again), the same for any address. Everything else (the limits, finding
 * the owner, the link, the e-mail) is given to `afterResponse`, which runs
 * it once the answer has been sent: neither the answer nor its timing can
 * tell whether the address is an owner's.
 */
export async function answerLinkRequest(
  context: OwnerPagesContext,
  request: Request,
  client: string,
  afterResponse: (task: () => Promise<unknown>) => void,
): Promise<Response> {
  const form = await readForm(request, 8 * 1024);
  const address = (form.ok && form.value.get('email')) || '';
  afterResponse(async () => (await requestSignInLink(context, address, client)).sent);
  return new Response(null, { status: 303, headers: { location: LINK_ASKED_PATH } });
}

/** Uses a sign-in link (once, within 15 minutes) and starts a session. */
export async function signInWithLink(
  context: OwnerPagesContext,
  token: string | undefined,
): Promise<string | null> {
  const owner = await context.sessions.consumeLink(token, 'sign-in');
  return owner ? startSession(context, owner, 'link') : null;
}

/** Sign-out: the session ends, and the activity list says so. */
export async function signOut(
  context: OwnerPagesContext,
  owner: { email: string } | null | undefined,
  session: string | undefined,
): Promise<void> {
  await context.sessions.end(session);
  if (owner) {
    await context.store.recordActivity({
      at: new Date().toISOString(),
      actor: owner.email,
      action: OWNER_ACTIVITY.signedOut,
      detail: '',
    });
  }
}

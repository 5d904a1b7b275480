import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { COSEALG } from '@simplewebauthn/server/helpers';
import { z } from 'zod';
import type { OwnerChallengeKind, OwnerRecord } from '../db/store.server.ts';
import type { OwnerPagesContext } from './context.server.ts';
import { secretHash } from './sessions.server.ts';

/**
 * The passkey ceremonies of the owner's pages (docs/operations.md, "Owner's
 * pages"), through SimpleWebAuthn: nothing of WebAuthn's protocol or its
 * cryptography is written here. The relying party is SITE_URL's host name,
 * the expected origin SITE_URL's origin.
 *
 * Each ceremony's challenge is kept in the store (only its hash), so
 * the process that checks the answer need not be the one that made the
 * options; it works once, for 5 minutes. A passkey must verify its user
 * (the phone's lock, a fingerprint): it is the only thing standing between
 * a stranger and the leads.
 */

export const CHALLENGE_VALIDITY_MS = 5 * 60 * 1000;

/**
 * The signature algorithms a passkey may use: SimpleWebAuthn's usual three,
 * named here so it need not probe the runtime for newer ones (which prints
 * an experimental-feature warning on Node 24).
 */
const ALGORITHMS = [COSEALG.EdDSA, COSEALG.ES256, COSEALG.RS256];

type Context = Pick<OwnerPagesContext, 'store' | 'relyingParty' | 'siteOrigin'>;

async function keepChallenge(
  context: Context,
  challenge: string,
  kind: OwnerChallengeKind,
  ownerId: string | null,
): Promise<void> {
  const now = Date.now();
  await context.store.createOwnerChallenge({
    challenge_hash: secretHash(challenge),
    kind,
    owner_id: ownerId,
    created_at: new Date(now).toISOString(),
    expires_at: new Date(now + CHALLENGE_VALIDITY_MS).toISOString(),
  });
}

/** Uses a kept challenge: whom it names, or undefined when it is unknown, used or expired. */
async function useChallenge(
  context: Context,
  challenge: string,
  kind: OwnerChallengeKind,
): Promise<string | null | undefined> {
  const used = await context.store.consumeOwnerChallenge(
    secretHash(challenge),
    kind,
    new Date().toISOString(),
  );
  return used === null ? undefined : used.owner_id;
}

const base64url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*={0,2}$/);

/** The shape of a browser's answer, before SimpleWebAuthn checks what it says. */
const credentialAnswer = z.looseObject({
  id: base64url.max(1024),
  rawId: base64url.max(1024),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: base64url }),
  clientExtensionResults: z.looseObject({}),
});

const transports = (stored: readonly string[]) => stored as AuthenticatorTransport[];

// ---------------------------------------------------------------------------
// Creating a passkey (the set-up link)

export async function registrationOptions(
  context: Context,
  owner: OwnerRecord,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await context.store.listPasskeys(owner.id);
  const options = await generateRegistrationOptions({
    rpName: context.relyingParty.name,
    rpID: context.relyingParty.id,
    userName: owner.email,
    userID: new Uint8Array(Buffer.from(owner.webauthn_user_id, 'base64url')),
    attestationType: 'none',
    // Not a second passkey on a device that already holds one for this owner.
    excludeCredentials: existing.map((passkey) => ({
      id: passkey.id,
      transports: transports(passkey.transports),
    })),
    // A discoverable credential: signing in needs no address typed.
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    supportedAlgorithmIDs: ALGORITHMS,
    timeout: CHALLENGE_VALIDITY_MS,
  });
  await keepChallenge(context, options.challenge, 'registration', owner.id);
  return options;
}

export type RegistrationResult =
  | {
      ok: true;
      passkey: { id: string; publicKey: Uint8Array; counter: number; transports: string[] };
    }
  | { ok: false };

/**
 * Checks a new passkey against a challenge this owner's set-up page was
 * given. Stores nothing: the caller uses the set-up link first.
 */
export async function verifyRegistration(
  context: Context,
  owner: OwnerRecord,
  answer: unknown,
): Promise<RegistrationResult> {
  const parsed = credentialAnswer.safeParse(answer);
  if (!parsed.success) return { ok: false };
  try {
    const verified = await verifyRegistrationResponse({
      response: parsed.data as unknown as RegistrationResponseJSON,
      expectedChallenge: async (challenge) =>
        (await useChallenge(context, challenge, 'registration')) === owner.id,
      expectedOrigin: context.siteOrigin,
      expectedRPID: context.relyingParty.id,
      requireUserVerification: true,
      supportedAlgorithmIDs: ALGORITHMS,
    });
    if (!verified.verified) return { ok: false };
    const { credential } = verified.registrationInfo;
    return {
      ok: true,
      passkey: {
        id: credential.id,
        publicKey: credential.publicKey,
        counter: credential.counter,
        transports: credential.transports ?? [],
      },
    };
  } catch {
    // A forged, stale or malformed answer: SimpleWebAuthn refused it.
    return { ok: false };
  }
}

// ---------------------------------------------------------------------------
// Signing in with a passkey

export async function authenticationOptions(
  context: Context,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await generateAuthenticationOptions({
    rpID: context.relyingParty.id,
    // Empty: the browser offers the passkeys it holds for this site.
    allowCredentials: [],
    userVerification: 'required',
    timeout: CHALLENGE_VALIDITY_MS,
  });
  await keepChallenge(context, options.challenge, 'authentication', null);
  return options;
}

export type AuthenticationResult =
  | { ok: true; owner: OwnerRecord }
  /** `owner` when the passkey named one: its address's limit counts the failure too. */
  | { ok: false; owner?: OwnerRecord };

/** Checks a sign-in answer against a kept challenge and the passkey it names. */
export async function verifyAuthentication(
  context: Context,
  answer: unknown,
): Promise<AuthenticationResult> {
  const parsed = credentialAnswer.safeParse(answer);
  if (!parsed.success) return { ok: false };
  const found = await context.store.findPasskey(parsed.data.id);
  if (!found) return { ok: false };
  const { passkey, owner } = found;
  try {
    const verified = await verifyAuthenticationResponse({
      response: parsed.data as unknown as AuthenticationResponseJSON,
      expectedChallenge: async (challenge) =>
        (await useChallenge(context, challenge, 'authentication')) !== undefined,
      expectedOrigin: context.siteOrigin,
      expectedRPID: context.relyingParty.id,
      credential: {
        id: passkey.id,
        publicKey: new Uint8Array(passkey.public_key),
        counter: passkey.counter,
        transports: transports(passkey.transports),
      },
      requireUserVerification: true,
    });
    if (!verified.verified) return { ok: false, owner };
    await context.store.recordPasskeyUse(
      passkey.id,
      verified.authenticationInfo.newCounter,
      new Date().toISOString(),
    );
    return { ok: true, owner };
  } catch {
    return { ok: false, owner };
  }
}

/**
 * A name for a new passkey that its owner will recognise in a list: the
 * kind of device the browser says it runs on. Plain substring checks on a
 * header capped in length.
 */
export function deviceName(userAgent: string | null | undefined): string {
  const agent = (userAgent ?? '').slice(0, 512);
  const known: Array<[string, string]> = [
    ['iPhone', 'iPhone'],
    ['iPad', 'iPad'],
    ['Android', 'Android phone'],
    ['CrOS', 'Chromebook'],
    ['Macintosh', 'Mac'],
    ['Windows', 'Windows computer'],
    ['Linux', 'Linux computer'],
  ];
  return known.find(([mark]) => agent.includes(mark))?.[1] ?? 'Passkey';
}

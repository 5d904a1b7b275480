import { createHash } from 'node:crypto';
import { ipKeyGenerator } from 'express-rate-limit';
import type { AppStore } from '../db/store.server.ts';
import { normaliseEmail } from '../db/store.server.ts';

/**
 * Sign-in limits of the owner's pages (docs/operations.md#owners-pages): they count
 * what an attacker does, not what an owner does. Sign-in link requests are
 * counted per address from one client (at most 5 an hour: requests from
 * elsewhere never use up the owner's own) and per client; failed passkey
 * attempts per client and, when the passkey names an owner, per address. A
 * successful sign-in is never counted. A client is its address, an IPv6 one
 * by its /64. The counts live in the store's rate-limit table, so
 * every server process shares them; keys are hashed, so the table holds no
 * address.
 */

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;

export interface Limit {
  max: number;
  windowMs: number;
}

export const SIGN_IN_LIMITS = {
  /** Per address from one client. */
  linkPerAddress: { max: 5, windowMs: HOUR_MS },
  linkPerClient: { max: 20, windowMs: HOUR_MS },
  failedPasskeyPerAddress: { max: 10, windowMs: 15 * MINUTE_MS },
  failedPasskeyPerClient: { max: 20, windowMs: 15 * MINUTE_MS },
} as const satisfies Record<string, Limit>;

/** What a client over a passkey limit is told (the sign-in page shows it). */
export const TOO_MANY =
  'Too many sign-in attempts from here. Wait a quarter of an hour, or ask for a sign-in link by e-mail.';

/**
 * The state-changing requests a client may make to the sign-in pages (the
 * passkey sign-in's challenge request, POST /admin/sign-in/options, and
 * its answer, the link form, the set-up link's): each is anonymous, and
 * the challenge request stores a challenge, so a flood is refused (429)
 * before the store sees it. Counted in each server process's memory (the
 * gate, server/owner-gate.server.ts), per client address, an IPv6 client by
 * its /64. An owner makes two per sign-in with a passkey.
 */
export const SIGN_IN_POST_LIMIT = { max: 30, windowMs: 15 * MINUTE_MS } as const satisfies Limit;

type LimitName = keyof typeof SIGN_IN_LIMITS;

/** One client: an IPv4 address, or an IPv6 /64 (what one home or phone gets). */
export function clientKey(client: string): string {
  return ipKeyGenerator(client, 64);
}

function key(name: LimitName, subject: string): string {
  return createHash('sha256').update(`owner-${name}:${subject}`).digest('base64url');
}

export interface SignInLimits {
  /**
   * Counts one request for a sign-in link; false when this address or this
   * client is over its limit (then no link may be sent; the answer to the
   * visitor stays the same).
   */
  allowLinkRequest(address: string, client: string): Promise<boolean>;
  /** Whether passkey sign-in is refused for now, for this client or address. */
  passkeyBlocked(client: string, address?: string): Promise<boolean>;
  /** Counts a passkey attempt that failed (never one that succeeded). */
  countFailedPasskey(client: string, address?: string): Promise<void>;
}

export function signInLimits(store: AppStore): SignInLimits {
  const hit = async (name: LimitName, subject: string) => {
    const limit: Limit = SIGN_IN_LIMITS[name];
    const count = await store.hitRateLimit(key(name, subject), limit.windowMs);
    return count.hits <= limit.max;
  };
  const over = async (name: LimitName, subject: string) => {
    const count = await store.peekRateLimit(key(name, subject));
    return count !== null && count.hits >= SIGN_IN_LIMITS[name].max;
  };
  return {
    async allowLinkRequest(address, client) {
      const [byAddress, byClient] = await Promise.all([
        hit('linkPerAddress', `${normaliseEmail(address)}\n${clientKey(client)}`),
        hit('linkPerClient', clientKey(client)),
      ]);
      return byAddress && byClient;
    },
    async passkeyBlocked(client, address) {
      const checks = [over('failedPasskeyPerClient', clientKey(client))];
      if (address !== undefined) {
        checks.push(over('failedPasskeyPerAddress', normaliseEmail(address)));
      }
      return (await Promise.all(checks)).some(Boolean);
    },
    async countFailedPasskey(client, address) {
      await hit('failedPasskeyPerClient', clientKey(client));
      if (address !== undefined) await hit('failedPasskeyPerAddress', normaliseEmail(address));
    },
  };
}

import { createHash, randomBytes } from 'node:crypto';
import type { AppStore, OwnerLinkKind, OwnerRecord, SessionRecord } from '../db/store.server.ts';

/**
 * Sessions and one-time links of the owner's pages
 * (docs/operations.md#owners-pages). A session is a cookie naming a random id; a link carries a
 * random token. Both are 32 bytes from node:crypto, and the store
 * keeps only their SHA-256 hash, so neither its tables nor a backup of them
 * can be used to sign in. Every server process on one PostgreSQL shares them.
 *
 * A session ends after 7 days unused, 30 days after it began whatever its
 * use, on sign-out (end), and when its owner is removed (the store deletes
 * it then). A set-up link is valid 24 hours, a sign-in link 15 minutes;
 * each works once.
 */

const MINUTE_MS = 60 * 1000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

export const SESSION_IDLE_MS = 7 * DAY_MS;
export const SESSION_MAX_MS = 30 * DAY_MS;
/** A session's last use is written at most this often (each write is a commit). */
export const SESSION_TOUCH_INTERVAL_MS = MINUTE_MS;

export const LINK_VALIDITY_MS: Record<OwnerLinkKind, number> = {
  setup: 24 * HOUR_MS,
  'sign-in': 15 * MINUTE_MS,
};

/** 32 random bytes as base64url: 43 characters. */
const SECRET = /^[A-Za-z0-9_-]{43}$/;

function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** What the store keeps of a session id or a link token. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/**
 * A session's mark in the activity list (16 hex digits of the hash of what
 * the store keeps), so the list can tell the owner reading it which passkey
 * was made in their own session ("on this phone"). It opens nothing: the
 * session cannot be worked out from it.
 */
export function sessionTag(session: string): string {
  return secretHash(secretHash(session)).slice(0, 16);
}

/** Whether a value from a cookie or a URL can be one of ours at all (so nothing else is hashed or looked up). */
export function isSecret(value: string | undefined): value is string {
  return typeof value === 'string' && SECRET.test(value);
}

export interface SessionCookie {
  /** `__Host-owner_session` on https, `owner_session` on http (a local run). */
  name: string;
  /**
   * The cookie's attributes, in the shape both Express's `res.cookie()` and
   * Astro's `cookies.set()` take. No Domain: the cookie stays on the site's
   * own host, which the `__Host-` prefix requires.
   */
  options: { httpOnly: true; sameSite: 'lax'; secure: boolean; path: '/' };
  /** How long the browser keeps it: a session's longest life, in seconds (Astro's maxAge; Express's is in ms). */
  maxAgeSeconds: number;
}

/**
 * The session cookie for a site at `siteUrl` (docs/operations.md#owners-pages):
 * `HttpOnly`, `SameSite=Lax`, `Path=/`; on https also `Secure` and named
 * with the `__Host-` prefix, which browsers accept only from a secure origin
 * with `Path=/` and no `Domain`.
 */
export function sessionCookie(siteUrl: string | URL): SessionCookie {
  const secure = new URL(siteUrl).protocol === 'https:';
  return {
    name: secure ? '__Host-owner_session' : 'owner_session',
    options: { httpOnly: true, sameSite: 'lax', secure, path: '/' },
    maxAgeSeconds: SESSION_MAX_MS / 1000,
  };
}

/** Where a link leads: `SITE_URL/admin/setup/<token>` or `SITE_URL/admin/sign-in/<token>`. */
export function ownerLinkUrl(siteUrl: string | URL, kind: OwnerLinkKind, token: string): string {
  const path = kind === 'setup' ? '/admin/setup/' : '/admin/sign-in/';
  return new URL(`${path}${token}`, siteUrl).href;
}

export interface SignedIn {
  owner: OwnerRecord;
  session: SessionRecord;
}

export interface OwnerSessions {
  /** Starts a session; resolves with the cookie's value, or null when the owner is gone. */
  create(ownerId: string): Promise<string | null>;
  /**
   * The owner a cookie's value names, while its session lasts; moves the
   * session's expiry on (7 days from now, never past 30 days from its start).
   * Null for a missing, forged, expired or ended session.
   */
  resolve(cookieValue: string | undefined): Promise<SignedIn | null>;
  /** Sign-out: the session ends at once. */
  end(cookieValue: string | undefined): Promise<void>;
  /** A one-time link's token (only its hash is stored); a set-up link replaces the earlier ones. */
  createLink(ownerId: string, kind: OwnerLinkKind): Promise<{ token: string; expiresAt: string }>;
  /** Uses a link: its owner the first time within its validity, null otherwise. */
  consumeLink(token: string | undefined, kind: OwnerLinkKind): Promise<OwnerRecord | null>;
}

export function ownerSessions(
  store: AppStore,
  options: { now?: () => number } = {},
): OwnerSessions {
  const now = options.now ?? Date.now;
  const iso = (ms: number) => new Date(ms).toISOString();
  const expiry = (createdAt: number, usedAt: number) =>
    iso(Math.min(createdAt + SESSION_MAX_MS, usedAt + SESSION_IDLE_MS));

  return {
    async create(ownerId) {
      const value = newSecret();
      const at = now();
      const created = await store.createSession({
        id_hash: secretHash(value),
        owner_id: ownerId,
        created_at: iso(at),
        last_seen_at: iso(at),
        expires_at: expiry(at, at),
      });
      return created ? value : null;
    },

    async resolve(cookieValue) {
      if (!isSecret(cookieValue)) return null;
      const at = now();
      const found = await store.findSession(secretHash(cookieValue), iso(at));
      if (!found) return null;
      const { session } = found;
      if (at - Date.parse(session.last_seen_at) < SESSION_TOUCH_INTERVAL_MS) return found;
      const expiresAt = expiry(Date.parse(session.created_at), at);
      // Ended or expired in between (a sign-out elsewhere, `owner remove`): not signed in.
      if (!(await store.touchSession(session.id_hash, iso(at), expiresAt))) return null;
      return { ...found, session: { ...session, last_seen_at: iso(at), expires_at: expiresAt } };
    },

    async end(cookieValue) {
      if (!isSecret(cookieValue)) return;
      await store.endSession(secretHash(cookieValue));
    },

    async createLink(ownerId, kind) {
      const token = newSecret();
      const at = now();
      const expiresAt = iso(at + LINK_VALIDITY_MS[kind]);
      await store.createOwnerLink({
        token_hash: secretHash(token),
        owner_id: ownerId,
        kind,
        created_at: iso(at),
        expires_at: expiresAt,
      });
      return { token, expiresAt };
    },

    async consumeLink(token, kind) {
      if (!isSecret(token)) return null;
      return store.consumeOwnerLink(secretHash(token), kind, iso(now()));
    },
  };
}

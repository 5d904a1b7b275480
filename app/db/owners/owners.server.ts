/*
 * The owners' accounts and sign-ins (docs/operations.md#owners-pages): the
 * owners, their passkeys, their sessions, one-time links and passkey
 * challenges. Its SQLite and PostgreSQL halves are beside it; the store
 * (store.server.ts) is made of this and the other domains.
 */

/**
 * A person who may sign in to the owner's pages. Added and removed only from
 * the server (`npm run owner`); the address is stored trimmed and
 * lower-cased, so it is unique whatever its case.
 */
export interface OwnerRecord {
  id: string;
  email: string;
  /** The WebAuthn user handle (base64url of 32 random bytes), the same for every passkey of this owner. */
  webauthn_user_id: string;
  created_at: string;
  /** When a session was last started for this owner (any way of signing in). */
  last_sign_in_at: string | null;
}

/** A passkey as SimpleWebAuthn's registration gives it (`registrationInfo.credential`). */
export interface NewPasskey {
  /** The credential id, base64url text. */
  id: string;
  owner_id: string;
  public_key: Uint8Array;
  /** The authenticator's signature counter (0 for most passkeys). */
  counter: number;
  /** AuthenticatorTransport values ('internal', 'hybrid', 'usb'…), stored as JSON text. */
  transports: readonly string[];
  /** A name the owner knows it by ('iPhone', 'office PC'). */
  name: string;
  created_at: string;
}

export interface PasskeyRecord extends NewPasskey {
  transports: string[];
  last_used_at: string | null;
}

export interface OwnerWithPasskeys extends OwnerRecord {
  passkeys: PasskeyRecord[];
}

/**
 * A signed-in browser. Only the SHA-256 hash of the cookie's random id is
 * stored (app/owner/sessions.server.ts), so the table cannot be used to sign in.
 */
export interface SessionRecord {
  id_hash: string;
  owner_id: string;
  created_at: string;
  last_seen_at: string;
  /** The earlier of 7 days after last_seen_at and 30 days after created_at. */
  expires_at: string;
}

export type OwnerLinkKind = 'setup' | 'sign-in';

/** A one-time link: only the SHA-256 hash of its random token is stored. */
export interface OwnerLinkRecord {
  token_hash: string;
  owner_id: string;
  kind: OwnerLinkKind;
  created_at: string;
  expires_at: string;
}

/**
 * A passkey ceremony's challenge (SimpleWebAuthn's options.challenge), kept
 * in the store between the options and the answer so any server process on
 * one PostgreSQL can finish a ceremony another began. Only its SHA-256 hash
 * is stored; it works once, for 5 minutes. A registration's names the owner
 * whose set-up link began it; an authentication's names nobody (the passkey
 * chosen says who signs in).
 */
export type OwnerChallengeKind = 'registration' | 'authentication';

export interface OwnerChallengeRecord {
  challenge_hash: string;
  kind: OwnerChallengeKind;
  owner_id: string | null;
  created_at: string;
  expires_at: string;
}

export interface OwnerStore {
  /**
   * Adds an owner, or finds the one with this address (a removed owner is
   * added again, with no passkey). `added` says whether it is new.
   */
  addOwner(email: string, at: string): Promise<{ owner: OwnerRecord; added: boolean }>;

  getOwner(id: string): Promise<OwnerRecord | null>;

  findOwnerByEmail(email: string): Promise<OwnerRecord | null>;

  /** Every owner, oldest first, with their passkeys. */
  listOwners(): Promise<OwnerWithPasskeys[]>;

  /**
   * Removes the owner with this address, at once: their sessions, passkeys,
   * unused links and push subscriptions go in the same transaction.
   * Returns the owner removed.
   */
  removeOwner(email: string, at: string): Promise<OwnerRecord | null>;

  /** False when a passkey with this credential id is already stored. */
  addPasskey(passkey: NewPasskey): Promise<boolean>;

  /** The passkey and its owner, for a sign-in; null for an unknown id or a removed owner. */
  findPasskey(id: string): Promise<{ passkey: PasskeyRecord; owner: OwnerRecord } | null>;

  listPasskeys(ownerId: string): Promise<PasskeyRecord[]>;

  /** After a verified sign-in: the authenticator's new counter and the time. */
  recordPasskeyUse(id: string, counter: number, at: string): Promise<void>;

  removePasskey(ownerId: string, id: string): Promise<boolean>;

  /**
   * Stores a new session and notes the owner's sign-in, in one transaction;
   * false (nothing stored) when the owner is unknown or removed.
   */
  createSession(session: SessionRecord): Promise<boolean>;

  /** The session with this hash and its owner, while it has not expired at `now`. */
  findSession(
    idHash: string,
    now: string,
  ): Promise<{ session: SessionRecord; owner: OwnerRecord } | null>;

  /** A session in use again: a later last_seen_at and expiry. False when it is gone. */
  touchSession(idHash: string, at: string, expiresAt: string): Promise<boolean>;

  /** Sign-out: the session is deleted. */
  endSession(idHash: string): Promise<boolean>;

  /** Ends every session of this owner; returns how many. */
  endOwnerSessions(ownerId: string): Promise<number>;

  /** Stores a one-time link; a set-up link deletes the owner's earlier unused set-up links. */
  createOwnerLink(link: OwnerLinkRecord): Promise<void>;

  /**
   * Uses a link: deletes it and returns its owner when it is of `kind`,
   * unexpired at `now` and its owner not removed. Atomic: of two uses at
   * once, one gets the owner and the other null.
   */
  consumeOwnerLink(
    tokenHash: string,
    kind: OwnerLinkKind,
    now: string,
  ): Promise<OwnerRecord | null>;

  /** The owner of an unexpired, unused link, without using it (the set-up page, before its passkey exists). */
  findOwnerLink(tokenHash: string, kind: OwnerLinkKind, now: string): Promise<OwnerRecord | null>;

  /** Stores a passkey ceremony's challenge (its hash). */
  createOwnerChallenge(challenge: OwnerChallengeRecord): Promise<void>;

  /**
   * Uses a challenge: deletes it and returns whom it names when it is of
   * `kind` and unexpired at `now`; null otherwise. Atomic, like a link.
   */
  consumeOwnerChallenge(
    challengeHash: string,
    kind: OwnerChallengeKind,
    now: string,
  ): Promise<{ owner_id: string | null } | null>;

  /** Deletes sessions, links and challenges expired at `now`; returns how many rows. */
  purgeExpiredSignIns(now: string): Promise<number>;
}

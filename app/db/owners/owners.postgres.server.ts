import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { iso, textOrNull, UUID, type Row } from '../postgres-values.server.ts';
import { normaliseEmail } from '../store.server.ts';
import type {
  NewPasskey,
  OwnerChallengeKind,
  OwnerChallengeRecord,
  OwnerLinkKind,
  OwnerLinkRecord,
  OwnerRecord,
  OwnerStore,
  OwnerWithPasskeys,
  PasskeyRecord,
  SessionRecord,
} from './owners.server.ts';

/**
 * The PostgreSQL half of the owners' accounts and sign-ins (owners.server.ts).
 */

const OWNER_COLUMNS = 'id, email, webauthn_user_id, created_at, last_sign_in_at';

const PASSKEY_COLUMNS =
  'id, owner_id, public_key, counter, transports, name, created_at, last_used_at';

const SESSION_COLUMNS = 'id_hash, owner_id, created_at, last_seen_at, expires_at';

/** Owner columns prefixed `o_`, for a join. */
const OWNER_COLUMNS_AS_O = OWNER_COLUMNS.split(', ')
  .map((column) => `o.${column} AS o_${column}`)
  .join(', ');

function toOwner(row: Row, prefix = ''): OwnerRecord {
  const get = (column: string) => row[`${prefix}${column}`];
  return {
    id: String(get('id')),
    email: String(get('email')),
    webauthn_user_id: String(get('webauthn_user_id')),
    created_at: iso(get('created_at')) ?? '',
    last_sign_in_at: iso(get('last_sign_in_at')),
  };
}

function toPasskey(row: Row): PasskeyRecord {
  const key = row.public_key;
  return {
    id: String(row.id),
    owner_id: String(row.owner_id),
    // A plain Uint8Array, as the SQLite store and SimpleWebAuthn have it (pg gives a Buffer).
    public_key: new Uint8Array(key instanceof Uint8Array ? key : []),
    counter: Number(row.counter),
    transports: JSON.parse(String(row.transports)) as string[],
    name: String(row.name),
    created_at: iso(row.created_at) ?? '',
    last_used_at: iso(row.last_used_at),
  };
}

function toSession(row: Row): SessionRecord {
  return {
    id_hash: String(row.id_hash),
    owner_id: String(row.owner_id),
    created_at: iso(row.created_at) ?? '',
    last_seen_at: iso(row.last_seen_at) ?? '',
    expires_at: iso(row.expires_at) ?? '',
  };
}

export class PostgresOwnerStore implements OwnerStore {
  readonly #pool: pg.Pool;

  constructor(db: pg.Pool) {
    this.#pool = db;
  }

  async addOwner(email: string, at: string): Promise<{ owner: OwnerRecord; added: boolean }> {
    const address = normaliseEmail(email);
    const userId = randomBytes(32).toString('base64url');
    // Each statement is atomic; ON CONFLICT waits for a concurrent insert of
    // the same address, so two adds at once make one owner.
    const inserted = await this.#pool.query(
      `INSERT INTO owners (id, email, webauthn_user_id, created_at)
       VALUES ($1, $2, $3, $4::timestamptz)
       ON CONFLICT (email) DO NOTHING
       RETURNING ${OWNER_COLUMNS}`,
      [randomUUID(), address, userId, at],
    );
    if (inserted.rows[0]) return { owner: toOwner(inserted.rows[0] as Row), added: true };
    // Added again after removal: a new owner under the old id, nothing of the old one kept.
    const revived = await this.#pool.query(
      `UPDATE owners SET removed_at = NULL, created_at = $2::timestamptz, webauthn_user_id = $3,
         last_sign_in_at = NULL
       WHERE email = $1 AND removed_at IS NOT NULL
       RETURNING ${OWNER_COLUMNS}`,
      [address, at, userId],
    );
    if (revived.rows[0]) return { owner: toOwner(revived.rows[0] as Row), added: true };
    const existing = await this.findOwnerByEmail(address);
    if (!existing) throw new Error('Owner neither added nor found');
    return { owner: existing, added: false };
  }

  async getOwner(id: string): Promise<OwnerRecord | null> {
    if (!UUID.test(id)) return null;
    const result = await this.#pool.query(
      `SELECT ${OWNER_COLUMNS} FROM owners WHERE id = $1 AND removed_at IS NULL`,
      [id],
    );
    const row = result.rows[0] as Row | undefined;
    return row ? toOwner(row) : null;
  }

  async findOwnerByEmail(email: string): Promise<OwnerRecord | null> {
    const result = await this.#pool.query(
      `SELECT ${OWNER_COLUMNS} FROM owners WHERE email = $1 AND removed_at IS NULL`,
      [normaliseEmail(email)],
    );
    const row = result.rows[0] as Row | undefined;
    return row ? toOwner(row) : null;
  }

  async listOwners(): Promise<OwnerWithPasskeys[]> {
    const [owners, passkeys] = await Promise.all([
      this.#pool.query(
        `SELECT ${OWNER_COLUMNS} FROM owners WHERE removed_at IS NULL ORDER BY created_at, email`,
      ),
      this.#pool.query(
        `SELECT ${PASSKEY_COLUMNS} FROM owner_passkeys
         WHERE owner_id IN (SELECT id FROM owners WHERE removed_at IS NULL)
         ORDER BY created_at, id`,
      ),
    ]);
    const keys = (passkeys.rows as Row[]).map(toPasskey);
    return (owners.rows as Row[]).map((row) => {
      const owner = toOwner(row);
      return { ...owner, passkeys: keys.filter((passkey) => passkey.owner_id === owner.id) };
    });
  }

  async removeOwner(email: string, at: string): Promise<OwnerRecord | null> {
    // One statement: the owner is marked removed and their sessions,
    // passkeys, links and push subscriptions go together.
    const result = await this.#pool.query(
      `WITH owner AS (
         UPDATE owners SET removed_at = $2::timestamptz
         WHERE email = $1 AND removed_at IS NULL
         RETURNING ${OWNER_COLUMNS}
       ), sessions AS (
         DELETE FROM owner_sessions WHERE owner_id IN (SELECT id FROM owner)
       ), passkeys AS (
         DELETE FROM owner_passkeys WHERE owner_id IN (SELECT id FROM owner)
       ), links AS (
         DELETE FROM owner_links WHERE owner_id IN (SELECT id FROM owner)
       ), pushes AS (
         DELETE FROM push_subscriptions WHERE owner_id IN (SELECT id FROM owner)
       )
       SELECT * FROM owner`,
      [normaliseEmail(email), at],
    );
    const row = result.rows[0] as Row | undefined;
    return row ? toOwner(row) : null;
  }

  async addPasskey(passkey: NewPasskey): Promise<boolean> {
    if (!UUID.test(passkey.owner_id)) return false;
    const result = await this.#pool.query(
      `INSERT INTO owner_passkeys (${PASSKEY_COLUMNS})
       SELECT $1, id, $2, $3, $4, $5, $6::timestamptz, NULL
       FROM owners WHERE id = $7 AND removed_at IS NULL
       ON CONFLICT (id) DO NOTHING`,
      [
        passkey.id,
        Buffer.from(passkey.public_key),
        passkey.counter,
        JSON.stringify(passkey.transports),
        passkey.name,
        passkey.created_at,
        passkey.owner_id,
      ],
    );
    return result.rowCount === 1;
  }

  async findPasskey(id: string): Promise<{ passkey: PasskeyRecord; owner: OwnerRecord } | null> {
    const result = await this.#pool.query(
      `SELECT p.id, p.owner_id, p.public_key, p.counter, p.transports, p.name, p.created_at,
              p.last_used_at, ${OWNER_COLUMNS_AS_O}
       FROM owner_passkeys p JOIN owners o ON o.id = p.owner_id
       WHERE p.id = $1 AND o.removed_at IS NULL`,
      [id],
    );
    const row = result.rows[0] as Row | undefined;
    return row ? { passkey: toPasskey(row), owner: toOwner(row, 'o_') } : null;
  }

  async listPasskeys(ownerId: string): Promise<PasskeyRecord[]> {
    if (!UUID.test(ownerId)) return [];
    const result = await this.#pool.query(
      `SELECT ${PASSKEY_COLUMNS} FROM owner_passkeys WHERE owner_id = $1 ORDER BY created_at, id`,
      [ownerId],
    );
    return (result.rows as Row[]).map(toPasskey);
  }

  async recordPasskeyUse(id: string, counter: number, at: string): Promise<void> {
    await this.#pool.query(
      'UPDATE owner_passkeys SET counter = $2, last_used_at = $3::timestamptz WHERE id = $1',
      [id, counter, at],
    );
  }

  async removePasskey(ownerId: string, id: string): Promise<boolean> {
    if (!UUID.test(ownerId)) return false;
    const result = await this.#pool.query(
      'DELETE FROM owner_passkeys WHERE owner_id = $1 AND id = $2',
      [ownerId, id],
    );
    return result.rowCount === 1;
  }

  async createSession(session: SessionRecord): Promise<boolean> {
    if (!UUID.test(session.owner_id)) return false;
    // One statement: the session only for an owner not removed, and the sign-in noted.
    const result = await this.#pool.query(
      `WITH owner AS (
         UPDATE owners SET last_sign_in_at = $3::timestamptz
         WHERE id = $2 AND removed_at IS NULL
         RETURNING id
       )
       INSERT INTO owner_sessions (${SESSION_COLUMNS})
       SELECT $1, id, $3::timestamptz, $4::timestamptz, $5::timestamptz FROM owner`,
      [
        session.id_hash,
        session.owner_id,
        session.created_at,
        session.last_seen_at,
        session.expires_at,
      ],
    );
    return result.rowCount === 1;
  }

  async findSession(
    idHash: string,
    now: string,
  ): Promise<{ session: SessionRecord; owner: OwnerRecord } | null> {
    const result = await this.#pool.query(
      `SELECT s.id_hash, s.owner_id, s.created_at, s.last_seen_at, s.expires_at,
              ${OWNER_COLUMNS_AS_O}
       FROM owner_sessions s JOIN owners o ON o.id = s.owner_id
       WHERE s.id_hash = $1 AND s.expires_at > $2::timestamptz AND o.removed_at IS NULL`,
      [idHash, now],
    );
    const row = result.rows[0] as Row | undefined;
    return row ? { session: toSession(row), owner: toOwner(row, 'o_') } : null;
  }

  async touchSession(idHash: string, at: string, expiresAt: string): Promise<boolean> {
    const result = await this.#pool.query(
      `UPDATE owner_sessions SET last_seen_at = $2::timestamptz, expires_at = $3::timestamptz
       WHERE id_hash = $1 AND expires_at > $2::timestamptz`,
      [idHash, at, expiresAt],
    );
    return result.rowCount === 1;
  }

  async endSession(idHash: string): Promise<boolean> {
    const result = await this.#pool.query('DELETE FROM owner_sessions WHERE id_hash = $1', [
      idHash,
    ]);
    return result.rowCount === 1;
  }

  async endOwnerSessions(ownerId: string): Promise<number> {
    if (!UUID.test(ownerId)) return 0;
    const result = await this.#pool.query('DELETE FROM owner_sessions WHERE owner_id = $1', [
      ownerId,
    ]);
    return result.rowCount ?? 0;
  }

  async createOwnerLink(link: OwnerLinkRecord): Promise<void> {
    // One statement: a set-up link replaces the owner's earlier unused ones.
    await this.#pool.query(
      `WITH earlier AS (
         DELETE FROM owner_links WHERE owner_id = $2 AND kind = 'setup' AND $3 = 'setup'
       )
       INSERT INTO owner_links (token_hash, owner_id, kind, created_at, expires_at)
       VALUES ($1, $2, $3, $4::timestamptz, $5::timestamptz)`,
      [link.token_hash, link.owner_id, link.kind, link.created_at, link.expires_at],
    );
  }

  async consumeOwnerLink(
    tokenHash: string,
    kind: OwnerLinkKind,
    now: string,
  ): Promise<OwnerRecord | null> {
    // DELETE … RETURNING: of two uses at once, the second waits for the
    // first's row lock, then finds the row gone.
    const result = await this.#pool.query(
      `WITH link AS (
         DELETE FROM owner_links
         WHERE token_hash = $1 AND kind = $2 AND expires_at > $3::timestamptz
         RETURNING owner_id
       )
       SELECT ${OWNER_COLUMNS_AS_O} FROM owners o JOIN link ON o.id = link.owner_id
       WHERE o.removed_at IS NULL`,
      [tokenHash, kind, now],
    );
    const row = result.rows[0] as Row | undefined;
    return row ? toOwner(row, 'o_') : null;
  }

  async findOwnerLink(
    tokenHash: string,
    kind: OwnerLinkKind,
    now: string,
  ): Promise<OwnerRecord | null> {
    const result = await this.#pool.query(
      `SELECT ${OWNER_COLUMNS_AS_O} FROM owner_links l JOIN owners o ON o.id = l.owner_id
       WHERE l.token_hash = $1 AND l.kind = $2 AND l.expires_at > $3::timestamptz
         AND o.removed_at IS NULL`,
      [tokenHash, kind, now],
    );
    const row = result.rows[0] as Row | undefined;
    return row ? toOwner(row, 'o_') : null;
  }

  async createOwnerChallenge(challenge: OwnerChallengeRecord): Promise<void> {
    // Expired ones go as new ones come: the table holds only live challenges.
    await this.#pool.query(
      `WITH expired AS (DELETE FROM owner_challenges WHERE expires_at <= $4::timestamptz)
       INSERT INTO owner_challenges (challenge_hash, kind, owner_id, created_at, expires_at)
       VALUES ($1, $2, $3, $4::timestamptz, $5::timestamptz)`,
      [
        challenge.challenge_hash,
        challenge.kind,
        challenge.owner_id,
        challenge.created_at,
        challenge.expires_at,
      ],
    );
  }

  async consumeOwnerChallenge(
    challengeHash: string,
    kind: OwnerChallengeKind,
    now: string,
  ): Promise<{ owner_id: string | null } | null> {
    // DELETE … RETURNING: of two uses at once, one finds the row.
    const result = await this.#pool.query(
      `DELETE FROM owner_challenges
       WHERE challenge_hash = $1 AND kind = $2 AND expires_at > $3::timestamptz
       RETURNING owner_id`,
      [challengeHash, kind, now],
    );
    const row = result.rows[0] as Row | undefined;
    return row ? { owner_id: textOrNull(row.owner_id) } : null;
  }

  async purgeExpiredSignIns(now: string): Promise<number> {
    const result = await this.#pool.query<{ n: number }>(
      `WITH sessions AS (
         DELETE FROM owner_sessions WHERE expires_at <= $1::timestamptz RETURNING 1
       ), links AS (
         DELETE FROM owner_links WHERE expires_at <= $1::timestamptz RETURNING 1
       ), challenges AS (
         DELETE FROM owner_challenges WHERE expires_at <= $1::timestamptz RETURNING 1
       )
       SELECT ((SELECT count(*) FROM sessions) + (SELECT count(*) FROM links)
         + (SELECT count(*) FROM challenges))::int AS n`,
      [now],
    );
    return result.rows[0]?.n ?? 0;
  }
}

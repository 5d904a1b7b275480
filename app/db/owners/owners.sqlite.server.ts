import { randomBytes, randomUUID } from 'node:crypto';
import type { SQLOutputValue } from 'node:sqlite';
import type { SqliteConnection } from '../sqlite-connection.server.ts';

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
 * The SQLite half of the owners' accounts and sign-ins (owners.server.ts).
 */

type Row = Record<string, SQLOutputValue>;

const textOrNull = (value: SQLOutputValue | undefined) =>
  value === null || value === undefined ? null : String(value);

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
    created_at: String(get('created_at')),
    last_sign_in_at: textOrNull(get('last_sign_in_at')),
  };
}

function toPasskey(row: Row): PasskeyRecord {
  const key = row.public_key;
  return {
    id: String(row.id),
    owner_id: String(row.owner_id),
    public_key: new Uint8Array(key instanceof Uint8Array ? key : []),
    counter: Number(row.counter),
    transports: JSON.parse(String(row.transports)) as string[],
    name: String(row.name),
    created_at: String(row.created_at),
    last_used_at: textOrNull(row.last_used_at),
  };
}

function toSession(row: Row): SessionRecord {
  return {
    id_hash: String(row.id_hash),
    owner_id: String(row.owner_id),
    created_at: String(row.created_at),
    last_seen_at: String(row.last_seen_at),
    expires_at: String(row.expires_at),
  };
}

export class SqliteOwnerStore implements OwnerStore {
  readonly #db: SqliteConnection;

  constructor(db: SqliteConnection) {
    this.#db = db;
  }

  async addOwner(email: string, at: string): Promise<{ owner: OwnerRecord; added: boolean }> {
    const address = normaliseEmail(email);
    return this.#db.attempt('write', () =>
      this.#db.transaction(() => {
        const existing = this.#db
          .statement(`SELECT ${OWNER_COLUMNS}, removed_at FROM owners WHERE email = ?`)
          .get(address);
        const userId = randomBytes(32).toString('base64url');
        if (!existing) {
          const row = this.#db
            .statement(
              `INSERT INTO owners (id, email, webauthn_user_id, created_at) VALUES (?, ?, ?, ?)
             RETURNING ${OWNER_COLUMNS}`,
            )
            .get(randomUUID(), address, userId, at);
          return { owner: toOwner(row ?? {}), added: true };
        }
        if (existing.removed_at === null) return { owner: toOwner(existing), added: false };
        // Added again after removal: a new owner under the old id, nothing of the old one kept.
        const row = this.#db
          .statement(
            `UPDATE owners SET removed_at = NULL, created_at = ?, webauthn_user_id = ?,
             last_sign_in_at = NULL
           WHERE id = ? RETURNING ${OWNER_COLUMNS}`,
          )
          .get(at, userId, String(existing.id));
        return { owner: toOwner(row ?? {}), added: true };
      }),
    );
  }

  async getOwner(id: string): Promise<OwnerRecord | null> {
    const row = await this.#db.attempt('read', () =>
      this.#db
        .statement(`SELECT ${OWNER_COLUMNS} FROM owners WHERE id = ? AND removed_at IS NULL`)
        .get(id),
    );
    return row ? toOwner(row) : null;
  }

  async findOwnerByEmail(email: string): Promise<OwnerRecord | null> {
    const row = await this.#db.attempt('read', () =>
      this.#db
        .statement(`SELECT ${OWNER_COLUMNS} FROM owners WHERE email = ? AND removed_at IS NULL`)
        .get(normaliseEmail(email)),
    );
    return row ? toOwner(row) : null;
  }

  async listOwners(): Promise<OwnerWithPasskeys[]> {
    return this.#db.attempt('read', () => {
      const owners = this.#db
        .statement(
          `SELECT ${OWNER_COLUMNS} FROM owners WHERE removed_at IS NULL ORDER BY created_at, email`,
        )
        .all()
        .map((row) => toOwner(row));
      const passkeys = this.#db
        .statement(
          `SELECT ${PASSKEY_COLUMNS} FROM owner_passkeys
         WHERE owner_id IN (SELECT id FROM owners WHERE removed_at IS NULL)
         ORDER BY created_at, id`,
        )
        .all()
        .map(toPasskey);
      return owners.map((owner) => ({
        ...owner,
        passkeys: passkeys.filter((passkey) => passkey.owner_id === owner.id),
      }));
    });
  }

  async removeOwner(email: string, at: string): Promise<OwnerRecord | null> {
    return this.#db.attempt('write', () =>
      this.#db.transaction(() => {
        const row = this.#db
          .statement(
            `UPDATE owners SET removed_at = ? WHERE email = ? AND removed_at IS NULL
           RETURNING ${OWNER_COLUMNS}`,
          )
          .get(at, normaliseEmail(email));
        if (!row) return null;
        const owner = toOwner(row);
        for (const table of [
          'owner_sessions',
          'owner_passkeys',
          'owner_links',
          'push_subscriptions',
        ]) {
          this.#db.statement(`DELETE FROM ${table} WHERE owner_id = ?`).run(owner.id);
        }
        return owner;
      }),
    );
  }

  async addPasskey(passkey: NewPasskey): Promise<boolean> {
    const result = await this.#db.attempt('write', () =>
      this.#db
        .statement(
          `INSERT INTO owner_passkeys (${PASSKEY_COLUMNS})
         SELECT ?, id, ?, ?, ?, ?, ?, NULL FROM owners WHERE id = ? AND removed_at IS NULL
         ON CONFLICT (id) DO NOTHING`,
        )
        .run(
          passkey.id,
          passkey.public_key,
          passkey.counter,
          JSON.stringify(passkey.transports),
          passkey.name,
          passkey.created_at,
          passkey.owner_id,
        ),
    );
    return result.changes > 0;
  }

  async findPasskey(id: string): Promise<{ passkey: PasskeyRecord; owner: OwnerRecord } | null> {
    const row = await this.#db.attempt('read', () =>
      this.#db
        .statement(
          `SELECT p.id, p.owner_id, p.public_key, p.counter, p.transports, p.name, p.created_at,
                p.last_used_at, ${OWNER_COLUMNS_AS_O}
         FROM owner_passkeys p JOIN owners o ON o.id = p.owner_id
         WHERE p.id = ? AND o.removed_at IS NULL`,
        )
        .get(id),
    );
    return row ? { passkey: toPasskey(row), owner: toOwner(row, 'o_') } : null;
  }

  async listPasskeys(ownerId: string): Promise<PasskeyRecord[]> {
    return this.#db.attempt('read', () =>
      this.#db
        .statement(
          `SELECT ${PASSKEY_COLUMNS} FROM owner_passkeys WHERE owner_id = ? ORDER BY created_at, id`,
        )
        .all(ownerId)
        .map(toPasskey),
    );
  }

  async recordPasskeyUse(id: string, counter: number, at: string): Promise<void> {
    await this.#db.attempt('write', () =>
      this.#db
        .statement('UPDATE owner_passkeys SET counter = ?, last_used_at = ? WHERE id = ?')
        .run(counter, at, id),
    );
  }

  async removePasskey(ownerId: string, id: string): Promise<boolean> {
    const result = await this.#db.attempt('write', () =>
      this.#db
        .statement('DELETE FROM owner_passkeys WHERE owner_id = ? AND id = ?')
        .run(ownerId, id),
    );
    return result.changes > 0;
  }

  async createSession(session: SessionRecord): Promise<boolean> {
    return this.#db.attempt('write', () =>
      this.#db.transaction(() => {
        const owner = this.#db
          .statement('UPDATE owners SET last_sign_in_at = ? WHERE id = ? AND removed_at IS NULL')
          .run(session.created_at, session.owner_id);
        if (owner.changes === 0) return false;
        this.#db
          .statement(`INSERT INTO owner_sessions (${SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?)`)
          .run(
            session.id_hash,
            session.owner_id,
            session.created_at,
            session.last_seen_at,
            session.expires_at,
          );
        return true;
      }),
    );
  }

  async findSession(
    idHash: string,
    now: string,
  ): Promise<{ session: SessionRecord; owner: OwnerRecord } | null> {
    const row = await this.#db.attempt('read', () =>
      this.#db
        .statement(
          `SELECT s.id_hash, s.owner_id, s.created_at, s.last_seen_at, s.expires_at,
                ${OWNER_COLUMNS_AS_O}
         FROM owner_sessions s JOIN owners o ON o.id = s.owner_id
         WHERE s.id_hash = ? AND s.expires_at > ? AND o.removed_at IS NULL`,
        )
        .get(idHash, now),
    );
    return row ? { session: toSession(row), owner: toOwner(row, 'o_') } : null;
  }

  async touchSession(idHash: string, at: string, expiresAt: string): Promise<boolean> {
    // Bookkeeping (no fsync of its own): lost to a power cut, a session only
    // ends a little sooner.
    const result = await this.#db.attempt('write', () =>
      this.#db.bookkeeping(() =>
        this.#db
          .statement(
            `UPDATE owner_sessions SET last_seen_at = ?, expires_at = ?
           WHERE id_hash = ? AND expires_at > ?`,
          )
          .run(at, expiresAt, idHash, at),
      ),
    );
    return result.changes > 0;
  }

  async endSession(idHash: string): Promise<boolean> {
    const result = await this.#db.attempt('write', () =>
      this.#db.statement('DELETE FROM owner_sessions WHERE id_hash = ?').run(idHash),
    );
    return result.changes > 0;
  }

  async endOwnerSessions(ownerId: string): Promise<number> {
    const result = await this.#db.attempt('write', () =>
      this.#db.statement('DELETE FROM owner_sessions WHERE owner_id = ?').run(ownerId),
    );
    return Number(result.changes);
  }

  async createOwnerLink(link: OwnerLinkRecord): Promise<void> {
    await this.#db.attempt('write', () =>
      this.#db.transaction(() => {
        if (link.kind === 'setup') {
          this.#db
            .statement(`DELETE FROM owner_links WHERE owner_id = ? AND kind = 'setup'`)
            .run(link.owner_id);
        }
        this.#db
          .statement(
            `INSERT INTO owner_links (token_hash, owner_id, kind, created_at, expires_at)
           VALUES (?, ?, ?, ?, ?)`,
          )
          .run(link.token_hash, link.owner_id, link.kind, link.created_at, link.expires_at);
      }),
    );
  }

  async consumeOwnerLink(
    tokenHash: string,
    kind: OwnerLinkKind,
    now: string,
  ): Promise<OwnerRecord | null> {
    return this.#db.attempt('write', () =>
      this.#db.transaction(() => {
        const link = this.#db
          .statement(
            `DELETE FROM owner_links WHERE token_hash = ? AND kind = ? AND expires_at > ?
           RETURNING owner_id`,
          )
          .get(tokenHash, kind, now);
        if (!link) return null;
        const owner = this.#db
          .statement(`SELECT ${OWNER_COLUMNS} FROM owners WHERE id = ? AND removed_at IS NULL`)
          .get(String(link.owner_id));
        return owner ? toOwner(owner) : null;
      }),
    );
  }

  async findOwnerLink(
    tokenHash: string,
    kind: OwnerLinkKind,
    now: string,
  ): Promise<OwnerRecord | null> {
    return this.#db.attempt('read', () => {
      const row = this.#db
        .statement(
          `SELECT ${OWNER_COLUMNS.split(', ')
            .map((column) => `o.${column}`)
            .join(', ')}
         FROM owner_links l JOIN owners o ON o.id = l.owner_id
         WHERE l.token_hash = ? AND l.kind = ? AND l.expires_at > ? AND o.removed_at IS NULL`,
        )
        .get(tokenHash, kind, now);
      return row ? toOwner(row) : null;
    });
  }

  async createOwnerChallenge(challenge: OwnerChallengeRecord): Promise<void> {
    await this.#db.attempt('write', () =>
      this.#db.transaction(() => {
        // Expired ones go as new ones come: the table holds only live challenges.
        this.#db
          .statement('DELETE FROM owner_challenges WHERE expires_at <= ?')
          .run(challenge.created_at);
        this.#db
          .statement(
            `INSERT INTO owner_challenges (challenge_hash, kind, owner_id, created_at, expires_at)
           VALUES (?, ?, ?, ?, ?)`,
          )
          .run(
            challenge.challenge_hash,
            challenge.kind,
            challenge.owner_id,
            challenge.created_at,
            challenge.expires_at,
          );
      }),
    );
  }

  async consumeOwnerChallenge(
    challengeHash: string,
    kind: OwnerChallengeKind,
    now: string,
  ): Promise<{ owner_id: string | null } | null> {
    return this.#db.attempt('write', () => {
      const row = this.#db
        .statement(
          `DELETE FROM owner_challenges WHERE challenge_hash = ? AND kind = ? AND expires_at > ?
         RETURNING owner_id`,
        )
        .get(challengeHash, kind, now);
      return row ? { owner_id: textOrNull(row.owner_id) } : null;
    });
  }

  async purgeExpiredSignIns(now: string): Promise<number> {
    return this.#db.attempt('write', () =>
      this.#db.transaction(() =>
        ['owner_sessions', 'owner_links', 'owner_challenges']
          .map((table) =>
            Number(
              this.#db.statement(`DELETE FROM ${table} WHERE expires_at <= ?`).run(now).changes,
            ),
          )
          .reduce((sum, n) => sum + n, 0),
      ),
    );
  }
}

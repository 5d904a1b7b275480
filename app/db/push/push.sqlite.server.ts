import { randomUUID } from 'node:crypto';
import webpush from 'web-push';
import type { SqliteConnection } from '../sqlite-connection.server.ts';
import type {
  NewPushSubscription,
  PushNotify,
  PushStore,
  PushSubscriptionRecord,
  VapidKeys,
} from './push.server.ts';

const COLUMNS = 'id, owner_id, endpoint, p256dh, auth, notify, device, created_at';

function toSubscription(row: Record<string, unknown>): PushSubscriptionRecord {
  return {
    id: String(row.id),
    owner_id: String(row.owner_id),
    endpoint: String(row.endpoint),
    p256dh: String(row.p256dh),
    auth: String(row.auth),
    notify: String(row.notify) as PushNotify,
    device: String(row.device),
    created_at: String(row.created_at),
  };
}

/** The SQLite half of the push subscriptions and the VAPID keys (push.server.ts). */
export class SqlitePushStore implements PushStore {
  readonly #db: SqliteConnection;

  constructor(db: SqliteConnection) {
    this.#db = db;
  }

  async addPushSubscription(
    subscription: NewPushSubscription,
  ): Promise<PushSubscriptionRecord | null> {
    const row = await this.#db.attempt('write', () =>
      this.#db
        .statement(
          `INSERT INTO push_subscriptions (${COLUMNS})
           SELECT ?, id, ?, ?, ?, ?, ?, ? FROM owners WHERE id = ? AND removed_at IS NULL
           ON CONFLICT (endpoint) DO UPDATE SET
             owner_id = excluded.owner_id, p256dh = excluded.p256dh, auth = excluded.auth,
             notify = excluded.notify, device = excluded.device, created_at = excluded.created_at
           RETURNING ${COLUMNS}`,
        )
        .get(
          randomUUID(),
          subscription.endpoint,
          subscription.p256dh,
          subscription.auth,
          subscription.notify,
          subscription.device,
          subscription.created_at,
          subscription.owner_id,
        ),
    );
    return row ? toSubscription(row) : null;
  }

  async listOwnerPushSubscriptions(ownerId: string): Promise<PushSubscriptionRecord[]> {
    return this.#db.attempt('read', () =>
      this.#db
        .statement(
          `SELECT ${COLUMNS} FROM push_subscriptions WHERE owner_id = ? ORDER BY created_at, id`,
        )
        .all(ownerId)
        .map(toSubscription),
    );
  }

  async listPushSubscriptions(): Promise<PushSubscriptionRecord[]> {
    return this.#db.attempt('read', () =>
      this.#db
        .statement(`SELECT ${COLUMNS} FROM push_subscriptions ORDER BY created_at, id`)
        .all()
        .map(toSubscription),
    );
  }

  async deletePushSubscription(
    id: string,
    ownerId: string,
  ): Promise<PushSubscriptionRecord | null> {
    const row = await this.#db.attempt('write', () =>
      this.#db
        .statement(
          `DELETE FROM push_subscriptions WHERE id = ? AND owner_id = ? RETURNING ${COLUMNS}`,
        )
        .get(id, ownerId),
    );
    return row ? toSubscription(row) : null;
  }

  async deletePushSubscriptionByEndpoint(endpoint: string): Promise<boolean> {
    const result = await this.#db.attempt('write', () =>
      this.#db.statement('DELETE FROM push_subscriptions WHERE endpoint = ?').run(endpoint),
    );
    return result.changes > 0;
  }

  async getOrCreateVapidKeys(): Promise<VapidKeys> {
    const read = () => {
      const row = this.#db
        .statement('SELECT public_key, private_key FROM push_vapid_keys WHERE id = 1')
        .get();
      return row
        ? { publicKey: String(row.public_key), privateKey: String(row.private_key) }
        : undefined;
    };
    const found = await this.#db.attempt('read', read);
    if (found) return found;
    // Made once: of two processes making it at once, the first insert wins
    // and both read the same pair back.
    const keys = webpush.generateVAPIDKeys();
    const made = await this.#db.attempt('write', () => {
      this.#db
        .statement(
          `INSERT INTO push_vapid_keys (id, public_key, private_key, created_at)
           VALUES (1, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
        )
        .run(keys.publicKey, keys.privateKey, new Date().toISOString());
      return read();
    });
    if (!made) throw new Error('The VAPID keys were not stored');
    return made;
  }
}

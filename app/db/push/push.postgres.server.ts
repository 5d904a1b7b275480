import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import webpush from 'web-push';
import { iso, UUID, type Row } from '../postgres-values.server.ts';
import type {
  NewPushSubscription,
  PushNotify,
  PushStore,
  PushSubscriptionRecord,
  VapidKeys,
} from './push.server.ts';

const COLUMNS = 'id, owner_id, endpoint, p256dh, auth, notify, device, created_at';

function toSubscription(row: Row): PushSubscriptionRecord {
  return {
    id: String(row.id),
    owner_id: String(row.owner_id),
    endpoint: String(row.endpoint),
    p256dh: String(row.p256dh),
    auth: String(row.auth),
    notify: String(row.notify) as PushNotify,
    device: String(row.device),
    created_at: iso(row.created_at) ?? '',
  };
}

/** The PostgreSQL half of the push subscriptions and the VAPID keys (push.server.ts). */
export class PostgresPushStore implements PushStore {
  readonly #pool: pg.Pool;

  constructor(db: pg.Pool) {
    this.#pool = db;
  }

  async addPushSubscription(
    subscription: NewPushSubscription,
  ): Promise<PushSubscriptionRecord | null> {
    if (!UUID.test(subscription.owner_id)) return null;
    const result = await this.#pool.query(
      `INSERT INTO push_subscriptions (${COLUMNS})
       SELECT $1, id, $2, $3, $4, $5, $6, $7::timestamptz FROM owners
       WHERE id = $8 AND removed_at IS NULL
       ON CONFLICT (endpoint) DO UPDATE SET
         owner_id = excluded.owner_id, p256dh = excluded.p256dh, auth = excluded.auth,
         notify = excluded.notify, device = excluded.device, created_at = excluded.created_at
       RETURNING ${COLUMNS}`,
      [
        randomUUID(),
        subscription.endpoint,
        subscription.p256dh,
        subscription.auth,
        subscription.notify,
        subscription.device,
        subscription.created_at,
        subscription.owner_id,
      ],
    );
    const row = result.rows[0] as Row | undefined;
    return row ? toSubscription(row) : null;
  }

  async listOwnerPushSubscriptions(ownerId: string): Promise<PushSubscriptionRecord[]> {
    if (!UUID.test(ownerId)) return [];
    const result = await this.#pool.query(
      `SELECT ${COLUMNS} FROM push_subscriptions WHERE owner_id = $1 ORDER BY created_at, id`,
      [ownerId],
    );
    return (result.rows as Row[]).map(toSubscription);
  }

  async listPushSubscriptions(): Promise<PushSubscriptionRecord[]> {
    const result = await this.#pool.query(
      `SELECT ${COLUMNS} FROM push_subscriptions ORDER BY created_at, id`,
    );
    return (result.rows as Row[]).map(toSubscription);
  }

  async deletePushSubscription(
    id: string,
    ownerId: string,
  ): Promise<PushSubscriptionRecord | null> {
    if (!UUID.test(id) || !UUID.test(ownerId)) return null;
    const result = await this.#pool.query(
      `DELETE FROM push_subscriptions WHERE id = $1 AND owner_id = $2 RETURNING ${COLUMNS}`,
      [id, ownerId],
    );
    const row = result.rows[0] as Row | undefined;
    return row ? toSubscription(row) : null;
  }

  async deletePushSubscriptionByEndpoint(endpoint: string): Promise<boolean> {
    const result = await this.#pool.query('DELETE FROM push_subscriptions WHERE endpoint = $1', [
      endpoint,
    ]);
    return (result.rowCount ?? 0) > 0;
  }

  async getOrCreateVapidKeys(): Promise<VapidKeys> {
    const read = async () => {
      const result = await this.#pool.query(
        'SELECT public_key, private_key FROM push_vapid_keys WHERE id = 1',
      );
      const row = result.rows[0] as Row | undefined;
      return row
        ? { publicKey: String(row.public_key), privateKey: String(row.private_key) }
        : undefined;
    };
    const found = await read();
    if (found) return found;
    // Made once: of two processes making it at once, the first insert wins
    // (the other's waits for it, then does nothing) and both read it back.
    const keys = webpush.generateVAPIDKeys();
    await this.#pool.query(
      `INSERT INTO push_vapid_keys (id, public_key, private_key, created_at)
       VALUES (1, $1, $2, now()) ON CONFLICT (id) DO NOTHING`,
      [keys.publicKey, keys.privateKey],
    );
    const made = await read();
    if (!made) throw new Error('The VAPID keys were not stored');
    return made;
  }
}

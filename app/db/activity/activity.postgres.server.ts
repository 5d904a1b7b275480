import type pg from 'pg';
import { iso, type Row } from '../postgres-values.server.ts';
import { LEAD_PAGE_SIZE } from '../store.server.ts';
import {
  checkActivity,
  type ActivityRecord,
  type ActivityStore,
  type NewActivity,
} from './activity.server.ts';

/** The PostgreSQL half of the activity list (activity.server.ts). */
export class PostgresActivityStore implements ActivityStore {
  readonly #pool: pg.Pool;

  constructor(db: pg.Pool) {
    this.#pool = db;
  }

  async recordActivity(entry: NewActivity): Promise<void> {
    checkActivity(entry);
    await this.#pool.query(
      'INSERT INTO owner_activity (at, actor, action, detail) VALUES ($1::timestamptz, $2, $3, $4)',
      [entry.at, entry.actor, entry.action, entry.detail],
    );
  }

  async listActivity(options: { limit?: number; offset?: number } = {}): Promise<ActivityRecord[]> {
    const limit = Math.max(1, Math.min(options.limit ?? LEAD_PAGE_SIZE, 1000));
    const offset = Math.max(0, Math.floor(options.offset ?? 0));
    const result = await this.#pool.query(
      `SELECT id, at, actor, action, detail FROM owner_activity
       ORDER BY id DESC LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
    return (result.rows as Row[]).map((row) => ({
      id: Number(row.id),
      at: iso(row.at) ?? '',
      actor: String(row.actor),
      action: String(row.action),
      detail: String(row.detail),
    }));
  }
}

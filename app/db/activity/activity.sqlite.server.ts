import type { SqliteConnection } from '../sqlite-connection.server.ts';
import { LEAD_PAGE_SIZE } from '../store.server.ts';
import {
  checkActivity,
  type ActivityRecord,
  type ActivityStore,
  type NewActivity,
} from './activity.server.ts';

/** The SQLite half of the activity list (activity.server.ts). */
export class SqliteActivityStore implements ActivityStore {
  readonly #db: SqliteConnection;

  constructor(db: SqliteConnection) {
    this.#db = db;
  }

  async recordActivity(entry: NewActivity): Promise<void> {
    checkActivity(entry);
    await this.#db.attempt('write', () =>
      this.#db
        .statement('INSERT INTO owner_activity (at, actor, action, detail) VALUES (?, ?, ?, ?)')
        .run(entry.at, entry.actor, entry.action, entry.detail),
    );
  }

  async listActivity(options: { limit?: number; offset?: number } = {}): Promise<ActivityRecord[]> {
    const limit = Math.max(1, Math.min(options.limit ?? LEAD_PAGE_SIZE, 1000));
    const offset = Math.max(0, Math.floor(options.offset ?? 0));
    return this.#db.attempt('read', () =>
      this.#db
        .statement(
          'SELECT id, at, actor, action, detail FROM owner_activity ORDER BY id DESC LIMIT ? OFFSET ?',
        )
        .all(limit, offset)
        .map((row) => ({
          id: Number(row.id),
          at: String(row.at),
          actor: String(row.actor),
          action: String(row.action),
          detail: String(row.detail),
        })),
    );
  }
}

import type { SqliteConnection } from '../sqlite-connection.server.ts';
import {
  FOLLOW_UP_COLUMNS,
  FOLLOW_UP_LIMIT_MAX,
  type FollowUpLead,
  type FollowUpList,
  type FollowUps,
  type LeadFollowUpStore,
  type MorningEmailClaim,
} from './lead-follow-ups.server.ts';
import { textOrNull, type Row } from './leads.sqlite.server.ts';
import type { LeadSource, LeadStage } from './leads.server.ts';

/*
 * The embedded store's half of follow-ups and the morning e-mail
 * (lead-follow-ups.server.ts): the same table of leads, read for the
 * owner's lists, and one row per owner and day for the e-mail.
 */

const ACCEPTED = `status = 'accepted'`;
const URGENT = `${ACCEPTED} AND stage = 'new' AND urgent = 1 AND acknowledged_at IS NULL`;
const WAITING = `${ACCEPTED} AND stage = 'new' AND created_at <= ?`;
const QUOTED = `${ACCEPTED} AND stage = 'quoted' AND stage_changed_at <= ?`;

function toFollowUpLead(row: Row): FollowUpLead {
  return {
    id: String(row.id),
    name: String(row.name),
    phone: String(row.phone),
    service: String(row.service),
    message: String(row.message),
    source: String(row.source) as LeadSource,
    created_at: String(row.created_at),
    urgent: Number(row.urgent) === 1,
    stage: String(row.stage) as LeadStage,
    stage_changed_at: String(row.stage_changed_at ?? row.created_at),
    acknowledged_at: textOrNull(row.acknowledged_at),
  };
}

export class SqliteLeadFollowUps implements LeadFollowUpStore {
  readonly #db: SqliteConnection;

  constructor(db: SqliteConnection) {
    this.#db = db;
  }

  async listFollowUps(options: {
    newBefore: string;
    quotedBefore: string;
    limit: number;
  }): Promise<FollowUps> {
    const limit = Math.max(1, Math.min(Math.floor(options.limit), FOLLOW_UP_LIMIT_MAX));
    return this.#db.attempt('read', () => ({
      urgent: this.#list(URGENT, 'created_at', [], limit),
      waiting: this.#list(WAITING, 'created_at', [options.newBefore], limit),
      quoted: this.#list(QUOTED, 'stage_changed_at', [options.quotedBefore], limit),
    }));
  }

  #list(where: string, since: string, values: string[], limit: number): FollowUpList {
    const rows = this.#db
      .statement(
        `SELECT ${FOLLOW_UP_COLUMNS}, count(*) OVER () AS total FROM leads WHERE ${where}
         ORDER BY ${since}, id LIMIT ?`,
      )
      .all(...values, limit);
    return { leads: rows.map(toFollowUpLead), total: Number(rows[0]?.total ?? 0) };
  }

  async claimMorningEmail(options: {
    ownerId: string;
    day: string;
    now: string;
    leaseUntil: string;
  }): Promise<MorningEmailClaim> {
    const { ownerId, day } = options;
    return this.#db.attempt('write', () => {
      const state = () =>
        this.#db
          .statement(
            'SELECT done_at, claimed_until FROM owner_morning_emails WHERE owner_id = ? AND day = ?',
          )
          .get(ownerId, day);
      // Read first: once it is done, every later look writes nothing.
      const before = state();
      if (before?.done_at != null) return 'done';
      if (before && String(before.claimed_until) > options.now) return 'held';
      return this.#db.transaction((): MorningEmailClaim => {
        this.#db
          .statement(`DELETE FROM owner_morning_emails WHERE day < date(?, '-31 days')`)
          .run(day);
        const claimed = this.#db
          .statement(
            `INSERT INTO owner_morning_emails (owner_id, day, claimed_until) VALUES (?, ?, ?)
             ON CONFLICT (owner_id, day) DO UPDATE SET claimed_until = excluded.claimed_until
               WHERE owner_morning_emails.done_at IS NULL
                 AND owner_morning_emails.claimed_until <= ?`,
          )
          .run(ownerId, day, options.leaseUntil, options.now);
        if (Number(claimed.changes) === 1) return 'claimed';
        return state()?.done_at != null ? 'done' : 'held';
      });
    });
  }

  async finishMorningEmail(ownerId: string, day: string, at: string, leads: number): Promise<void> {
    await this.#db.attempt('write', () =>
      this.#db.transaction(() =>
        this.#db
          .statement(
            `UPDATE owner_morning_emails SET done_at = ?, leads = ?
             WHERE owner_id = ? AND day = ? AND done_at IS NULL`,
          )
          .run(at, leads, ownerId, day),
      ),
    );
  }
}

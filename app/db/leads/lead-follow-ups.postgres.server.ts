import type pg from 'pg';
import { iso, textOrNull, UUID, type Row } from '../postgres-values.server.ts';
import {
  FOLLOW_UP_COLUMNS,
  FOLLOW_UP_LIMIT_MAX,
  type FollowUpLead,
  type FollowUpList,
  type FollowUps,
  type LeadFollowUpStore,
  type MorningEmailClaim,
} from './lead-follow-ups.server.ts';
import type { LeadSource, LeadStage } from './leads.server.ts';

/*
 * The PostgreSQL half of follow-ups and the morning e-mail
 * (lead-follow-ups.server.ts).
 */

const ACCEPTED = `status = 'accepted'`;
const URGENT = `${ACCEPTED} AND stage = 'new' AND urgent AND acknowledged_at IS NULL`;
const WAITING = `${ACCEPTED} AND stage = 'new' AND created_at <= $1::timestamptz`;
const QUOTED = `${ACCEPTED} AND stage = 'quoted' AND stage_changed_at <= $1::timestamptz`;

function toFollowUpLead(row: Row): FollowUpLead {
  return {
    id: String(row.id),
    name: String(row.name),
    phone: String(row.phone),
    service: String(row.service),
    message: String(row.message),
    source: String(row.source) as LeadSource,
    created_at: iso(row.created_at) ?? '',
    urgent: row.urgent === true,
    stage: String(row.stage) as LeadStage,
    stage_changed_at: iso(row.stage_changed_at) ?? iso(row.created_at) ?? '',
    acknowledged_at: iso(row.acknowledged_at),
  };
}

export class PostgresLeadFollowUps implements LeadFollowUpStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async listFollowUps(options: {
    newBefore: string;
    quotedBefore: string;
    limit: number;
  }): Promise<FollowUps> {
    const limit = Math.max(1, Math.min(Math.floor(options.limit), FOLLOW_UP_LIMIT_MAX));
    const [urgent, waiting, quoted] = await Promise.all([
      this.#list(URGENT, 'created_at', null, limit),
      this.#list(WAITING, 'created_at', options.newBefore, limit),
      this.#list(QUOTED, 'stage_changed_at', options.quotedBefore, limit),
    ]);
    return { urgent, waiting, quoted };
  }

  async #list(
    where: string,
    since: string,
    before: string | null,
    limit: number,
  ): Promise<FollowUpList> {
    // The limit's parameter follows the time's, when the list has one.
    const values = before === null ? [] : [before];
    const result = await this.#pool.query(
      `SELECT ${FOLLOW_UP_COLUMNS}, count(*) OVER () AS total FROM leads WHERE ${where}
       ORDER BY ${since}, id LIMIT $${values.length + 1}`,
      [...values, limit],
    );
    const rows = result.rows as Row[];
    return { leads: rows.map(toFollowUpLead), total: Number(rows[0]?.total ?? 0) };
  }

  async claimMorningEmail(options: {
    ownerId: string;
    day: string;
    now: string;
    leaseUntil: string;
  }): Promise<MorningEmailClaim> {
    if (!UUID.test(options.ownerId)) return 'done';
    const state = async () => {
      const result = await this.#pool.query(
        `SELECT done_at, claimed_until FROM owner_morning_emails
         WHERE owner_id = $1 AND day = $2::date`,
        [options.ownerId, options.day],
      );
      return result.rows[0] as Row | undefined;
    };
    // Read first: once it is done, every later look writes nothing.
    const before = await state();
    if (textOrNull(before?.done_at) !== null) return 'done';
    if (before && (iso(before.claimed_until) ?? '') > options.now) return 'held';
    await this.#pool.query(`DELETE FROM owner_morning_emails WHERE day < $1::date - 31`, [
      options.day,
    ]);
    // One upsert: of several processes, the row's lock lets one claim it.
    const claimed = await this.#pool.query(
      `INSERT INTO owner_morning_emails (owner_id, day, claimed_until)
       VALUES ($1, $2::date, $3::timestamptz)
       ON CONFLICT (owner_id, day) DO UPDATE SET claimed_until = excluded.claimed_until
         WHERE owner_morning_emails.done_at IS NULL
           AND owner_morning_emails.claimed_until <= $4::timestamptz
       RETURNING 1`,
      [options.ownerId, options.day, options.leaseUntil, options.now],
    );
    if (claimed.rowCount === 1) return 'claimed';
    return textOrNull((await state())?.done_at) !== null ? 'done' : 'held';
  }

  async finishMorningEmail(ownerId: string, day: string, at: string, leads: number): Promise<void> {
    if (!UUID.test(ownerId)) return;
    await this.#pool.query(
      `UPDATE owner_morning_emails SET done_at = $3::timestamptz, leads = $4
       WHERE owner_id = $1 AND day = $2::date AND done_at IS NULL`,
      [ownerId, day, at, leads],
    );
  }
}

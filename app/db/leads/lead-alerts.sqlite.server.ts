import {
  outageAlertName,
  type AcknowledgeResult,
  type LeadRecord,
  type LeadsStore,
} from './leads.server.ts';
import { LEAD_COLUMNS, textOrNull, toLead, type LeadAlertMethods } from './leads.sqlite.server.ts';
import type { SqliteConnection } from '../sqlite-connection.server.ts';

/*
 * The embedded store's half of the leads for "I'm on it", escalation and
 * the e-mail outage alert (docs/operations.md, "I'm on it" and
 * escalation): the same table of leads, written by the alert loops rather
 * than by an enquiry or the inbox. leads.sqlite.server.ts keeps the rest.
 */

/**
 * An urgent lead to push and e-mail again (docs/operations.md, "I'm on it"
 * and escalation): accepted, still `new`, nobody on it, not escalated,
 * created at or before the first parameter, and not claimed by a live
 * worker at the second. Its first three conditions are the index's.
 */
const ESCALATION_DUE = `urgent = 1 AND escalated_at IS NULL AND acknowledged_at IS NULL
  AND created_at <= ? AND status = 'accepted' AND stage = 'new'
  AND (escalation_claimed_until IS NULL OR escalation_claimed_until <= ?)`;

/**
 * The leads to escalate, read from their partial index (leads_to_escalate:
 * the few urgent leads not yet acknowledged or escalated). Left to itself
 * the planner may walk every new lead by stage instead, which grows with
 * the inbox (16 ms a round with 20,000 leads, against 0.1 ms).
 */
const ESCALATION_ROWS = `leads INDEXED BY leads_to_escalate WHERE ${ESCALATION_DUE}`;

export class SqliteLeadAlerts implements Pick<LeadsStore, LeadAlertMethods> {
  readonly #db: SqliteConnection;

  constructor(db: SqliteConnection) {
    this.#db = db;
  }

  async acknowledgeLead(id: string, by: string, at: string): Promise<AcknowledgeResult | null> {
    return this.#db.attempt('write', () =>
      this.#db.transaction((): AcknowledgeResult | null => {
        const first = this.#db
          .statement(
            `UPDATE leads SET acknowledged_at = ?, acknowledged_by = ?
             WHERE id = ? AND acknowledged_at IS NULL`,
          )
          .run(at, by, id);
        const row = this.#db
          .statement('SELECT acknowledged_at, acknowledged_by FROM leads WHERE id = ?')
          .get(id);
        if (!row) return null;
        return {
          first: Number(first.changes) === 1,
          acknowledged_at: String(row.acknowledged_at),
          acknowledged_by: String(row.acknowledged_by),
        };
      }),
    );
  }

  async claimEscalations(options: {
    dueBefore: string;
    now: string;
    leaseUntil: string;
    limit: number;
  }): Promise<LeadRecord[]> {
    const due = [options.dueBefore, options.now];
    return this.#db.attempt('write', () => {
      // Read first: most rounds find nothing, and then nothing is written.
      if (!this.#db.statement(`SELECT 1 FROM ${ESCALATION_ROWS} LIMIT 1`).get(...due)) {
        return [];
      }
      // One UPDATE ... RETURNING in an immediate transaction: the choice and
      // the claim are one step, and an acknowledgement is before or after it.
      return this.#db.bookkeeping(() =>
        this.#db
          .statement(
            `UPDATE leads SET escalation_claimed_until = ?
             WHERE id IN (SELECT id FROM ${ESCALATION_ROWS} ORDER BY created_at LIMIT ?)
             RETURNING ${LEAD_COLUMNS}`,
          )
          .all(options.leaseUntil, ...due, options.limit)
          .map(toLead)
          .sort((a, b) => a.created_at.localeCompare(b.created_at)),
      );
    });
  }

  async finishEscalation(id: string, at: string): Promise<void> {
    await this.#db.attempt('write', () =>
      this.#db.transaction(() =>
        this.#db
          .statement(
            `UPDATE leads SET escalated_at = ?, escalation_claimed_until = NULL
             WHERE id = ? AND escalated_at IS NULL`,
          )
          .run(at, id),
      ),
    );
  }

  async checkTargetOutage(
    target: string,
    failingSince: string,
    at: string,
  ): Promise<{ outage: boolean; alert: boolean }> {
    const name = outageAlertName(target);
    return this.#db.attempt('write', () => {
      const outage = this.#targetOutage(target, failingSince);
      const marked =
        this.#db.statement('SELECT 1 FROM lead_alerts WHERE name = ?').get(name) !== undefined;
      // Nothing to change (the usual case): nothing is written.
      if (outage === marked) return { outage, alert: false };
      // In an immediate transaction, looked at again: of several processes
      // finding the outage at once, one marks it.
      return this.#db.transaction(() => {
        const now = this.#targetOutage(target, failingSince);
        if (!now) {
          this.#db.statement('DELETE FROM lead_alerts WHERE name = ?').run(name);
          return { outage: false, alert: false };
        }
        const inserted = this.#db
          .statement('INSERT INTO lead_alerts (name, at) VALUES (?, ?) ON CONFLICT DO NOTHING')
          .run(name, at);
        return { outage: true, alert: Number(inserted.changes) === 1 };
      });
    });
  }

  /**
   * The latest first failure at or before `failingSince` of a delivery to
   * the target still pending or failed; an outage when nothing was
   * delivered to that target after it (any earlier failure then has nothing
   * delivered after it either).
   */
  #targetOutage(target: string, failingSince: string): boolean {
    const latest = this.#db
      .statement(
        `SELECT max(first_failed_at) AS at FROM lead_deliveries
         WHERE target = ? AND state IN ('pending', 'failed') AND first_failed_at IS NOT NULL
           AND first_failed_at <= ?`,
      )
      .get(target, failingSince);
    const since = textOrNull(latest?.at);
    if (since === null) return false;
    const deliveredAfter = this.#db
      .statement(
        `SELECT 1 FROM lead_deliveries
         WHERE target = ? AND state = 'delivered' AND delivered_at > ? LIMIT 1`,
      )
      .get(target, since);
    return deliveredAfter === undefined;
  }
}

import type { SQLOutputValue } from 'node:sqlite';
import {
  attachDeliveries,
  PHOTO_INFO_COLUMNS,
  toPhotoInfo,
  type LeadPhoto,
  type LeadPhotoInfo,
  type NewLeadPhoto,
  checkTracking,
  LEAD_PAGE_SIZE,
  searchTerms,
  type LeadSearch,
  type LeadSearchResult,
  type LeadStage,
  type StoredLead,
  type TrackingChanges,
  trackingValues,
  failedAttemptAt,
  type LeadTracking,
  type SpamReason,
  type TrackingSaveResult,
  type CancelledDelivery,
  type ClaimedDelivery,
  type DeliveryRecord,
  type DeliveryUpdate,
  type InsertResult,
  type LeadRecord,
  type LeadStatus,
  type LeadWithDeliveries,
  type NewDelivery,
  type LeadsStore,
} from './leads.server.ts';
import { clipError } from '../store.server.ts';
import type { SqliteConnection } from '../sqlite-connection.server.ts';
import { attributionColumn, readAttribution } from './lead-attribution.server.ts';

export type Row = Record<string, SQLOutputValue>;

/**
 * The inbox's order (docs/operations.md#urgent-enquiries): an urgent lead
 * the owner has not yet moved past `new` on top, then newest first.
 */
const INBOX_ORDER = `(urgent = 1 AND stage = 'new') DESC, created_at DESC`;

export const LEAD_COLUMNS =
  'id, name, email, phone, service, message, created_at, source, status, idempotency_key, urgent, attribution';
const DELIVERY_COLUMNS =
  'lead_id, target, label, state, attempts, next_attempt_at, last_error, delivered_at, lease_owner, lease_expires_at';
/**
 * A lead as read back for people: what the visitor sent, the owner's
 * tracking, when first seen, why it is spam, who is on it.
 */
const STORED_LEAD_COLUMNS = `${LEAD_COLUMNS}, stage, note, revision, seen_at, spam_reason, acknowledged_at, acknowledged_by, stage_changed_at, job_value_cents`;
/** Every lead but spam (docs/operations.md#spam): the inbox's list and its count of new ones. */
const NOT_SPAM = `stage <> 'spam'`;

/**
 * The outbox's claim: the oldest due pending deliveries of accepted leads,
 * leased in one statement. CROSS JOIN keeps the deliveries the outer loop,
 * read in order from the due index; left to itself the planner may walk
 * every accepted lead instead, which grows with the table (a backlog of
 * 20,000 e-mails then drained at a fraction of the speed).
 */
export const CLAIM_SQL = `UPDATE lead_deliveries
  SET lease_owner = ?, lease_expires_at = ?
  WHERE (lead_id, target) IN (
    SELECT d.lead_id, d.target FROM lead_deliveries d CROSS JOIN leads l ON l.id = d.lead_id
    WHERE d.state = 'pending' AND l.status = 'accepted'
      AND d.next_attempt_at IS NOT NULL AND d.next_attempt_at <= ?
      AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= ?)
      AND d.target IN (SELECT value FROM json_each(?))
    ORDER BY d.next_attempt_at
    LIMIT ?
  )
  RETURNING ${DELIVERY_COLUMNS}`;

export function toLead(row: Row): LeadRecord {
  return {
    id: String(row.id),
    name: String(row.name),
    email: String(row.email),
    phone: String(row.phone),
    service: String(row.service),
    message: String(row.message),
    created_at: String(row.created_at),
    source: String(row.source) as LeadRecord['source'],
    status: String(row.status) as LeadStatus,
    idempotency_key: row.idempotency_key === null ? null : String(row.idempotency_key),
    urgent: Number(row.urgent) === 1,
    attribution: readAttribution(row.attribution),
  };
}

export const textOrNull = (value: SQLOutputValue | undefined) =>
  value === null || value === undefined ? null : String(value);

function toTracking(row: Row): LeadTracking {
  return {
    stage: String(row.stage) as LeadStage,
    note: String(row.note),
    revision: Number(row.revision),
  };
}

function toStoredLead(row: Row): StoredLead {
  return {
    ...toLead(row),
    ...toTracking(row),
    seen_at: textOrNull(row.seen_at),
    spam_reason: textOrNull(row.spam_reason) as SpamReason | null,
    acknowledged_at: textOrNull(row.acknowledged_at),
    acknowledged_by: textOrNull(row.acknowledged_by),
    stage_changed_at: String(row.stage_changed_at ?? row.created_at),
    job_value_cents: row.job_value_cents === null ? null : Number(row.job_value_cents),
  };
}

function toDelivery(row: Row): DeliveryRecord {
  return {
    lead_id: String(row.lead_id),
    target: String(row.target),
    label: String(row.label),
    state: String(row.state) as DeliveryRecord['state'],
    attempts: Number(row.attempts),
    next_attempt_at: textOrNull(row.next_attempt_at),
    last_error: textOrNull(row.last_error),
    delivered_at: textOrNull(row.delivered_at),
    lease_owner: textOrNull(row.lease_owner),
    lease_expires_at: textOrNull(row.lease_expires_at),
  };
}

/** Leads, their deliveries (the outbox) and their photos: the SQLite half. */
/** What the alerts' half (lead-alerts.sqlite.server.ts) keeps. */
export type LeadAlertMethods =
  'acknowledgeLead' | 'claimEscalations' | 'finishEscalation' | 'checkTargetOutage';

export class SqliteLeadsStore implements Omit<LeadsStore, LeadAlertMethods> {
  readonly #db: SqliteConnection;

  constructor(db: SqliteConnection) {
    this.#db = db;
  }

  #deliveriesOf(leadIds: readonly string[]): DeliveryRecord[] {
    if (leadIds.length === 0) return [];
    const rows: DeliveryRecord[] = [];
    // Chunked to stay far below SQLite's bound-parameter limit.
    for (let start = 0; start < leadIds.length; start += 500) {
      const chunk = leadIds.slice(start, start + 500);
      const placeholders = chunk.map(() => '?').join(', ');
      const found = this.#db
        .statement(
          `SELECT ${DELIVERY_COLUMNS} FROM lead_deliveries
           WHERE lead_id IN (${placeholders}) ORDER BY lead_id, position`,
        )
        .all(...chunk);
      rows.push(...found.map(toDelivery));
    }
    return rows;
  }

  #photosOf(leadIds: readonly string[]): Array<LeadPhotoInfo & { lead_id: string }> {
    if (leadIds.length === 0) return [];
    const rows: Array<LeadPhotoInfo & { lead_id: string }> = [];
    for (let start = 0; start < leadIds.length; start += 500) {
      const chunk = leadIds.slice(start, start + 500);
      const placeholders = chunk.map(() => '?').join(', ');
      const found = this.#db
        .statement(
          `SELECT ${PHOTO_INFO_COLUMNS} FROM lead_photos
           WHERE lead_id IN (${placeholders}) ORDER BY lead_id, position`,
        )
        .all(...chunk);
      rows.push(...found.map(toPhotoInfo));
    }
    return rows;
  }

  /** Leads with their deliveries and their photos' metadata. */
  #withDetails(leads: ReadonlyArray<StoredLead>): LeadWithDeliveries[] {
    const ids = leads.map((lead) => lead.id);
    return attachDeliveries(leads, this.#deliveriesOf(ids), this.#photosOf(ids));
  }

  async insertLead(
    lead: LeadRecord,
    deliveries: readonly NewDelivery[],
    photos: readonly NewLeadPhoto[] = [],
  ): Promise<InsertResult> {
    return this.#db.attempt('write', () => this.#insertLead(lead, deliveries, photos));
  }

  async getLeadPhoto(leadId: string, position: number): Promise<LeadPhoto | null> {
    return this.#db.attempt('read', () => {
      const row = this.#db
        .statement(
          `SELECT ${PHOTO_INFO_COLUMNS}, data FROM lead_photos WHERE lead_id = ? AND position = ?`,
        )
        .get(leadId, position);
      if (!row) return null;
      const data = row.data;
      return { ...toPhotoInfo(row), data: new Uint8Array(data instanceof Uint8Array ? data : []) };
    });
  }

  #insertLead(
    lead: LeadRecord,
    deliveries: readonly NewDelivery[],
    photos: readonly NewLeadPhoto[],
  ): InsertResult {
    return this.#db.transaction(() => {
      const inserted = this.#db
        .statement(
          `INSERT INTO leads (${LEAD_COLUMNS}, stage, spam_reason, spam_at, message_key,
             stage_changed_at)
           VALUES (?, ?, ?, ?, ?, ?, ?7, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?7)
           ON CONFLICT (idempotency_key) DO NOTHING`,
        )
        .run(
          lead.id,
          lead.name,
          lead.email,
          lead.phone,
          lead.service,
          lead.message,
          lead.created_at,
          lead.source,
          lead.status,
          lead.idempotency_key,
          lead.urgent ? 1 : 0,
          attributionColumn(lead.attribution),
          // A spam lead is at the stage `spam` from the start, and spam since it came.
          lead.status === 'spam' ? 'spam' : 'new',
          lead.status === 'spam' ? (lead.spam_reason ?? 'trap') : null,
          lead.status === 'spam' ? lead.created_at : null,
          lead.message_key ?? null,
        );
      if (inserted.changes === 0) {
        const existing = this.#db
          .statement(`SELECT ${LEAD_COLUMNS} FROM leads WHERE idempotency_key = ?`)
          .get(lead.idempotency_key);
        if (!existing) throw new Error('Lead insert ignored without an idempotency conflict');
        return { inserted: false as const, existing: toLead(existing) };
      }
      const insertDelivery = this.#db.statement(
        `INSERT INTO lead_deliveries (lead_id, target, label, state, attempts, next_attempt_at, position)
         VALUES (?, ?, ?, ?, 0, ?, ?)`,
      );
      deliveries.forEach((delivery, position) => {
        insertDelivery.run(
          lead.id,
          delivery.target,
          delivery.label,
          delivery.state,
          delivery.next_attempt_at,
          position,
        );
      });
      if (photos.length > 0) {
        const insertPhoto = this.#db.statement(
          `INSERT INTO lead_photos (lead_id, position, data, width, height, byte_size)
           VALUES (?, ?, ?, ?, ?, ?)`,
        );
        photos.forEach((photo, position) => {
          insertPhoto.run(
            lead.id,
            position,
            photo.data,
            photo.width,
            photo.height,
            photo.data.byteLength,
          );
        });
      }
      return { inserted: true as const };
    });
  }

  async findByIdempotencyKey(key: string): Promise<LeadRecord | null> {
    return this.#db.attempt('read', () => {
      const row = this.#db
        .statement(`SELECT ${LEAD_COLUMNS} FROM leads WHERE idempotency_key = ?`)
        .get(key);
      return row ? toLead(row) : null;
    });
  }

  async getLead(id: string): Promise<LeadWithDeliveries | null> {
    return this.#db.attempt('read', () => {
      const row = this.#db
        .statement(`SELECT ${STORED_LEAD_COLUMNS} FROM leads WHERE id = ?`)
        .get(id);
      if (!row) return null;
      const lead = toStoredLead(row);
      return this.#withDetails([lead])[0] ?? null;
    });
  }

  async settleLead(
    id: string,
    status: LeadStatus,
    updates: readonly DeliveryUpdate[],
  ): Promise<void> {
    await this.#db.attempt('write', () => this.#settleLead(id, status, updates));
  }

  #settleLead(id: string, status: LeadStatus, updates: readonly DeliveryUpdate[]): void {
    this.#db.transaction(() => {
      this.#db.statement('UPDATE leads SET status = ? WHERE id = ?').run(status, id);
      const update = this.#db.statement(
        `UPDATE lead_deliveries
         SET state = ?, attempts = ?, next_attempt_at = ?, last_error = ?, delivered_at = ?,
             first_failed_at = coalesce(first_failed_at, ?),
             lease_owner = NULL, lease_expires_at = NULL
         WHERE lead_id = ? AND target = ?`,
      );
      for (const u of updates) {
        update.run(
          u.state,
          u.attempts,
          u.next_attempt_at,
          clipError(u.last_error),
          u.delivered_at,
          failedAttemptAt(u),
          id,
          u.target,
        );
      }
    });
  }

  async releaseIdempotencyKey(id: string): Promise<boolean> {
    const result = await this.#db.attempt('write', () =>
      this.#db
        .statement(
          `UPDATE leads SET idempotency_key = NULL WHERE id = ? AND status = 'not_accepted'`,
        )
        .run(id),
    );
    return result.changes > 0;
  }

  async claimDueDeliveries(options: {
    owner: string;
    now: string;
    leaseUntil: string;
    limit: number;
    targets: readonly string[];
  }): Promise<ClaimedDelivery[]> {
    return this.#db.attempt('write', () => this.#claimDueDeliveries(options));
  }

  #claimDueDeliveries(options: {
    owner: string;
    now: string;
    leaseUntil: string;
    limit: number;
    targets: readonly string[];
  }): ClaimedDelivery[] {
    return this.#db.bookkeeping(() => {
      // One UPDATE ... RETURNING inside an immediate transaction: no other
      // connection can write between choosing the rows and leasing them.
      const claimed = this.#db
        .statement(CLAIM_SQL)
        .all(
          options.owner,
          options.leaseUntil,
          options.now,
          options.now,
          JSON.stringify(options.targets),
          options.limit,
        )
        .map(toDelivery)
        // RETURNING gives rows in the table's key order: oldest due first again.
        .sort((a, b) => (a.next_attempt_at ?? '').localeCompare(b.next_attempt_at ?? ''));
      if (claimed.length === 0) return [];
      const ids = [...new Set(claimed.map((d) => d.lead_id))];
      const leads = new Map(
        this.#db
          .statement(
            `SELECT ${LEAD_COLUMNS} FROM leads WHERE id IN (${ids.map(() => '?').join(', ')})`,
          )
          .all(...ids)
          .map((row) => [String(row.id), toLead(row)] as const),
      );
      return claimed.flatMap((delivery) => {
        const lead = leads.get(delivery.lead_id);
        if (!lead) return [];
        return [
          {
            ...delivery,
            lease_owner: options.owner,
            lease_expires_at: options.leaseUntil,
            lead,
          },
        ];
      });
    });
  }

  async recordDelivery(leadId: string, owner: string, update: DeliveryUpdate): Promise<boolean> {
    const result = await this.#db.attempt('write', () =>
      this.#db.bookkeeping(() =>
        this.#db
          .statement(
            `UPDATE lead_deliveries
         SET state = ?, attempts = ?, next_attempt_at = ?, last_error = ?, delivered_at = ?,
             first_failed_at = coalesce(first_failed_at, ?),
             lease_owner = NULL, lease_expires_at = NULL
         WHERE lead_id = ? AND target = ? AND lease_owner = ?`,
          )
          .run(
            update.state,
            update.attempts,
            update.next_attempt_at,
            clipError(update.last_error),
            update.delivered_at,
            failedAttemptAt(update),
            leadId,
            update.target,
            owner,
          ),
      ),
    );
    return result.changes > 0;
  }

  async retryDelivery(leadId: string, target: string, at: string): Promise<boolean> {
    const result = await this.#db.attempt('write', () =>
      this.#db.transaction(() =>
        this.#db
          .statement(
            `UPDATE lead_deliveries
           SET state = 'pending', next_attempt_at = ?, lease_owner = NULL, lease_expires_at = NULL
           WHERE lead_id = ? AND target = ? AND state = 'failed'
             AND lead_id IN (SELECT id FROM leads WHERE status = 'accepted')`,
          )
          .run(at, leadId, target),
      ),
    );
    return result.changes > 0;
  }

  async cancelDeliveriesExcept(targets: readonly string[]): Promise<CancelledDelivery[]> {
    return this.#db.attempt('write', () => this.#cancelDeliveriesExcept(targets));
  }

  #cancelDeliveriesExcept(targets: readonly string[]): CancelledDelivery[] {
    return this.#db.bookkeeping(() =>
      this.#db
        .statement(
          `UPDATE lead_deliveries
           SET state = 'cancelled', next_attempt_at = NULL, lease_owner = NULL, lease_expires_at = NULL
           WHERE state = 'pending' AND target NOT IN (SELECT value FROM json_each(?))
             AND lead_id IN (SELECT id FROM leads WHERE status = 'accepted')
           RETURNING lead_id, target, label`,
        )
        .all(JSON.stringify(targets))
        .map((row) => ({
          lead_id: String(row.lead_id),
          target: String(row.target),
          label: String(row.label),
        })),
    );
  }

  async expireReceived(olderThan: string): Promise<number> {
    return this.#db.attempt('write', () => this.#expireReceived(olderThan));
  }

  #expireReceived(olderThan: string): number {
    return this.#db.bookkeeping(() => {
      const stale = this.#db
        .statement(`SELECT id FROM leads WHERE status = 'received' AND created_at < ?`)
        .all(olderThan)
        .map((row) => String(row.id));
      const markLead = this.#db.statement(
        `UPDATE leads SET status = 'not_accepted' WHERE id = ? AND status = 'received'`,
      );
      const markDeliveries = this.#db.statement(
        `UPDATE lead_deliveries SET state = 'not_sent', next_attempt_at = NULL,
           lease_owner = NULL, lease_expires_at = NULL
         WHERE lead_id = ? AND state = 'pending'`,
      );
      for (const id of stale) {
        markLead.run(id);
        markDeliveries.run(id);
      }
      return stale.length;
    });
  }

  async listLeads(options: { limit?: number } = {}): Promise<LeadWithDeliveries[]> {
    const limit = Math.max(1, Math.min(options.limit ?? 50, 10_000));
    return this.#db.attempt('read', () => {
      const leads = this.#db
        .statement(
          `SELECT ${STORED_LEAD_COLUMNS} FROM leads ORDER BY created_at DESC, rowid DESC LIMIT ?`,
        )
        .all(limit)
        .map(toStoredLead);
      return this.#withDetails(leads);
    });
  }

  async exportLeads(): Promise<LeadWithDeliveries[]> {
    return this.#db.attempt('read', () => {
      const leads = this.#db
        .statement(`SELECT ${STORED_LEAD_COLUMNS} FROM leads ORDER BY created_at, rowid`)
        .all()
        .map(toStoredLead);
      return this.#withDetails(leads);
    });
  }

  async findLeadsByEmail(email: string): Promise<LeadWithDeliveries[]> {
    return this.#db.attempt('read', () => {
      const leads = this.#db
        .statement(
          `SELECT ${STORED_LEAD_COLUMNS} FROM leads WHERE email = ? ORDER BY created_at, rowid`,
        )
        .all(email.trim().toLowerCase())
        .map(toStoredLead);
      return this.#withDetails(leads);
    });
  }

  async deleteLeads(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const count = await this.#db.attempt('write', () =>
      this.#db.transaction(() => {
        const remove = this.#db.statement('DELETE FROM leads WHERE id = ?');
        let deleted = 0;
        for (const id of new Set(ids)) deleted += Number(remove.run(id).changes);
        return deleted;
      }),
    );
    await this.#db.eraseWal();
    return count;
  }

  async purgeCreatedBefore(cutoff: string): Promise<number> {
    // Deliveries go with their lead (ON DELETE CASCADE).
    const result = await this.#db.attempt('write', () =>
      this.#db.statement('DELETE FROM leads WHERE created_at < ?').run(cutoff),
    );
    // Every purge (daily), so one whose checkpoint could not finish is finished by the next.
    await this.#db.eraseWal();
    return Number(result.changes);
  }

  async purgeSpamBefore(cutoff: string): Promise<number> {
    const result = await this.#db.attempt('write', () =>
      this.#db.statement(`DELETE FROM leads WHERE status = 'spam' AND spam_at < ?`).run(cutoff),
    );
    await this.#db.eraseWal();
    return Number(result.changes);
  }

  // -------------------------------------------------------------------------
  // Spam

  async hasMessageSince(messageKey: string, since: string): Promise<boolean> {
    return this.#db.attempt('read', () =>
      Boolean(
        this.#db
          .statement(
            `SELECT 1 AS found FROM leads
             WHERE message_key = ? AND created_at >= ? AND status <> 'not_accepted' LIMIT 1`,
          )
          .get(messageKey, since),
      ),
    );
  }

  async countSpamLeads(): Promise<number> {
    const row = await this.#db.attempt('read', () =>
      this.#db.statement(`SELECT count(*) AS n FROM leads WHERE stage = 'spam'`).get(),
    );
    return Number(row?.n ?? 0);
  }

  async markSpam(id: string, at: string, reason: SpamReason): Promise<number | null> {
    return this.#db.attempt('write', () =>
      this.#db.transaction(() => {
        const marked = this.#db
          .statement(
            `UPDATE leads SET status = 'spam', stage = 'spam', spam_reason = ?2, spam_at = ?1,
               stage_changed_at = ?1, revision = revision + 1
             WHERE id = ?3 AND status <> 'spam'`,
          )
          .run(at, reason, id);
        if (Number(marked.changes) === 0) return null;
        const cancelled = this.#db
          .statement(
            `UPDATE lead_deliveries SET state = 'cancelled', next_attempt_at = NULL,
               lease_owner = NULL, lease_expires_at = NULL
             WHERE lead_id = ? AND state = 'pending'`,
          )
          .run(id);
        return Number(cancelled.changes);
      }),
    );
  }

  async rescueLead(
    id: string,
    deliveries: readonly NewDelivery[],
    options: { escalateNotBefore?: string; at?: string } = {},
  ): Promise<boolean> {
    const at = options.at ?? new Date().toISOString();
    return this.#db.attempt('write', () =>
      this.#db.transaction(() => {
        const rescued = this.#db
          .statement(
            `UPDATE leads SET status = 'accepted', stage = 'new', spam_reason = NULL,
               spam_at = NULL, revision = revision + 1, stage_changed_at = ?,
               escalation_claimed_until = COALESCE(?, escalation_claimed_until)
             WHERE id = ? AND status = 'spam'`,
          )
          .run(at, options.escalateNotBefore ?? null, id);
        if (Number(rescued.changes) === 0) return false;
        this.#db.statement('DELETE FROM lead_deliveries WHERE lead_id = ?').run(id);
        const insert = this.#db.statement(
          `INSERT INTO lead_deliveries (lead_id, target, label, state, attempts, next_attempt_at, position)
           VALUES (?, ?, ?, ?, 0, ?, ?)`,
        );
        deliveries.forEach((delivery, position) => {
          insert.run(
            id,
            delivery.target,
            delivery.label,
            delivery.state,
            delivery.next_attempt_at,
            position,
          );
        });
        return true;
      }),
    );
  }

  // -------------------------------------------------------------------------
  // The owner's pages

  async saveLeadTracking(
    id: string,
    expectedRevision: number,
    changes: TrackingChanges,
    at = new Date().toISOString(),
  ): Promise<TrackingSaveResult> {
    checkTracking(changes);
    return this.#db.attempt('write', () =>
      this.#db.transaction((): TrackingSaveResult => {
        const saved = this.#db
          .statement(
            `UPDATE leads SET stage = coalesce(?1, stage), note = coalesce(?2, note),
             job_value_cents = iif(coalesce(?1, stage) = 'won', iif(?3, ?4, job_value_cents), NULL),
             revision = revision + 1,
             stage_changed_at = CASE WHEN ?1 <> stage THEN ?7 ELSE stage_changed_at END
           WHERE id = ?5 AND revision = ?6
           RETURNING stage, note, revision`,
          )
          .get(...trackingValues(changes), id, expectedRevision, at);
        if (saved) return { saved: true, tracking: toTracking(saved) };
        const current = this.#db
          .statement('SELECT stage, note, revision FROM leads WHERE id = ?')
          .get(id);
        return current
          ? { saved: false, reason: 'conflict', current: toTracking(current) }
          : { saved: false, reason: 'not_found' };
      }),
    );
  }

  async searchLeads(search: LeadSearch = {}): Promise<LeadSearchResult> {
    const limit = Math.max(1, Math.min(search.limit ?? LEAD_PAGE_SIZE, 200));
    const offset = Math.max(0, Math.floor(search.offset ?? 0));
    const { text, digits } = searchTerms(search.query);
    const where: string[] = [];
    const values: Array<string | number> = [];
    if (search.stage !== undefined) {
      where.push('stage = ?');
      values.push(search.stage);
    } else {
      where.push(NOT_SPAM);
    }
    if (text !== null) {
      // instr(), not LIKE: the search text is matched as it is, no wildcards.
      const parts = [
        'instr(lead_fold(name), ?) > 0',
        'instr(lead_fold(email), ?) > 0',
        'instr(lead_fold(phone), ?) > 0',
      ];
      values.push(text, text, text);
      if (digits !== null) {
        parts.push('instr(lead_digits(phone), ?) > 0');
        values.push(digits);
      }
      where.push(`(${parts.join(' OR ')})`);
    }
    const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
    return this.#db.attempt('read', () => {
      const total = Number(
        this.#db.statement(`SELECT count(*) AS n FROM leads ${filter}`).get(...values)?.n ?? 0,
      );
      const leads = this.#db
        .statement(
          `SELECT ${STORED_LEAD_COLUMNS} FROM leads ${filter}
         ORDER BY ${INBOX_ORDER}, rowid DESC LIMIT ? OFFSET ?`,
        )
        .all(...values, limit, offset)
        .map(toStoredLead);
      return {
        leads: this.#withDetails(leads),
        total,
      };
    });
  }

  async markLeadSeen(id: string, at: string): Promise<boolean> {
    const result = await this.#db.attempt('write', () =>
      this.#db
        .statement('UPDATE leads SET seen_at = ? WHERE id = ? AND seen_at IS NULL')
        .run(at, id),
    );
    return Number(result.changes) === 1;
  }

  async markLeadsSeen(upTo: string, at: string): Promise<number> {
    const result = await this.#db.attempt('write', () =>
      this.#db
        .statement('UPDATE leads SET seen_at = ? WHERE seen_at IS NULL AND created_at <= ?')
        .run(at, upTo),
    );
    return Number(result.changes);
  }

  async countUnseenLeads(): Promise<number> {
    const row = await this.#db.attempt('read', () =>
      this.#db
        .statement(`SELECT count(*) AS n FROM leads WHERE seen_at IS NULL AND ${NOT_SPAM}`)
        .get(),
    );
    return Number(row?.n ?? 0);
  }

  async countFailedDeliveries(): Promise<number> {
    const row = await this.#db.attempt('read', () =>
      this.#db.statement(`SELECT count(*) AS n FROM lead_deliveries WHERE state = 'failed'`).get(),
    );
    return Number(row?.n ?? 0);
  }
}

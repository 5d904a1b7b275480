import type pg from 'pg';
import {
  attachDeliveries,
  PHOTO_INFO_COLUMNS,
  toPhotoInfo,
  type LeadPhoto,
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
  type AcknowledgeResult,
  failedAttemptAt,
  outageAlertName,
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
import { iso, textOrNull, UUID, type Row } from '../postgres-values.server.ts';
import { attributionColumn, readAttribution } from './lead-attribution.server.ts';

const LEAD_COLUMNS =
  'id, name, email, phone, service, message, created_at, source, status, idempotency_key, urgent, attribution';
/**
 * The inbox's order (docs/operations.md#urgent-enquiries): an urgent lead
 * the owner has not yet moved past `new` on top, then newest first.
 */
const INBOX_ORDER = `(urgent AND stage = 'new') DESC, created_at DESC`;
const DELIVERY_COLUMNS =
  'lead_id, target, label, state, attempts, next_attempt_at, last_error, delivered_at, lease_owner, lease_expires_at';
/**
 * A lead as read back for people: what the visitor sent, the owner's
 * tracking, when first seen, why it is spam, who is on it.
 */
const STORED_LEAD_COLUMNS = `${LEAD_COLUMNS}, stage, note, revision, seen_at, spam_reason, acknowledged_at, acknowledged_by, stage_changed_at, job_value_cents`;
function toLead(row: Row, prefix = ''): LeadRecord {
  const get = (column: string) => row[`${prefix}${column}`];
  return {
    id: String(get('id')),
    name: String(get('name')),
    email: String(get('email')),
    phone: String(get('phone')),
    service: String(get('service')),
    message: String(get('message')),
    created_at: iso(get('created_at')) ?? '',
    source: String(get('source')) as LeadRecord['source'],
    status: String(get('status')) as LeadStatus,
    idempotency_key: textOrNull(get('idempotency_key')),
    urgent: get('urgent') === true,
    attribution: readAttribution(get('attribution')),
  };
}

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
    seen_at: iso(row.seen_at),
    spam_reason: textOrNull(row.spam_reason) as SpamReason | null,
    acknowledged_at: iso(row.acknowledged_at),
    acknowledged_by: textOrNull(row.acknowledged_by),
    stage_changed_at: iso(row.stage_changed_at) ?? iso(row.created_at) ?? '',
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
    next_attempt_at: iso(row.next_attempt_at),
    last_error: textOrNull(row.last_error),
    delivered_at: iso(row.delivered_at),
    lease_owner: textOrNull(row.lease_owner),
    lease_expires_at: iso(row.lease_expires_at),
  };
}

/** Leads, their deliveries (the outbox) and their photos: the PostgreSQL half. */
export class PostgresLeadsStore implements LeadsStore {
  readonly #pool: pg.Pool;

  constructor(db: pg.Pool) {
    this.#pool = db;
  }

  async #deliveriesOf(leadIds: readonly string[]): Promise<DeliveryRecord[]> {
    if (leadIds.length === 0) return [];
    const result = await this.#pool.query(
      `SELECT ${DELIVERY_COLUMNS} FROM lead_deliveries
       WHERE lead_id = ANY($1::uuid[]) ORDER BY lead_id, position`,
      [leadIds],
    );
    return result.rows.map(toDelivery);
  }

  /** Leads with their deliveries and their photos' metadata. */
  async #withDetails(leads: ReadonlyArray<StoredLead>): Promise<LeadWithDeliveries[]> {
    const ids = leads.map((lead) => lead.id);
    if (ids.length === 0) return [];
    const [deliveries, photos] = await Promise.all([
      this.#deliveriesOf(ids),
      this.#pool.query(
        `SELECT ${PHOTO_INFO_COLUMNS} FROM lead_photos
         WHERE lead_id = ANY($1::uuid[]) ORDER BY lead_id, position`,
        [ids],
      ),
    ]);
    return attachDeliveries(leads, deliveries, (photos.rows as Row[]).map(toPhotoInfo));
  }

  async getLeadPhoto(leadId: string, position: number): Promise<LeadPhoto | null> {
    if (!UUID.test(leadId) || !Number.isSafeInteger(position)) return null;
    const result = await this.#pool.query(
      `SELECT ${PHOTO_INFO_COLUMNS}, data FROM lead_photos WHERE lead_id = $1 AND position = $2`,
      [leadId, position],
    );
    const row = result.rows[0] as Row | undefined;
    if (!row) return null;
    const data = row.data;
    // A plain Uint8Array, as the SQLite store has it (pg gives a Buffer).
    return { ...toPhotoInfo(row), data: new Uint8Array(data instanceof Uint8Array ? data : []) };
  }

  async insertLead(
    lead: LeadRecord,
    deliveries: readonly NewDelivery[],
    photos: readonly NewLeadPhoto[] = [],
  ): Promise<InsertResult> {
    // A conflicting key whose holder is released in between is retried.
    for (let round = 0; round < 3; round++) {
      // One statement, so one round trip and atomic without BEGIN/COMMIT: the
      // deliveries are inserted only for a lead row that was. ON CONFLICT
      // waits for a concurrent uncommitted insert of the same key, so of two
      // simultaneous requests exactly one inserts.
      const leadValues = [
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
        lead.urgent,
        attributionColumn(lead.attribution),
        // A spam lead is at the stage `spam` from the start, and spam since it came.
        lead.status === 'spam' ? 'spam' : 'new',
        lead.status === 'spam' ? (lead.spam_reason ?? 'trap') : null,
        lead.status === 'spam' ? lead.created_at : null,
        lead.message_key ?? null,
      ];
      const insertLead = `INSERT INTO leads (${LEAD_COLUMNS}, stage, spam_reason, spam_at, message_key,
             stage_changed_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7::timestamptz, $8, $9, $10, $11, $12::jsonb, $13,
             $14, $15::timestamptz, $16, $7::timestamptz)
           ON CONFLICT (idempotency_key) DO NOTHING
           RETURNING id`;
      const deliveryValues = [
        deliveries.map((d) => d.target),
        deliveries.map((d) => d.label),
        deliveries.map((d) => d.state),
        deliveries.map((d) => d.next_attempt_at),
        deliveries.map((_, position) => position),
      ];
      const insertDeliveries = `INSERT INTO lead_deliveries
             (lead_id, target, label, state, attempts, next_attempt_at, position)
           SELECT lead.id, u.target, u.label, u.state, 0, u.next_attempt_at, u.position
           FROM lead
           CROSS JOIN unnest($17::text[], $18::text[], $19::text[], $20::timestamptz[], $21::int[])
             AS u (target, label, state, next_attempt_at, position)`;
      // Named, so each connection parses and plans them once. Without targets
      // (stored mode, nothing to deliver) the deliveries table is not touched,
      // nor the photos' without photos.
      const result = await this.#pool.query<{ inserted: string }>(
        photos.length > 0
          ? {
              name: 'lead-insert-with-photos',
              text: `WITH lead AS (${insertLead}), deliveries AS (${insertDeliveries}),
         photos AS (
           INSERT INTO lead_photos (lead_id, position, data, width, height, byte_size)
           SELECT lead.id, p.position, p.data, p.width, p.height, p.byte_size
           FROM lead
           CROSS JOIN unnest($22::int[], $23::bytea[], $24::int[], $25::int[], $26::int[])
             AS p (position, data, width, height, byte_size)
         )
         SELECT count(*) AS inserted FROM lead`,
              values: [
                ...leadValues,
                ...deliveryValues,
                photos.map((_, position) => position),
                photos.map((photo) =>
                  Buffer.from(photo.data.buffer, photo.data.byteOffset, photo.data.byteLength),
                ),
                photos.map((photo) => photo.width),
                photos.map((photo) => photo.height),
                photos.map((photo) => photo.data.byteLength),
              ],
            }
          : deliveries.length === 0
            ? {
                name: 'lead-insert',
                text: `WITH lead AS (${insertLead}) SELECT count(*) AS inserted FROM lead`,
                values: leadValues,
              }
            : {
                name: 'lead-insert-with-deliveries',
                text: `WITH lead AS (${insertLead}), deliveries AS (${insertDeliveries})
         SELECT count(*) AS inserted FROM lead`,
                values: [...leadValues, ...deliveryValues],
              },
      );
      const inserted = Number(result.rows[0]?.inserted) === 1;
      if (inserted) return { inserted: true };
      if (lead.idempotency_key === null) throw new Error('Lead insert ignored without a key');
      const existing = await this.findByIdempotencyKey(lead.idempotency_key);
      if (existing) return { inserted: false, existing };
    }
    throw new Error('Lead insert kept conflicting on its idempotency key');
  }

  async findByIdempotencyKey(key: string): Promise<LeadRecord | null> {
    const result = await this.#pool.query(
      `SELECT ${LEAD_COLUMNS} FROM leads WHERE idempotency_key = $1`,
      [key],
    );
    const row = result.rows[0] as Row | undefined;
    return row ? toLead(row) : null;
  }

  async getLead(id: string): Promise<LeadWithDeliveries | null> {
    // Not a uuid: no such lead (and no cast error from PostgreSQL).
    if (!UUID.test(id)) return null;
    const result = await this.#pool.query(
      `SELECT ${STORED_LEAD_COLUMNS} FROM leads WHERE id = $1`,
      [id],
    );
    const row = result.rows[0] as Row | undefined;
    if (!row) return null;
    const lead = toStoredLead(row);
    return (await this.#withDetails([lead]))[0] ?? null;
  }

  async settleLead(
    id: string,
    status: LeadStatus,
    updates: readonly DeliveryUpdate[],
  ): Promise<void> {
    // One statement, so the status and the delivery rows change together.
    await this.#pool.query(
      `WITH lead AS (UPDATE leads SET status = $2 WHERE id = $1)
       UPDATE lead_deliveries d
       SET state = u.state, attempts = u.attempts, next_attempt_at = u.next_attempt_at,
           last_error = u.last_error, delivered_at = u.delivered_at,
           first_failed_at = coalesce(d.first_failed_at, u.failed_at),
           lease_owner = NULL, lease_expires_at = NULL
       FROM unnest($3::text[], $4::text[], $5::int[], $6::timestamptz[], $7::text[], $8::timestamptz[],
                   $9::timestamptz[])
         AS u (target, state, attempts, next_attempt_at, last_error, delivered_at, failed_at)
       WHERE d.lead_id = $1 AND d.target = u.target`,
      [
        id,
        status,
        updates.map((u) => u.target),
        updates.map((u) => u.state),
        updates.map((u) => u.attempts),
        updates.map((u) => u.next_attempt_at),
        updates.map((u) => clipError(u.last_error)),
        updates.map((u) => u.delivered_at),
        updates.map(failedAttemptAt),
      ],
    );
  }

  async releaseIdempotencyKey(id: string): Promise<boolean> {
    const result = await this.#pool.query(
      `UPDATE leads SET idempotency_key = NULL WHERE id = $1 AND status = 'not_accepted'`,
      [id],
    );
    return result.rowCount === 1;
  }

  async claimDueDeliveries(options: {
    owner: string;
    now: string;
    leaseUntil: string;
    limit: number;
    targets: readonly string[];
  }): Promise<ClaimedDelivery[]> {
    // One statement: choose due rows, skipping rows another worker has
    // locked, and lease them. A row leased by a committed claim fails the
    // lease condition on re-check, so it is never handed out twice.
    const result = await this.#pool.query(
      `WITH due AS (
         SELECT d.lead_id, d.target
         FROM lead_deliveries d JOIN leads l ON l.id = d.lead_id
         WHERE d.state = 'pending' AND l.status = 'accepted'
           AND d.next_attempt_at <= $3::timestamptz
           AND (d.lease_expires_at IS NULL OR d.lease_expires_at <= $3::timestamptz)
           AND d.target = ANY($5::text[])
         ORDER BY d.next_attempt_at
         LIMIT $4
         FOR UPDATE OF d SKIP LOCKED
       ), claimed AS (
         UPDATE lead_deliveries d
         SET lease_owner = $1, lease_expires_at = $2::timestamptz
         FROM due
         WHERE d.lead_id = due.lead_id AND d.target = due.target
         RETURNING d.*
       )
       SELECT c.lead_id, c.target, c.label, c.state, c.attempts, c.next_attempt_at, c.last_error,
              c.delivered_at, c.lease_owner, c.lease_expires_at,
              l.id AS l_id, l.name AS l_name, l.email AS l_email, l.phone AS l_phone,
              l.service AS l_service, l.message AS l_message, l.created_at AS l_created_at,
              l.source AS l_source, l.status AS l_status, l.idempotency_key AS l_idempotency_key,
              l.urgent AS l_urgent, l.attribution AS l_attribution
       FROM claimed c JOIN leads l ON l.id = c.lead_id
       ORDER BY c.next_attempt_at`,
      [options.owner, options.leaseUntil, options.now, options.limit, options.targets],
    );
    return (result.rows as Row[]).map((row) => ({
      ...toDelivery(row),
      lease_owner: options.owner,
      lease_expires_at: options.leaseUntil,
      lead: toLead(row, 'l_'),
    }));
  }

  async recordDelivery(leadId: string, owner: string, update: DeliveryUpdate): Promise<boolean> {
    const result = await this.#pool.query(
      `UPDATE lead_deliveries
       SET state = $4, attempts = $5, next_attempt_at = $6::timestamptz, last_error = $7,
           delivered_at = $8::timestamptz,
           first_failed_at = coalesce(first_failed_at, $9::timestamptz),
           lease_owner = NULL, lease_expires_at = NULL
       WHERE lead_id = $1 AND target = $2 AND lease_owner = $3`,
      [
        leadId,
        update.target,
        owner,
        update.state,
        update.attempts,
        update.next_attempt_at,
        clipError(update.last_error),
        update.delivered_at,
        failedAttemptAt(update),
      ],
    );
    return result.rowCount === 1;
  }

  async retryDelivery(leadId: string, target: string, at: string): Promise<boolean> {
    if (!UUID.test(leadId)) return false;
    const result = await this.#pool.query(
      `UPDATE lead_deliveries
       SET state = 'pending', next_attempt_at = $3::timestamptz, lease_owner = NULL,
           lease_expires_at = NULL
       WHERE lead_id = $1 AND target = $2 AND state = 'failed'
         AND lead_id IN (SELECT id FROM leads WHERE status = 'accepted')`,
      [leadId, target, at],
    );
    return result.rowCount === 1;
  }

  async cancelDeliveriesExcept(targets: readonly string[]): Promise<CancelledDelivery[]> {
    const result = await this.#pool.query<{ lead_id: string; target: string; label: string }>(
      `UPDATE lead_deliveries
       SET state = 'cancelled', next_attempt_at = NULL, lease_owner = NULL, lease_expires_at = NULL
       WHERE state = 'pending' AND NOT (target = ANY($1::text[]))
         AND lead_id IN (SELECT id FROM leads WHERE status = 'accepted')
       RETURNING lead_id, target, label`,
      [targets],
    );
    return result.rows.map((row) => ({
      lead_id: String(row.lead_id),
      target: row.target,
      label: row.label,
    }));
  }

  async expireReceived(olderThan: string): Promise<number> {
    const result = await this.#pool.query<{ n: number }>(
      `WITH stale AS (
         UPDATE leads SET status = 'not_accepted'
         WHERE status = 'received' AND created_at < $1::timestamptz
         RETURNING id
       ), deliveries AS (
         UPDATE lead_deliveries
         SET state = 'not_sent', next_attempt_at = NULL, lease_owner = NULL, lease_expires_at = NULL
         WHERE lead_id IN (SELECT id FROM stale) AND state = 'pending'
       )
       SELECT count(*)::int AS n FROM stale`,
      [olderThan],
    );
    return result.rows[0]?.n ?? 0;
  }

  async listLeads(options: { limit?: number } = {}): Promise<LeadWithDeliveries[]> {
    const limit = Math.max(1, Math.min(options.limit ?? 50, 10_000));
    const result = await this.#pool.query(
      `SELECT ${STORED_LEAD_COLUMNS} FROM leads ORDER BY created_at DESC, id DESC LIMIT $1`,
      [limit],
    );
    const leads = (result.rows as Row[]).map(toStoredLead);
    return await this.#withDetails(leads);
  }

  async exportLeads(): Promise<LeadWithDeliveries[]> {
    const result = await this.#pool.query(
      `SELECT ${STORED_LEAD_COLUMNS} FROM leads ORDER BY created_at, id`,
    );
    const leads = (result.rows as Row[]).map(toStoredLead);
    return await this.#withDetails(leads);
  }

  async findLeadsByEmail(email: string): Promise<LeadWithDeliveries[]> {
    const result = await this.#pool.query(
      `SELECT ${STORED_LEAD_COLUMNS} FROM leads WHERE email = $1 ORDER BY created_at, id`,
      [email.trim().toLowerCase()],
    );
    const leads = (result.rows as Row[]).map(toStoredLead);
    return await this.#withDetails(leads);
  }

  async deleteLeads(ids: readonly string[]): Promise<number> {
    const valid = ids.filter((id) => UUID.test(id));
    if (valid.length === 0) return 0;
    // One statement: the leads and (ON DELETE CASCADE) their deliveries together.
    const result = await this.#pool.query('DELETE FROM leads WHERE id = ANY($1::uuid[])', [valid]);
    return result.rowCount ?? 0;
  }

  async purgeCreatedBefore(cutoff: string): Promise<number> {
    const result = await this.#pool.query('DELETE FROM leads WHERE created_at < $1::timestamptz', [
      cutoff,
    ]);
    return result.rowCount ?? 0;
  }

  async purgeSpamBefore(cutoff: string): Promise<number> {
    const result = await this.#pool.query(
      `DELETE FROM leads WHERE status = 'spam' AND spam_at < $1::timestamptz`,
      [cutoff],
    );
    return result.rowCount ?? 0;
  }

  // -------------------------------------------------------------------------
  // Spam

  async hasMessageSince(messageKey: string, since: string): Promise<boolean> {
    const result = await this.#pool.query(
      `SELECT 1 FROM leads WHERE message_key = $1 AND created_at >= $2::timestamptz
         AND status <> 'not_accepted' LIMIT 1`,
      [messageKey, since],
    );
    return result.rows.length > 0;
  }

  async countSpamLeads(): Promise<number> {
    const result = await this.#pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM leads WHERE stage = 'spam'`,
    );
    return result.rows[0]?.n ?? 0;
  }

  async markSpam(id: string, at: string, reason: SpamReason): Promise<number | null> {
    if (!UUID.test(id)) return null;
    // One statement: the lead and its pending deliveries together.
    const result = await this.#pool.query<{ cancelled: number }>(
      `WITH lead AS (
         UPDATE leads SET status = 'spam', stage = 'spam', spam_reason = $2,
           spam_at = $3::timestamptz, stage_changed_at = $3::timestamptz, revision = revision + 1
         WHERE id = $1 AND status <> 'spam'
         RETURNING id
       ), cancelled AS (
         UPDATE lead_deliveries SET state = 'cancelled', next_attempt_at = NULL,
           lease_owner = NULL, lease_expires_at = NULL
         WHERE lead_id IN (SELECT id FROM lead) AND state = 'pending'
         RETURNING 1
       )
       SELECT (SELECT count(*)::int FROM lead) AS marked,
         (SELECT count(*)::int FROM cancelled) AS cancelled`,
      [id, reason, at],
    );
    const row = result.rows[0] as Row | undefined;
    return Number(row?.marked) === 1 ? Number(row?.cancelled) : null;
  }

  async rescueLead(
    id: string,
    deliveries: readonly NewDelivery[],
    options: { escalateNotBefore?: string; at?: string } = {},
  ): Promise<boolean> {
    if (!UUID.test(id)) return false;
    const at = options.at ?? new Date().toISOString();
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      const rescued = await client.query(
        `UPDATE leads SET status = 'accepted', stage = 'new', spam_reason = NULL,
           spam_at = NULL, revision = revision + 1, stage_changed_at = $3::timestamptz,
           escalation_claimed_until = COALESCE($2::timestamptz, escalation_claimed_until)
         WHERE id = $1 AND status = 'spam'`,
        [id, options.escalateNotBefore ?? null, at],
      );
      if (rescued.rowCount !== 1) {
        await client.query('ROLLBACK');
        return false;
      }
      await client.query('DELETE FROM lead_deliveries WHERE lead_id = $1', [id]);
      await client.query(
        `INSERT INTO lead_deliveries
           (lead_id, target, label, state, attempts, next_attempt_at, position)
         SELECT $1, u.target, u.label, u.state, 0, u.next_attempt_at, u.position
         FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::int[])
           AS u (target, label, state, next_attempt_at, position)`,
        [
          id,
          deliveries.map((d) => d.target),
          deliveries.map((d) => d.label),
          deliveries.map((d) => d.state),
          deliveries.map((d) => d.next_attempt_at),
          deliveries.map((_, position) => position),
        ],
      );
      await client.query('COMMIT');
      return true;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
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
    if (!UUID.test(id)) return { saved: false, reason: 'not_found' };
    // The revision is checked on the row as it is when the update gets its
    // lock: of two saves on one revision, the second finds it changed.
    const saved = await this.#pool.query(
      `UPDATE leads SET stage = coalesce($3, stage), note = coalesce($4, note),
         job_value_cents = CASE WHEN coalesce($3, stage) = 'won'
           THEN CASE WHEN $5::int = 1 THEN $6::int ELSE job_value_cents END END,
         revision = revision + 1, stage_changed_at = CASE WHEN $3 <> stage
           THEN $7::timestamptz ELSE stage_changed_at END
       WHERE id = $1 AND revision = $2
       RETURNING stage, note, revision`,
      [id, expectedRevision, ...trackingValues(changes), at],
    );
    const row = saved.rows[0] as Row | undefined;
    if (row) return { saved: true, tracking: toTracking(row) };
    const current = await this.#pool.query(
      'SELECT stage, note, revision FROM leads WHERE id = $1',
      [id],
    );
    const now = current.rows[0] as Row | undefined;
    return now
      ? { saved: false, reason: 'conflict', current: toTracking(now) }
      : { saved: false, reason: 'not_found' };
  }

  async searchLeads(search: LeadSearch = {}): Promise<LeadSearchResult> {
    const limit = Math.max(1, Math.min(search.limit ?? LEAD_PAGE_SIZE, 200));
    const offset = Math.max(0, Math.floor(search.offset ?? 0));
    const { text, digits } = searchTerms(search.query);
    // strpos(), not LIKE or a regular expression: the search text is matched as it is.
    // No stage: every stage but spam (docs/operations.md#spam).
    const filter = `WHERE coalesce(stage = $1, stage <> 'spam')
      AND ($2::text IS NULL
        OR strpos(lower(name), $2) > 0 OR strpos(lower(email), $2) > 0
        OR strpos(lower(phone), $2) > 0
        OR ($3::text IS NOT NULL AND strpos(regexp_replace(phone, '[^0-9]', '', 'g'), $3) > 0))`;
    const values = [search.stage ?? null, text, digits];
    const [count, page] = await Promise.all([
      this.#pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM leads ${filter}`, values),
      this.#pool.query(
        `SELECT ${STORED_LEAD_COLUMNS} FROM leads ${filter}
         ORDER BY ${INBOX_ORDER}, id DESC LIMIT $4 OFFSET $5`,
        [...values, limit, offset],
      ),
    ]);
    const leads = (page.rows as Row[]).map(toStoredLead);
    return {
      leads: await this.#withDetails(leads),
      total: count.rows[0]?.n ?? 0,
    };
  }

  async markLeadSeen(id: string, at: string): Promise<boolean> {
    if (!UUID.test(id)) return false;
    // The row's lock decides two first openings at once: the second finds it seen.
    const result = await this.#pool.query(
      'UPDATE leads SET seen_at = $2::timestamptz WHERE id = $1 AND seen_at IS NULL',
      [id, at],
    );
    return result.rowCount === 1;
  }

  async markLeadsSeen(upTo: string, at: string): Promise<number> {
    const result = await this.#pool.query(
      `UPDATE leads SET seen_at = $2::timestamptz
       WHERE seen_at IS NULL AND created_at <= $1::timestamptz`,
      [upTo, at],
    );
    return result.rowCount ?? 0;
  }

  async countUnseenLeads(): Promise<number> {
    const result = await this.#pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM leads WHERE seen_at IS NULL AND stage <> 'spam'`,
    );
    return result.rows[0]?.n ?? 0;
  }

  async countFailedDeliveries(): Promise<number> {
    const result = await this.#pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM lead_deliveries WHERE state = 'failed'`,
    );
    return result.rows[0]?.n ?? 0;
  }

  // -------------------------------------------------------------------------
  // "I'm on it", escalation and the e-mail outage alert

  async acknowledgeLead(id: string, by: string, at: string): Promise<AcknowledgeResult | null> {
    if (!UUID.test(id)) return null;
    const kept = await this.#pool.query(
      `UPDATE leads SET acknowledged_at = $3::timestamptz, acknowledged_by = $2
       WHERE id = $1 AND acknowledged_at IS NULL
       RETURNING acknowledged_at, acknowledged_by`,
      [id, by, at],
    );
    // A second statement, so its snapshot sees the acknowledgement that won.
    const row = (kept.rows[0] ??
      (
        await this.#pool.query('SELECT acknowledged_at, acknowledged_by FROM leads WHERE id = $1', [
          id,
        ])
      ).rows[0]) as Row | undefined;
    if (!row) return null;
    return {
      first: kept.rowCount === 1,
      acknowledged_at: iso(row.acknowledged_at) ?? '',
      acknowledged_by: String(row.acknowledged_by),
    };
  }

  async claimEscalations(options: {
    dueBefore: string;
    now: string;
    leaseUntil: string;
    limit: number;
  }): Promise<LeadRecord[]> {
    // One statement: rows another worker (or an acknowledgement) has locked
    // are skipped, and a locked row's conditions are checked again on its
    // newest version, so an acknowledged lead is never claimed.
    const result = await this.#pool.query(
      `WITH due AS (
         SELECT id FROM leads
         WHERE urgent AND escalated_at IS NULL AND acknowledged_at IS NULL
           AND created_at <= $1::timestamptz AND status = 'accepted' AND stage = 'new'
           AND (escalation_claimed_until IS NULL OR escalation_claimed_until <= $2::timestamptz)
         ORDER BY created_at
         LIMIT $4
         FOR UPDATE SKIP LOCKED
       )
       UPDATE leads l SET escalation_claimed_until = $3::timestamptz
       FROM due WHERE l.id = due.id
       RETURNING ${LEAD_COLUMNS.split(', ')
         .map((column) => `l.${column}`)
         .join(', ')}`,
      [options.dueBefore, options.now, options.leaseUntil, options.limit],
    );
    return (result.rows as Row[])
      .map((row) => toLead(row))
      .sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  async finishEscalation(id: string, at: string): Promise<void> {
    if (!UUID.test(id)) return;
    await this.#pool.query(
      `UPDATE leads SET escalated_at = $2::timestamptz, escalation_claimed_until = NULL
       WHERE id = $1 AND escalated_at IS NULL`,
      [id, at],
    );
  }

  async checkTargetOutage(
    target: string,
    failingSince: string,
    at: string,
  ): Promise<{ outage: boolean; alert: boolean }> {
    const name = outageAlertName(target);
    /*
     * The latest first failure at or before `failingSince` of a delivery
     * to the target still pending or failed; an outage when nothing was
     * delivered to it after that failure (nor, then, after any earlier one).
     */
    const look = (client: Pick<pg.Pool, 'query'>) =>
      client.query<{ outage: boolean; marked: boolean }>(
        `WITH latest AS (
           SELECT max(first_failed_at) AS at FROM lead_deliveries
           WHERE target = $1 AND state IN ('pending', 'failed') AND first_failed_at IS NOT NULL
             AND first_failed_at <= $2::timestamptz
         )
         SELECT latest.at IS NOT NULL AND NOT EXISTS (
                  SELECT 1 FROM lead_deliveries
                  WHERE target = $1 AND state = 'delivered' AND delivered_at > latest.at
                ) AS outage,
                EXISTS (SELECT 1 FROM lead_alerts WHERE name = $3) AS marked
         FROM latest`,
        [target, failingSince, name],
      );
    const first = (await look(this.#pool)).rows[0];
    const outage = first?.outage === true;
    // Nothing to change (the usual case): nothing is written.
    if (outage === (first?.marked === true)) return { outage, alert: false };
    // Looked at again under a lock of its own: of several processes
    // finding the outage at once, one marks it.
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('lead-alerts:' || $1))`, [name]);
      const now = (await look(client)).rows[0]?.outage === true;
      let alert = false;
      if (now) {
        const inserted = await client.query(
          'INSERT INTO lead_alerts (name, at) VALUES ($1, $2::timestamptz) ON CONFLICT DO NOTHING',
          [name, at],
        );
        alert = inserted.rowCount === 1;
      } else {
        await client.query('DELETE FROM lead_alerts WHERE name = $1', [name]);
      }
      await client.query('COMMIT');
      return { outage: now, alert };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}

import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { UUID, type Row } from '../postgres-values.server.ts';
import type {
  NewReview,
  NewReviewRequest,
  ReviewDecisionInput,
  ReviewRequestLookup,
  ReviewRequestRecord,
  ReviewStore,
  SentReviewRecord,
} from './reviews.server.ts';
import { reviewLookup, toReviewRequest, REVIEW_COLUMNS } from './review-rows.server.ts';

/** The PostgreSQL half of the review requests and the reviews they brought (reviews.server.ts). */
export class PostgresReviewStore implements ReviewStore {
  readonly #pool: pg.Pool;

  constructor(db: pg.Pool) {
    this.#pool = db;
  }

  async createReviewRequest(
    request: NewReviewRequest,
    options: { onlyIfFirst?: boolean } = {},
  ): Promise<ReviewRequestRecord | null> {
    if (!UUID.test(request.lead_id)) return null;
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      // Requests to one address take turns, so a first one sees any other's
      // committed row (READ COMMITTED alone would let two both see none).
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('review-request:' || $1))`, [
        request.email,
      ]);
      const result = await client.query(
        `INSERT INTO review_requests
           (id, lead_id, email, token_hash, created_at, expires_at, sent_by)
         SELECT $1, id, $2, $3, $4::timestamptz, $5::timestamptz, $6 FROM leads WHERE id = $7
           AND (NOT $8 OR NOT EXISTS (SELECT 1 FROM review_requests WHERE email = $2))
         RETURNING ${REVIEW_COLUMNS}`,
        [
          randomUUID(),
          request.email,
          request.token_hash,
          request.created_at,
          request.expires_at,
          request.sent_by,
          request.lead_id,
          options.onlyIfFirst === true,
        ],
      );
      await client.query('COMMIT');
      const row = result.rows[0] as Row | undefined;
      return row ? toReviewRequest(row) : null;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async #one(where: string, value: string): Promise<ReviewRequestRecord | null> {
    const result = await this.#pool.query(
      `SELECT ${REVIEW_COLUMNS} FROM review_requests WHERE ${where}
       ORDER BY created_at DESC, id DESC LIMIT 1`,
      [value],
    );
    const row = result.rows[0] as Row | undefined;
    return row ? toReviewRequest(row) : null;
  }

  latestReviewRequestForEmail(email: string): Promise<ReviewRequestRecord | null> {
    return this.#one('email = $1', email);
  }

  async latestReviewRequestForLead(leadId: string): Promise<ReviewRequestRecord | null> {
    return UUID.test(leadId) ? this.#one('lead_id = $1', leadId) : null;
  }

  async getReviewRequest(id: string): Promise<ReviewRequestRecord | null> {
    return UUID.test(id) ? this.#one('id = $1', id) : null;
  }

  async listReviewRequestsForLead(leadId: string): Promise<ReviewRequestRecord[]> {
    if (!UUID.test(leadId)) return [];
    const result = await this.#pool.query(
      `SELECT ${REVIEW_COLUMNS} FROM review_requests WHERE lead_id = $1
       ORDER BY created_at, id`,
      [leadId],
    );
    return (result.rows as Row[]).map(toReviewRequest);
  }

  async findReviewRequest(
    tokenHash: string,
    at = new Date().toISOString(),
  ): Promise<ReviewRequestLookup> {
    return reviewLookup(await this.#one('token_hash = $1', tokenHash), at);
  }

  async submitReview(
    tokenHash: string,
    review: NewReview,
    at: string,
  ): Promise<SentReviewRecord | null> {
    // Of two sends at once, the second waits for the first's row lock, then
    // finds used_at set and changes nothing.
    const result = await this.#pool.query(
      `UPDATE review_requests SET used_at = $1::timestamptz, rating = $2, review_text = $3,
         display_name = $4, suburb = $5, consent_at = $6::timestamptz, decision = 'waiting'
       WHERE token_hash = $7 AND used_at IS NULL AND expires_at > $1::timestamptz
       RETURNING ${REVIEW_COLUMNS}`,
      [
        at,
        review.rating,
        review.text,
        review.display_name,
        review.suburb,
        review.consent_at,
        tokenHash,
      ],
    );
    const row = result.rows[0] as Row | undefined;
    return row ? (toReviewRequest(row) as SentReviewRecord) : null;
  }

  async listWaitingReviews(): Promise<SentReviewRecord[]> {
    const result = await this.#pool.query(
      `SELECT ${REVIEW_COLUMNS} FROM review_requests WHERE decision = 'waiting'
       ORDER BY used_at, id`,
    );
    return (result.rows as Row[]).map((row) => toReviewRequest(row) as SentReviewRecord);
  }

  async decideReview(
    id: string,
    decision: ReviewDecisionInput,
    by: string,
    at: string,
  ): Promise<boolean> {
    if (!UUID.test(id)) return false;
    const result = await this.#pool.query(
      `UPDATE review_requests SET decision = $1, decided_at = $2::timestamptz, decided_by = $3,
         decline_reason = $4, testimonial_id = $5
       WHERE id = $6 AND decision = 'waiting'`,
      [
        decision.decision,
        at,
        by,
        decision.decision === 'declined' ? decision.reason : null,
        decision.decision === 'published' ? decision.testimonial_id : null,
        id,
      ],
    );
    return result.rowCount === 1;
  }
}

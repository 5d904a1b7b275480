import { randomUUID } from 'node:crypto';
import type { SqliteConnection } from '../sqlite-connection.server.ts';
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

/** The SQLite half of the review requests and the reviews they brought (reviews.server.ts). */
export class SqliteReviewStore implements ReviewStore {
  readonly #db: SqliteConnection;

  constructor(db: SqliteConnection) {
    this.#db = db;
  }

  async createReviewRequest(
    request: NewReviewRequest,
    options: { onlyIfFirst?: boolean } = {},
  ): Promise<ReviewRequestRecord | null> {
    // One statement under the write lock: a first request sees any other's.
    const row = await this.#db.attempt('write', () =>
      this.#db
        .statement(
          `INSERT INTO review_requests
             (id, lead_id, email, token_hash, created_at, expires_at, sent_by)
           SELECT ?, id, ?, ?, ?, ?, ? FROM leads WHERE id = ?
             AND (? = 0 OR NOT EXISTS (SELECT 1 FROM review_requests WHERE email = ?))
           RETURNING ${REVIEW_COLUMNS}`,
        )
        .get(
          randomUUID(),
          request.email,
          request.token_hash,
          request.created_at,
          request.expires_at,
          request.sent_by,
          request.lead_id,
          options.onlyIfFirst === true ? 1 : 0,
          request.email,
        ),
    );
    return row ? toReviewRequest(row) : null;
  }

  async #one(where: string, ...values: string[]): Promise<ReviewRequestRecord | null> {
    const row = await this.#db.attempt('read', () =>
      this.#db
        .statement(
          `SELECT ${REVIEW_COLUMNS} FROM review_requests WHERE ${where}
           ORDER BY created_at DESC, id DESC LIMIT 1`,
        )
        .get(...values),
    );
    return row ? toReviewRequest(row) : null;
  }

  latestReviewRequestForEmail(email: string): Promise<ReviewRequestRecord | null> {
    return this.#one('email = ?', email);
  }

  latestReviewRequestForLead(leadId: string): Promise<ReviewRequestRecord | null> {
    return this.#one('lead_id = ?', leadId);
  }

  getReviewRequest(id: string): Promise<ReviewRequestRecord | null> {
    return this.#one('id = ?', id);
  }

  async listReviewRequestsForLead(leadId: string): Promise<ReviewRequestRecord[]> {
    return this.#db.attempt('read', () =>
      this.#db
        .statement(
          `SELECT ${REVIEW_COLUMNS} FROM review_requests WHERE lead_id = ?
           ORDER BY created_at, id`,
        )
        .all(leadId)
        .map(toReviewRequest),
    );
  }

  async findReviewRequest(
    tokenHash: string,
    at = new Date().toISOString(),
  ): Promise<ReviewRequestLookup> {
    return reviewLookup(await this.#one('token_hash = ?', tokenHash), at);
  }

  async submitReview(
    tokenHash: string,
    review: NewReview,
    at: string,
  ): Promise<SentReviewRecord | null> {
    // One statement under the write lock: the first send uses the link up.
    const row = await this.#db.attempt('write', () =>
      this.#db
        .statement(
          `UPDATE review_requests SET used_at = ?, rating = ?, review_text = ?,
             display_name = ?, suburb = ?, consent_at = ?, decision = 'waiting'
           WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?
           RETURNING ${REVIEW_COLUMNS}`,
        )
        .get(
          at,
          review.rating,
          review.text,
          review.display_name,
          review.suburb,
          review.consent_at,
          tokenHash,
          at,
        ),
    );
    return row ? (toReviewRequest(row) as SentReviewRecord) : null;
  }

  async listWaitingReviews(): Promise<SentReviewRecord[]> {
    return this.#db.attempt('read', () =>
      this.#db
        .statement(
          `SELECT ${REVIEW_COLUMNS} FROM review_requests WHERE decision = 'waiting'
           ORDER BY used_at, id`,
        )
        .all()
        .map((row) => toReviewRequest(row) as SentReviewRecord),
    );
  }

  async decideReview(
    id: string,
    decision: ReviewDecisionInput,
    by: string,
    at: string,
  ): Promise<boolean> {
    const result = await this.#db.attempt('write', () =>
      this.#db
        .statement(
          `UPDATE review_requests SET decision = ?, decided_at = ?, decided_by = ?,
             decline_reason = ?, testimonial_id = ?
           WHERE id = ? AND decision = 'waiting'`,
        )
        .run(
          decision.decision,
          at,
          by,
          decision.decision === 'declined' ? decision.reason : null,
          decision.decision === 'published' ? decision.testimonial_id : null,
          id,
        ),
    );
    return Number(result.changes) === 1;
  }
}

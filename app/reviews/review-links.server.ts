import { randomBytes } from 'node:crypto';
import { isSecret, secretHash } from '../owner/sessions.server.ts';

/**
 * A customer's personal review link (docs/operations.md, "Reviews"):
 * `SITE_URL/review/TOKEN`, the token 32 random bytes as base64url, like the
 * owners' one-time links. The store keeps its SHA-256 only, so the links
 * cannot be made again from a copy of the store.
 */

export const REVIEW_PATH = '/review/';

export function newReviewToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the store keeps of a review link's token. */
export const reviewTokenHash = secretHash;

/** Whether a path's last part can be a review token at all (nothing else is hashed or looked up). */
export const isReviewToken = isSecret;

export function reviewUrl(siteUrl: string | URL, token: string): string {
  return new URL(`${REVIEW_PATH}${token}`, siteUrl).toString();
}

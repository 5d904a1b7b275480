/**
 * How long leads are kept (LEAD_RETENTION_DAYS, docs/operations.md#environment): the privacy policy
 * states it and the server purges older leads daily. Browser-safe, so the
 * privacy page and the server read the same default.
 */
export const DEFAULT_LEAD_RETENTION_DAYS = 730;

/**
 * How long a spam lead is kept (docs/operations.md#spam): 30 days from when
 * it was caught or moved to spam, so the owner can still rescue one, then
 * deleted with the daily purge. Browser-safe: the privacy page states it.
 */
export const SPAM_RETENTION_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Leads created before this instant are past their retention (ISO 8601). */
export function retentionCutoff(days: number, nowMs: number): string {
  return new Date(nowMs - days * DAY_MS).toISOString();
}

/**
 * How long leads are kept (LEAD_RETENTION_DAYS, docs/operations.md#environment): the privacy policy
 * states it and the server purges older leads daily. Browser-safe, so the
 * privacy page and the server read the same default.
 */
export const DEFAULT_LEAD_RETENTION_DAYS = 730;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Leads created before this instant are past their retention (ISO 8601). */
export function retentionCutoff(days: number, nowMs: number): string {
  return new Date(nowMs - days * DAY_MS).toISOString();
}

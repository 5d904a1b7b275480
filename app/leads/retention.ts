/**
 * How long leads are kept (CONTRACT LEAD_RETENTION_DAYS): the privacy policy
 * states it and the server purges older leads daily. Browser-safe, so the
 * privacy page and the server read the same default.
 */
export const DEFAULT_LEAD_RETENTION_DAYS = 730;

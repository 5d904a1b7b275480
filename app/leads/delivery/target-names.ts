/*
 * How delivery targets are named, with no import: the store's migrations
 * (app/db) name old webhook rows with it without importing delivery code.
 */

/**
 * A webhook is named by its position in LEAD_WEBHOOK_URLS alone (`position`
 * counts from 0): never by its address or host, which may carry a token (a
 * sub-domain per user is common with automation services). Its delivery rows
 * are stored under the position too, so when the address at a position
 * changes, the deliveries still pending follow the new address.
 */
export function webhookTargetKey(position: number): string {
  return `webhook:${position + 1}`;
}

/** 'webhook 2': how people see the webhook at that position (from 0) in logs, lists and e-mails. */
export function webhookLabel(position: number): string {
  return `webhook ${position + 1}`;
}

import {
  ATTRIBUTION_FIELDS,
  NO_ATTRIBUTION,
  type LeadAttribution,
} from '../../leads/intake/attribution.ts';

/*
 * Where a lead came from (docs/operations.md#where-enquiries-come-from), as
 * both stores keep it: one JSON column, `attribution`, of the eight fields
 * (TEXT in SQLite, jsonb in PostgreSQL). The fields are written once with
 * the lead and always read together; the column is null when nothing is
 * known (every field null, as for a lead stored before it was kept).
 */

/** The column's value for a lead: its fields as JSON, or null when none is known. */
export function attributionColumn(attribution: LeadAttribution | undefined): string | null {
  if (!attribution || ATTRIBUTION_FIELDS.every((field) => attribution[field] === null)) {
    return null;
  }
  const kept: Record<string, string | null> = {};
  for (const field of ATTRIBUTION_FIELDS) kept[field] = attribution[field] ?? null;
  return JSON.stringify(kept);
}

/**
 * A lead's attribution from its column: SQLite's JSON text or PostgreSQL's
 * parsed jsonb; every field null when the column is, and any field that is
 * not text.
 */
export function readAttribution(value: unknown): LeadAttribution {
  if (value === null || value === undefined) return { ...NO_ATTRIBUTION };
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  const record =
    typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  const attribution = { ...NO_ATTRIBUTION };
  for (const field of ATTRIBUTION_FIELDS) {
    const fieldValue = record[field];
    attribution[field] = typeof fieldValue === 'string' ? fieldValue : null;
  }
  return attribution;
}

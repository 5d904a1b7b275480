/** A row as pg gives it. */
export type Row = Record<string, unknown>;

/** A timestamp column as ISO 8601 text in UTC (the store's interface), or null. */
export const iso = (value: unknown): string | null => {
  if (value === null || value === undefined) return null;
  return value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();
};

export const textOrNull = (value: unknown) =>
  value === null || value === undefined ? null : String(value);

/** A uuid column's text: anything else is refused before it reaches PostgreSQL (which would throw). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

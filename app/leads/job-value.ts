import { JOB_VALUE_MAX_CENTS } from '../db/leads/leads.server.ts';

/*
 * The value of a won job (docs/operations.md#reports): what the owner types
 * beside the stage "Won", read into whole cents of NZ dollars, and shown
 * back in dollars.
 */

/** More than anyone types for a value: longer input is refused unread. */
const TYPED_MAX = 40;

/**
 * "1250", "1,250", "$1,250.50", "NZ$ 980.05": an optional `NZ$` or `$`,
 * dollars with or without commas between thousands, then one or two
 * digits of cents. Every part is fixed by the character that ends it, so
 * it runs in time linear in the input.
 */
const TYPED_VALUE = /^(?:nz)?\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/i;

export const JOB_VALUE_MESSAGE = "Type the job's value in dollars, like 1250 or $1,250.50.";

const dollars = new Intl.NumberFormat('en-NZ', { style: 'currency', currency: 'NZD' });
const wholeDollars = new Intl.NumberFormat('en-NZ', {
  style: 'currency',
  currency: 'NZD',
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});

export type ParsedJobValue = { ok: true; cents: number | null } | { ok: false; message: string };

/** The typed value in cents; null for an empty field. */
export function parseJobValue(typed: string): ParsedJobValue {
  const text = typed.trim();
  if (text === '') return { ok: true, cents: null };
  const match = text.length <= TYPED_MAX ? TYPED_VALUE.exec(text) : null;
  if (!match) return { ok: false, message: JOB_VALUE_MESSAGE };
  const whole = Number((match[1] ?? '').replaceAll(',', ''));
  const cents = whole * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(cents) || cents > JOB_VALUE_MAX_CENTS) {
    return {
      ok: false,
      message: `A job value is at most ${wholeDollars.format(JOB_VALUE_MAX_CENTS / 100)}.`,
    };
  }
  return { ok: true, cents };
}

/** '$1,250.50', '$1,250' for whole dollars: as the lead's page shows it. */
export function jobValueWords(cents: number): string {
  return (cents % 100 === 0 ? wholeDollars : dollars).format(cents / 100);
}

/** '1250.50', '1250': the value as the field shows it again; empty for none. */
export function jobValueField(cents: number | null): string {
  if (cents === null) return '';
  const whole = Math.floor(cents / 100);
  return cents % 100 === 0 ? String(whole) : `${whole}.${String(cents % 100).padStart(2, '0')}`;
}

/** '1250.00': the value as the exports write it (dollars, two decimals); null for none. */
export function jobValueDecimal(cents: number | null): string | null {
  if (cents === null) return null;
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

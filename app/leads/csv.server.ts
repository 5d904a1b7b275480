import { TERMINAL_CONTROLS } from './person-data.server.ts';

/**
 * One cell of a CSV file safe to open in a spreadsheet (the leads' export,
 * the won jobs for Google Ads): a cell starting with = + - @ tab or CR is
 * run as a formula by Excel and friends, so a leading ' makes it text.
 */
export function csvCell(value: string | number | null): string {
  // A CSV cannot escape them: shown as '?', as `leads list` does.
  let text = value === null ? '' : String(value).replace(TERMINAL_CONTROLS, '?');
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  // RFC 4180: quote fields with commas, quotes or line breaks; double the quotes.
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

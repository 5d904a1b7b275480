/** Dates of the review requests as New Zealanders write them, in New Zealand time. */

const dayMonth = new Intl.DateTimeFormat('en-NZ', {
  timeZone: 'Pacific/Auckland',
  day: 'numeric',
  month: 'long',
});

const dayMonthYear = new Intl.DateTimeFormat('en-NZ', {
  timeZone: 'Pacific/Auckland',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

/** '3 December' (this year), or '3 December 2025' (another year), for the owner's page. */
export function askedOn(iso: string, now = new Date()): string {
  const date = new Date(iso);
  const year = (d: Date) =>
    new Intl.DateTimeFormat('en-NZ', { timeZone: 'Pacific/Auckland', year: 'numeric' }).format(d);
  return year(date) === year(now) ? dayMonth.format(date) : dayMonthYear.format(date);
}

/** '3 January 2027', for the customer's e-mail. */
export function nzLongDate(iso: string): string {
  return dayMonthYear.format(new Date(iso));
}

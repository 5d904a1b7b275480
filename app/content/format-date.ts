/**
 * An ISO date ('2026-11-01') as New Zealanders write it ('1 November 2026').
 * Call it where a page gathers its data (at build time or on the server), and
 * pass the text to components, so an island hydrates with the same text.
 */
export function formatLongDateNz(isoDate: string): string {
  return new Date(`${isoDate}T00:00:00Z`).toLocaleDateString('en-NZ', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/**
 * An ISO date ('2026-11-01') as New Zealanders write it ('1 November 2026').
 * Call it in a loader, so the server's text is the one the page hydrates with.
 */
export function formatLongDateNz(isoDate: string): string {
  return new Date(`${isoDate}T00:00:00Z`).toLocaleDateString('en-NZ', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/**
 * An owner as the owner's pages name them (the activity list, "Kasey is on
 * it"): a name made from their e-mail address's local part, since the
 * owners' list keeps only the address.
 */
export function ownerName(email: string): string {
  const local = email.split('@')[0] ?? '';
  const words = local
    .split(/[._+-]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return words.length > 0 ? words.join(' ') : 'An owner';
}

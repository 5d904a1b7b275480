/**
 * The activity list's actions for owners themselves: signing in and out,
 * passkeys, and the owners `npm run owner` adds and removes. Their words are
 * in activity-words.server.ts.
 */
export const OWNER_ACTIVITY = {
  signedIn: 'owner.signed-in',
  signedOut: 'owner.signed-out',
  passkeyAdded: 'passkey.added',
  added: 'owner.added',
  setupLink: 'owner.setup-link',
  removed: 'owner.removed',
} as const;

/** A passkey's device as deviceName (passkeys.server.ts) names it, as a detail keeps it: `iphone`. */
export function deviceSlug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

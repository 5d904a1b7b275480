import { useSyncExternalStore } from 'react';

const subscribeToNothing = () => () => undefined;
const isClient = () => true;

/**
 * `serverValue` on the server and while React hydrates a prerendered page,
 * then `clientValue()` (read again on every render, so it must return the
 * same value while nothing changed). What depends on it hydrates exactly as
 * the HTML was rendered and changes right after, with no hydration mismatch.
 */
export function useAfterHydration<T>(clientValue: () => T, serverValue: T): T {
  return useSyncExternalStore(subscribeToNothing, clientValue, () => serverValue);
}

/** False on the server and during hydration, true once the page runs with JavaScript. */
export function useHydrated(): boolean {
  return useAfterHydration(isClient, false);
}

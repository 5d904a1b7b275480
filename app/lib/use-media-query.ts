import { useSyncExternalStore } from 'react';

/**
 * Whether a CSS media query matches, kept up to date. During server rendering
 * and hydration it answers `serverValue`, so the first client render matches
 * the prerendered HTML.
 */
export function useMediaQuery(query: string, serverValue = false): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => serverValue,
  );
}

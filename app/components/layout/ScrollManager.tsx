import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { loadAnalytics, trackPageView } from '../../lib/analytics.ts';

/** SPEC §9: the scroll to the top is repeated after 100 ms. */
export const SCROLL_REPEAT_MS = 100;

/** Scrolls to the element a `#fragment` names; false when the page has none. */
function scrollToFragment(hash: string): boolean {
  let target: HTMLElement | null = null;
  try {
    target = hash.length > 1 ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
  } catch {
    // A malformed %-escape names nothing.
  }
  target?.scrollIntoView({ block: 'start', behavior: 'instant' });
  return target !== null;
}

/**
 * On every navigation to a page (SPEC §2): scroll to the top, again after
 * 100 ms (late layout can move it), move focus to the main region for screen
 * readers, and send a page view with the path and query string.
 *
 * A change of the #fragment alone (the skip link, a table of contents, the
 * browser's back button between them) is not a new page: the browser has
 * already scrolled to the section, so it is left there and no page view is
 * sent. A link to a section of another page lands on that section.
 */
export function ScrollManager() {
  const location = useLocation();
  const previous = useRef<{ page: string; hash: string } | null>(null);

  // Declared first so the tag queue exists before the first page view.
  useEffect(() => loadAnalytics(), []);

  useEffect(() => {
    const page = location.pathname + location.search;
    const before = previous.current;
    previous.current = { page, hash: location.hash };
    if (before?.page === page && before.hash !== location.hash) {
      scrollToFragment(location.hash);
      return;
    }
    trackPageView(page);
    if (before === null) return;

    const settle = () => {
      if (!scrollToFragment(location.hash))
        window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
    };
    settle();
    const timer = window.setTimeout(settle, SCROLL_REPEAT_MS);
    document.getElementById('main')?.focus({ preventScroll: true });
    return () => window.clearTimeout(timer);
  }, [location.key, location.pathname, location.search, location.hash]);

  return null;
}

import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { loadAnalytics, trackPageView } from '../../lib/analytics.ts';

/** SPEC §9: the scroll to the top is repeated after 100 ms. */
export const SCROLL_REPEAT_MS = 100;

/**
 * On every navigation (SPEC §2): scroll to the top, again after 100 ms (late
 * layout can move it), move focus to the main region for screen readers, and
 * send a page view with the path and query string.
 */
export function ScrollManager() {
  const location = useLocation();
  const firstRender = useRef(true);

  // Declared first so the tag queue exists before the first page view.
  useEffect(() => loadAnalytics(), []);

  useEffect(() => {
    trackPageView(location.pathname + location.search);
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    const toTop = () => window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
    toTop();
    const timer = window.setTimeout(toTop, SCROLL_REPEAT_MS);
    document.getElementById('main')?.focus({ preventScroll: true });
    return () => window.clearTimeout(timer);
  }, [location.key, location.pathname, location.search]);

  return null;
}

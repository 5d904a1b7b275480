/**
 * Calls `go` once the page has loaded and painted its first content: the
 * one rule for when the site's scripts start. The page's own module is
 * imported on it (inlined into each prerendered page by
 * scripts/defer-scripts.ts, from this function's source) and the islands
 * hydrate on it (`client:afterload`, ./after-load.ts).
 *
 * Why both. A module script fetched while the stylesheets are shares the
 * network with what the first paint waits for: on Lighthouse's simulated
 * phone the site's 4 KiB module alone made the first paint 200–400 ms later
 * (/terms: 905 ms with no script, 1,120–1,280 ms with it). And the load
 * event often comes before the first paint (20–60 ms before it in most
 * Lighthouse runs here), so a script fetched on `load` alone still counted
 * against the first paint and the LCP (/privacy-policy: LCP 1,068, 1,210
 * and 909 ms waiting for `load` and two animation frames, 904–911 ms
 * waiting for the first contentful paint too). The paint is observed
 * (PerformanceObserver, `paint`, buffered); a hidden page, which does not
 * paint, or a browser without paint timing goes on `load` alone.
 *
 * The body has no comments and uses only globals, because its source is
 * inlined as it is (see scripts/defer-scripts.ts).
 */
export function whenLoadedAndPainted(go: () => void): void {
  const afterLoad = () => {
    if (
      document.hidden ||
      !globalThis.PerformanceObserver?.supportedEntryTypes?.includes('paint')
    ) {
      go();
      return;
    }
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      go();
    }).observe({ type: 'paint', buffered: true });
  };
  if (document.readyState === 'complete') afterLoad();
  else addEventListener('load', afterLoad, { once: true });
}

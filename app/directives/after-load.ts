import type { ClientDirective } from 'astro';

/**
 * `client:afterload`: an island hydrates once the page has loaded, has
 * painted, and the browser is then idle. Astro's own `client:idle` can fire
 * before the load event, and React's runtime (about 50 KiB) would then
 * share the network with the stylesheets the first paint waits for; a load
 * event can also come before the first paint (scripts/defer-scripts.ts says
 * what either costs on a slow phone, and starts the page's own script on the
 * same terms). A hidden page, which does not paint, or a browser without
 * paint timing hydrates after load alone. The prerendered form works as a
 * plain form post meanwhile.
 */
const afterLoad: ClientDirective = (load) => {
  const hydrate = async () => {
    const run = await load();
    await run();
  };
  const whenIdle = () => {
    if ('requestIdleCallback' in window) requestIdleCallback(() => void hydrate());
    else setTimeout(() => void hydrate(), 200);
  };
  const afterPaint = () => {
    if (document.hidden || !globalThis.PerformanceObserver?.supportedEntryTypes?.includes('paint'))
      return whenIdle();
    new PerformanceObserver((list, observer) => {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      whenIdle();
    }).observe({ type: 'paint', buffered: true });
  };
  if (document.readyState === 'complete') afterPaint();
  else window.addEventListener('load', afterPaint, { once: true });
};

export default afterLoad;

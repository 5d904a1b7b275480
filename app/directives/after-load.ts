import type { ClientDirective } from 'astro';

/**
 * `client:afterload`: an island hydrates once the page has loaded and the
 * browser is then idle. Astro's own `client:idle` can fire before the load
 * event, and React's runtime (about 50 KiB) would then share the network
 * with the stylesheets the first paint waits for (scripts/defer-scripts.ts
 * says what that costs on a slow phone). The prerendered form works as a
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
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
};

export default afterLoad;

import type { ClientDirective } from 'astro';
import { whenLoadedAndPainted } from './when-loaded-and-painted.ts';

/**
 * `client:afterload`: an island hydrates once the page has loaded and
 * painted (./when-loaded-and-painted.ts says why) and the browser is then
 * idle. Astro's own `client:idle` can fire before the load event, and
 * React's runtime (about 50 KiB) would then share the network with the
 * stylesheets the first paint waits for. The prerendered form works as a
 * plain form post meanwhile.
 */
const afterLoad: ClientDirective = (load) => {
  whenLoadedAndPainted(() => {
    const hydrate = async () => {
      const run = await load();
      await run();
    };
    if ('requestIdleCallback' in window) requestIdleCallback(() => void hydrate());
    else setTimeout(() => void hydrate(), 200);
  });
};

export default afterLoad;

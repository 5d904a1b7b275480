import islandScript from 'astro/runtime/server/astro-island.prebuilt.js';
import { ISLAND_STYLES } from 'astro/runtime/server/astro-island-styles.js';
import { transformSync } from 'esbuild';
import { whenLoadedAndPainted } from '../app/directives/when-loaded-and-painted.ts';

/**
 * The prerendered pages' own scripts start once the page has loaded and
 * painted (docs/decisions/0006; the rule and its measurements are in
 * app/directives/when-loaded-and-painted.ts, which the islands hydrate on
 * too). Each `<script type="module" src>` Astro wrote becomes an inline
 * module that imports the same file then. Until then the page is its
 * no-JavaScript self (the menu is a native popover).
 */

const MODULE_SCRIPT = /<script type="module" src="(\/assets\/[^"]+\.js)"><\/script>/g;

/**
 * The rule's source as inline code: the function as it runs in the browser
 * (types erased), called with a placeholder for the page's import, and
 * minified by esbuild (the same minifier the build uses) so that each page
 * carries it in as few bytes as before it was shared: on a long article
 * the HTML's first bytes are close to what a phone's first round trip
 * carries, and a few dozen bytes more cost Lighthouse's simulated phone a
 * round trip (measured: LCP 1,054 against 1,204 ms on the longest article).
 */
const CALL = '__CALL__';
const WHEN_LOADED_AND_PAINTED = transformSync(`(${whenLoadedAndPainted.toString()})(()=>${CALL})`, {
  minify: true,
  loader: 'js',
  target: 'es2022',
})
  .code.trim()
  .replace(/;$/, '');

/** Inline code that runs `call` (a JavaScript expression) once the page has loaded and painted. */
export function afterLoadAndPaint(call: string): string {
  return WHEN_LOADED_AND_PAINTED.replace(CALL, () => call);
}

/**
 * Astro's island runtime: the `astro-island` element and the hydration
 * directive, written as classic inline scripts before a page's first
 * island, after the one inline style the islands need
 * (`<style>ISLAND_STYLES</style><script>directive</script><script>island</script>`).
 * A classic script waits for the stylesheets and holds up the
 * parser meanwhile, so the first frame often showed the header alone and
 * the page's largest text came a frame or more later, with the image and
 * script requests of that gap counted against the LCP (measured on /blog:
 * first paint 147-158 ms, LCP 206-228 ms, unthrottled). As inline modules
 * they run once the document is parsed, in the same order; an island
 * element waits for its definition, as it does for a directive.
 */
const PRESCRIPTS_START = `<style>${ISLAND_STYLES}</style><script>`;
const ISLAND_SCRIPT = `</script><script>${islandScript}</script>`;

/**
 * The inline code a page runs and applies, as this step wrote it: what the
 * page's Content Security Policy allows by hash (server/csp.server.ts),
 * and nothing else.
 *
 * Only what the build itself emits is recognised, never whatever looks
 * like a script: text an owner types reaches a page escaped (`<` in text
 * as `&lt;`, `"` in an attribute value as `&quot;`, by Astro and React
 * alike), so it can spell `<script>…</script>` inside an attribute value,
 * which is no element, but never a tag with a double-quoted attribute, nor
 * Astro's island runtime, which holds double quotes. A module script is
 * recognised by its quoted `src`; the island's directive only as the
 * script right before that runtime, found from the runtime back. (Astro writes a second directive's
 * script alone, before the first island that uses it; every island here
 * hydrates on `client:afterload`, so no page has one. An island on another
 * directive would need its script recognised here, or it never hydrates.)
 */
export interface DeferredPage {
  html: string;
  /** The bodies of its inline scripts. */
  scripts: string[];
  /** The bodies of its inline styles. */
  styles: string[];
}

export function deferPageScripts(html: string): DeferredPage {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  let out = '';
  let from = 0;
  // From each island runtime (which typed text cannot spell) back to the
  // nearest style and script before it: typed text further back is never
  // taken for the directive.
  for (
    let end = html.indexOf(ISLAND_SCRIPT);
    end !== -1;
    end = html.indexOf(ISLAND_SCRIPT, end + ISLAND_SCRIPT.length)
  ) {
    const at = html.lastIndexOf(PRESCRIPTS_START, end);
    if (at < from) continue;
    const directive = html.slice(at + PRESCRIPTS_START.length, end);
    if (directive === '' || directive.includes('</script')) continue;
    out +=
      html.slice(from, at) +
      `<style>${ISLAND_STYLES}</style>` +
      `<script type="module">${directive}</script>` +
      `<script type="module">${islandScript}</script>`;
    from = end + ISLAND_SCRIPT.length;
    styles.add(ISLAND_STYLES);
    scripts.add(directive);
    scripts.add(islandScript);
  }
  out += html.slice(from);
  out = out.replace(MODULE_SCRIPT, (_tag, src: string) => {
    const code = afterLoadAndPaint(`import(${JSON.stringify(src)})`);
    scripts.add(code);
    return `<script type="module">${code}</script>`;
  });
  return { html: out, scripts: [...scripts], styles: [...styles] };
}

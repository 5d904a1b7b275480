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
 * directives, written as classic inline scripts before a page's first
 * island. A classic script waits for the stylesheets and holds up the
 * parser meanwhile, so the first frame often showed the header alone and
 * the page's largest text came a frame or more later, with the image and
 * script requests of that gap counted against the LCP (measured on /blog:
 * first paint 147-158 ms, LCP 206-228 ms, unthrottled). As inline modules
 * they run once the document is parsed, in the same order; an island
 * element waits for its definition, as it does for a directive.
 */
const CLASSIC_INLINE_SCRIPT = /<script>((?:(?!<\/script>)[\s\S])*)<\/script>/g;

function isIslandRuntime(code: string): boolean {
  return code.startsWith('(()=>{') && /self\.Astro|"astro-island"/.test(code);
}

export function deferPageScripts(html: string): string {
  return html
    .replace(CLASSIC_INLINE_SCRIPT, (tag, code: string) =>
      isIslandRuntime(code) ? `<script type="module">${code}</script>` : tag,
    )
    .replace(
      MODULE_SCRIPT,
      (_tag, src: string) =>
        `<script type="module">${afterLoadAndPaint(`import(${JSON.stringify(src)})`)}</script>`,
    );
}

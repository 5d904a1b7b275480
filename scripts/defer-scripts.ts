/**
 * The prerendered pages' own scripts start once the page has loaded
 * (docs/decisions/0006, as 0004 found for React Router's): a module script
 * in the page is fetched while the stylesheets are, and on Lighthouse's
 * simulated phone that alone made the first paint 200–400 ms later
 * (measured on /terms: 905 ms with no script, 1,120–1,280 ms with the
 * site's 4 KiB module). Each `<script type="module" src>` Astro wrote
 * becomes an inline module that imports the same file after `load`. Until
 * then the page is its no-JavaScript self (the menu is a native popover).
 * Islands hydrate on the same terms (app/directives/after-load.ts).
 *
 * And once the page has painted: a load event can come before the first
 * paint (it did in most Lighthouse runs here, 20-60 ms before it), and a
 * script fetched then still counts against the first paint and the LCP on
 * a slow phone; measured on /privacy-policy, LCP 1,068, 1,210 and 909 ms
 * when the import waited for `load` and two animation frames, 904-911 ms
 * when it waited for the first contentful paint too. The paint is observed
 * (PerformanceObserver, `paint`); a hidden page, which does not paint, or
 * a browser without paint timing starts the script on `load` alone.
 */

const MODULE_SCRIPT = /<script type="module" src="(\/assets\/[^"]+\.js)"><\/script>/g;

/** Inline code that runs `call` (a JavaScript expression) once the page has loaded and painted. */
export function afterLoadAndPaint(call: string): string {
  return (
    'addEventListener("load",()=>{' +
    `const go=()=>${call};` +
    'if(document.hidden||!globalThis.PerformanceObserver?.supportedEntryTypes?.includes("paint"))go();' +
    'else new PerformanceObserver((list,observer)=>{' +
    'if(list.getEntriesByName("first-contentful-paint").length){observer.disconnect();go()}' +
    '}).observe({type:"paint",buffered:true})' +
    '},{once:true})'
  );
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

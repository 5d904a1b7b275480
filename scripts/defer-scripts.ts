/**
 * The prerendered pages' own scripts start once the page has loaded
 * (docs/decisions/0006, as 0004 found for React Router's): a module script
 * in the page is fetched while the stylesheets are, and on Lighthouse's
 * simulated phone that alone made the first paint 200–400 ms later
 * (measured on /terms: 905 ms with no script, 1,120–1,280 ms with the
 * site's 4 KiB module). Each `<script type="module" src>` Astro wrote
 * becomes an inline module that imports the same file on `load`. Until
 * then the page is its no-JavaScript self (the menu is a native popover).
 * Islands are left alone: Astro's loader hydrates them when the browser is
 * idle.
 */

const MODULE_SCRIPT = /<script type="module" src="(\/assets\/[^"]+\.js)"><\/script>/g;

export function deferPageScripts(html: string): string {
  return html.replace(
    MODULE_SCRIPT,
    (_tag, src: string) =>
      `<script type="module">addEventListener("load",()=>import(${JSON.stringify(src)}),{once:true})</script>`,
  );
}

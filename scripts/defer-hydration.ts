/**
 * Build step for the prerendered pages (decision 0004): the page's own HTML
 * and CSS get the network first, and the JavaScript that hydrates it is
 * fetched once the page has loaded.
 *
 * React Router writes, for each page, `<link rel="modulepreload">` for every
 * module of the route and an inline module script whose static `import`s
 * fetch them at once. On a slow phone connection those ~100 KiB of scripts
 * compete with the stylesheets the first paint waits for. This rewrites the
 * page so that:
 * - the modulepreload links are gone (React adds them back to <head> when it
 *   hydrates, by which time the modules are already loaded);
 * - the inline module script does the same work, with dynamic `import()`s,
 *   after the window's load event.
 *
 * The page reads and works as plain HTML until then (every form posts without
 * JavaScript), so nothing is lost in the meantime. Any other shape of markup
 * than the one expected is an error: a React Router upgrade that changes it
 * must fail the build, not ship pages that never hydrate.
 */

const MODULEPRELOAD = /<link rel="modulepreload" href="[^"]+"\/>/g;
const MODULE_SCRIPT = /(<script type="module" async="">)([\s\S]*?)(<\/script>)/g;
const STATIC_IMPORT = /^import (?:\* as ([\w$]+) from )?"([^"]+)";[ \t]*$/gm;

export class DeferHydrationError extends Error {}

/** The bootstrap script's body, rewritten to import its modules after `load`. */
export function deferBootstrap(body: string): string {
  const imports = [...body.matchAll(STATIC_IMPORT)].map((match, index) => ({
    binding: match[1] ?? `_unused${index}`,
    url: match[2]!,
  }));
  if (imports.length === 0) {
    throw new DeferHydrationError('the bootstrap script has no static imports');
  }
  const rest = body.replace(STATIC_IMPORT, '').trim();
  if (/^\s*import\s+(?!\()/m.test(rest) || /^\s*export\s/m.test(rest)) {
    throw new DeferHydrationError('the bootstrap script has an import or export of another form');
  }
  if (!/\bimport\("[^"]+"\);?\s*$/.test(rest)) {
    throw new DeferHydrationError('the bootstrap script does not end by importing the entry');
  }
  const urls = imports.map((entry) => `import(${JSON.stringify(entry.url)})`).join(',');
  const bindings = imports.map((entry) => entry.binding).join(',');
  return [
    `const hydrate=()=>Promise.all([${urls}]).then(([${bindings}])=>{`,
    rest,
    `});`,
    `if(document.readyState==="complete")hydrate();else addEventListener("load",hydrate,{once:true});`,
  ].join('\n');
}

/** A whole prerendered page, with its hydration deferred. */
export function deferHydration(html: string): string {
  const scripts = [...html.matchAll(MODULE_SCRIPT)];
  if (scripts.length !== 1) {
    throw new DeferHydrationError(
      `expected one inline module script in the page, found ${scripts.length}`,
    );
  }
  return html
    .replace(MODULEPRELOAD, '')
    .replace(
      MODULE_SCRIPT,
      (_match, open: string, body: string, close: string) => open + deferBootstrap(body) + close,
    );
}

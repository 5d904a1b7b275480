/**
 * The footer's copyright year (docs/pages-and-routes.md#footer). A prerendered page carries
 * the year it was built in; read on 1 January before the next build, that
 * year is last year's. The page renders the build's year in an element marked
 * `data-current-year`, and this replaces it with the visitor's year once the
 * page runs: the page's module script (app/browser/site.ts) calls it.
 */
export function updateFooterYear(root: ParentNode = document): void {
  const year = String(new Date().getFullYear());
  for (const element of root.querySelectorAll('[data-current-year]')) {
    // Written only when it differs: on every other day of the year the page
    // is left exactly as rendered.
    if (element.textContent !== year) element.textContent = year;
  }
}

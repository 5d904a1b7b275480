/**
 * The footer's copyright year (issue 12 item 4). A prerendered page carries
 * the year it was built in; read on 1 January before the next build, that
 * year is last year's. The page renders the build's year in an element marked
 * `data-current-year`, so the HTML and hydration agree, and this replaces it
 * with the visitor's year once the page runs. It needs no React: under React
 * Router the footer calls it from an effect (after hydration, so React sees
 * no mismatch); a static page can call it from a module script.
 */
export function updateFooterYear(root: ParentNode = document): void {
  const year = String(new Date().getFullYear());
  for (const element of root.querySelectorAll('[data-current-year]')) {
    // Written only when it differs: on every other day of the year the page
    // is left exactly as rendered.
    if (element.textContent !== year) element.textContent = year;
  }
}

import { defineBehaviour } from '../../browser/behaviour.ts';

/**
 * The table-of-contents links of a long page (`.legal-toc`). Without
 * JavaScript the browser follows the #fragment itself. Once this runs, the
 * jump is done here so that it can glide (unless the visitor prefers reduced
 * motion) and move focus to the section for keyboard and screen-reader users;
 * the address is updated without adding a history entry for every section
 * visited.
 */
export const startSectionJumps = defineBehaviour<HTMLElement>('.legal-toc', (toc) => {
  toc.addEventListener('click', jumpToSection);
  return () => toc.removeEventListener('click', jumpToSection);
});

function jumpToSection(event: MouseEvent) {
  if (event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = (event.target as Element | null)?.closest<HTMLAnchorElement>('a[href^="#"]');
  const id = link?.hash.slice(1);
  const target = id ? document.getElementById(id) : null;
  if (!target) return;
  event.preventDefault();
  const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  target.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'start' });
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
  // The entry keeps its state: a fragment is not a new page.
  window.history.replaceState(window.history.state, '', `#${id}`);
}

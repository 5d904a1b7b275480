import type { MouseEvent } from 'react';

/**
 * A table-of-contents link on a long page. Without JavaScript the browser
 * follows the #fragment itself. Once hydrated, the jump is done here so that
 * it can glide (unless the visitor prefers reduced motion) and move focus to
 * the section for keyboard and screen-reader users; the address is updated
 * without adding a history entry for every section visited.
 */
export function jumpToSection(event: MouseEvent<HTMLAnchorElement>) {
  const id = event.currentTarget.hash.slice(1);
  const target = id ? document.getElementById(id) : null;
  if (!target || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  target.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'start' });
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
  window.history.replaceState(window.history.state, '', `#${id}`);
}

import type { MouseEvent } from 'react';

/**
 * A table-of-contents link on a long page. Without JavaScript the browser
 * follows the #fragment itself. Once hydrated, a fragment change would count
 * as a navigation and the router's scroll manager would send the page back to
 * the top (SPEC §2), so the jump is done here: scroll, move focus for keyboard
 * and screen-reader users, and update the address without a navigation.
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

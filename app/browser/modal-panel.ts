/** What Tab can reach, in document order, among what is shown. */
const TABBABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(', ');

function isShown(element: HTMLElement): boolean {
  return typeof element.checkVisibility === 'function'
    ? element.checkVisibility({ visibilityProperty: true })
    : element.getClientRects().length > 0;
}

function tabbableIn(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(TABBABLE)].filter(
    (element) => element.tabIndex >= 0 && isShown(element),
  );
}

/**
 * Makes everything outside `container` inert (no focus, no pointer, hidden
 * from assistive technology): its siblings and those of each ancestor up to
 * <body>. Returns the undo, which leaves alone what was inert before.
 */
function makeOutsideInert(container: HTMLElement): () => void {
  const made: HTMLElement[] = [];
  for (let node: HTMLElement = container; node !== document.body;) {
    const parent = node.parentElement;
    if (!parent) break;
    for (const sibling of parent.children) {
      if (sibling !== node && sibling instanceof HTMLElement && !sibling.inert) {
        sibling.inert = true;
        made.push(sibling);
      }
    }
    node = parent;
  }
  return () => {
    for (const element of made) element.inert = false;
  };
}

/**
 * A full-screen panel (the mobile menu) keeps the keyboard inside while it is
 * open: the rest of the page is inert and Tab / Shift+Tab wrap round within
 * `container` instead of leaving for the browser's own controls. Call it when
 * the panel opens; the function it returns undoes both when it closes. Escape
 * and where focus goes on closing are the panel's own business.
 */
export function holdFocusInside(container: HTMLElement): () => void {
  const restore = makeOutsideInert(container);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return;
    const tabbable = tabbableIn(container);
    const first = tabbable[0];
    const last = tabbable[tabbable.length - 1];
    if (!first || !last) return;
    const active = document.activeElement;
    const inside = active instanceof HTMLElement && container.contains(active);
    if (event.shiftKey && (!inside || active === first)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (!inside || active === last)) {
      event.preventDefault();
      first.focus();
    }
  };
  document.addEventListener('keydown', onKeyDown);
  return () => {
    document.removeEventListener('keydown', onKeyDown);
    restore();
  };
}

import { holdFocusInside } from '../../browser/modal-panel.ts';

/**
 * The attribute a lead form carries so 'Request an Estimate' can find it
 * (docs/pages-and-routes.md#navigation-bar).
 */
export const QUOTE_FORM_ATTRIBUTE = 'data-quote-form';

/**
 * Set on the header while this module runs it. Until then (or without
 * JavaScript) the stylesheet opens a dropdown on hover and focus instead.
 */
export const MENUS_STARTED_ATTRIBUTE = 'data-menus';

/** Where the mobile menu is no panel but the desktop bar (the stylesheet's breakpoint). */
const WIDE_QUERY = '(min-width: 1024px)';

const running = new WeakMap<HTMLElement, () => void>();

function prefersReducedMotion(): boolean {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function supportsPopover(element: HTMLElement): boolean {
  return element.hasAttribute('popover') && typeof element.showPopover === 'function';
}

/**
 * docs/pages-and-routes.md#navigation-bar: the behaviour, on the header
 * SiteHeader renders. Desktop: two dropdowns, one open at a time. Mobile: the
 * menu toggle opens the main navigation as a full-screen panel. Menus close on
 * outside click, on Escape (focus returns to their toggle) and when the page is
 * left; the page behind the open mobile menu is inert and does not scroll, and
 * Tab stays in the header until it closes.
 *
 * The mobile panel is a native popover its toggle opens by itself, so a tap
 * works from the first paint, before this module runs and without JavaScript;
 * this module adds what the browser does not (the label, the inert page, the
 * scroll lock, the focus kept inside). Where popovers are missing, it opens
 * the panel itself.
 *
 * Starting twice on one header returns the same stop function; stopping
 * closes every menu and removes every listener.
 */
export function startHeaderMenus(header: HTMLElement): () => void {
  const started = running.get(header);
  if (started) return started;

  const toggle = header.querySelector<HTMLButtonElement>('.menu-toggle');
  const panel = header.querySelector<HTMLElement>('.main-nav');
  const estimate = header.querySelector<HTMLAnchorElement>('.mobile-actions a[href="/quote"]');
  const groups = [...header.querySelectorAll<HTMLElement>('.main-nav__group')].flatMap((item) => {
    const button = item.querySelector<HTMLButtonElement>(':scope > .main-nav__toggle');
    return button ? [{ item, button }] : [];
  });
  const popover = panel !== null && supportsPopover(panel);
  const wide = window.matchMedia(WIDE_QUERY);
  let openGroup: (typeof groups)[number] | null = null;
  let releaseFocus: (() => void) | null = null;

  function setGroup(next: typeof openGroup) {
    openGroup = next;
    for (const group of groups) {
      group.item.toggleAttribute('data-open', group === next);
      group.button.setAttribute('aria-expanded', String(group === next));
    }
  }

  function menuIsOpen(): boolean {
    if (!panel) return false;
    return popover ? panel.matches(':popover-open') : panel.hasAttribute('data-open');
  }

  /** Brings everything the open or closed mobile menu needs in line with its state. */
  function showMenuState(open: boolean) {
    panel?.toggleAttribute('data-open', open);
    toggle?.setAttribute('aria-expanded', String(open));
    toggle?.setAttribute('aria-label', open ? 'Close menu' : 'Open menu');
    document.body.classList.toggle('scroll-locked', open);
    if (open && !releaseFocus) releaseFocus = holdFocusInside(header);
    if (!open) {
      releaseFocus?.();
      releaseFocus = null;
      setGroup(null);
    }
  }

  function setMenu(open: boolean) {
    if (!panel || open === menuIsOpen()) return;
    // A popover reports every change, its own light dismiss included, through
    // 'beforetoggle' (below); without one, the state is shown here.
    if (popover) {
      if (open) panel.showPopover();
      else panel.hidePopover();
    } else showMenuState(open);
  }

  const onBeforeToggle = (event: Event) => {
    showMenuState((event as ToggleEvent).newState === 'open');
  };

  const onToggleClick = () => {
    // A popover's toggle opens and closes it by itself.
    if (!popover) setMenu(!menuIsOpen());
  };

  const onGroupClick = (event: MouseEvent) => {
    const group = groups.find(({ button }) => button === event.currentTarget);
    if (group) setGroup(openGroup === group ? null : group);
  };

  const onPointerDown = (event: PointerEvent) => {
    if (header.contains(event.target as Node)) return;
    setGroup(null);
    setMenu(false);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    if (openGroup) {
      const { button } = openGroup;
      event.preventDefault();
      setGroup(null);
      button.focus();
    } else if (menuIsOpen()) {
      event.preventDefault();
      setMenu(false);
      toggle?.focus();
    }
  };

  // A phone turned or a window widened: the mobile menu is no panel there, so
  // close it, or the page would be left inert behind it.
  const onWidthChange = () => {
    if (wide.matches) setMenu(false);
  };

  // Every link is a page load, and the browser may keep the page it leaves
  // in its back-forward cache, exactly as left: close the menus first, or
  // the back button would bring the page back with a menu open (on a phone,
  // locked and inert behind it).
  const onPageHide = () => {
    setGroup(null);
    setMenu(false);
  };

  const onEstimateClick = (event: MouseEvent) => {
    const form = document.querySelector<HTMLFormElement>(`form[${QUOTE_FORM_ATTRIBUTE}]`);
    if (!form) return; // No form here: the link goes to /quote.
    event.preventDefault();
    setMenu(false);
    form.scrollIntoView({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' });
    form.querySelector<HTMLElement>('input:not([type=hidden]), select, textarea')?.focus({
      preventScroll: true,
    });
  };

  panel?.addEventListener('beforetoggle', onBeforeToggle);
  toggle?.addEventListener('click', onToggleClick);
  estimate?.addEventListener('click', onEstimateClick);
  for (const { button } of groups) button.addEventListener('click', onGroupClick);
  document.addEventListener('pointerdown', onPointerDown);
  document.addEventListener('keydown', onKeyDown);
  wide.addEventListener('change', onWidthChange);
  window.addEventListener('pagehide', onPageHide);
  header.setAttribute(MENUS_STARTED_ATTRIBUTE, 'on');
  // The panel may have been opened by a tap before this module ran.
  showMenuState(menuIsOpen());
  onWidthChange();

  const stop = () => {
    setMenu(false);
    setGroup(null);
    panel?.removeEventListener('beforetoggle', onBeforeToggle);
    toggle?.removeEventListener('click', onToggleClick);
    estimate?.removeEventListener('click', onEstimateClick);
    for (const { button } of groups) button.removeEventListener('click', onGroupClick);
    document.removeEventListener('pointerdown', onPointerDown);
    document.removeEventListener('keydown', onKeyDown);
    wide.removeEventListener('change', onWidthChange);
    window.removeEventListener('pagehide', onPageHide);
    header.removeAttribute(MENUS_STARTED_ATTRIBUTE);
    running.delete(header);
  };
  running.set(header, stop);
  return stop;
}

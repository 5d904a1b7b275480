// @vitest-environment jsdom
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QUOTE_FORM_ATTRIBUTE, startHeaderMenus } from './header-menus.ts';
import { SiteHeader } from './SiteHeader.tsx';

// jsdom has no popovers: these tests run the module's own way of opening the
// mobile panel (older browsers). The browser suite (e2e/layout.spec.ts) runs
// the popover in Chromium, with Tab and the inert page.

/** matchMedia with queries the test switches itself. */
function fakeMatchMedia(matching: Set<string>) {
  const lists = new Map<string, Set<() => void>>();
  return {
    matchMedia: (query: string) => {
      const listeners = lists.get(query) ?? new Set();
      lists.set(query, listeners);
      return {
        get matches() {
          return matching.has(query);
        },
        addEventListener: (_: string, listener: () => void) => listeners.add(listener),
        removeEventListener: (_: string, listener: () => void) => listeners.delete(listener),
      } as unknown as MediaQueryList;
    },
    set(query: string, matches: boolean) {
      if (matches) matching.add(query);
      else matching.delete(query);
      for (const listener of lists.get(query) ?? []) listener();
    },
  };
}

const WIDE = '(min-width: 1024px)';
const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
let media: ReturnType<typeof fakeMatchMedia>;
let stop: () => void = () => {};

function renderPage(main = '<p>Page</p>') {
  const header = renderToStaticMarkup(
    createElement(SiteHeader, {
      currentPath: '/services/windows',
      links: {
        services: [
          { title: 'Windows', path: '/services/windows' },
          { title: 'Doors', path: '/services/doors' },
        ],
        glassTypes: [{ title: 'Planitherm Glass', path: '/glass-types/planitherm' }],
      },
    }),
  );
  document.body.innerHTML = `<a class="skip-link" href="#main">Skip</a>${header}<main id="main">${main}</main><footer>Footer</footer>`;
  return document.querySelector<HTMLElement>('header')!;
}

const byLabel = (label: string) =>
  [...document.querySelectorAll<HTMLButtonElement>('button')].find(
    (button) => (button.getAttribute('aria-label') ?? button.textContent?.trim()) === label,
  )!;
const toggle = () => document.querySelector<HTMLButtonElement>('.menu-toggle')!;
const panel = () => document.querySelector<HTMLElement>('.main-nav')!;
const press = (key: string) =>
  document.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));

beforeEach(() => {
  media = fakeMatchMedia(new Set());
  vi.stubGlobal('matchMedia', media.matchMedia);
});

afterEach(() => {
  stop();
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

describe('the header markup', () => {
  it('marks the current page and its group, with no script', () => {
    renderPage();
    const services = document.querySelector('a.main-nav__link[href="/services"]')!;
    expect(services.className).toBe('main-nav__link is-active');
    // The group's own page is not this one.
    expect(services.hasAttribute('aria-current')).toBe(false);
    const windows = document.querySelector('a[href="/services/windows"]')!;
    expect(windows.className).toBe('submenu__link is-active');
    expect(windows.getAttribute('aria-current')).toBe('page');
    expect(document.querySelector('a[href="/"].main-nav__link')!.className).toBe('main-nav__link');
    // The toggle opens the panel natively; the script adds aria-expanded.
    expect(toggle().getAttribute('popovertarget')).toBe(panel().id);
    expect(panel().getAttribute('popover')).toBe('auto');
    expect(toggle().hasAttribute('aria-expanded')).toBe(false);
  });
});

describe('startHeaderMenus', () => {
  it('starts once a header and stops completely', () => {
    const header = renderPage();
    stop = startHeaderMenus(header);
    expect(startHeaderMenus(header)).toBe(stop);
    expect(header.getAttribute('data-menus')).toBe('on');
    expect(toggle().getAttribute('aria-expanded')).toBe('false');
    toggle().click();
    expect(document.body.classList.contains('scroll-locked')).toBe(true);
    stop();
    expect(header.hasAttribute('data-menus')).toBe(false);
    expect(panel().hasAttribute('data-open')).toBe(false);
    expect(document.body.classList.contains('scroll-locked')).toBe(false);
    expect(document.querySelector('main')!.inert).toBe(false);
    // Stopped: a click does nothing, and a new start is a new run.
    toggle().click();
    expect(panel().hasAttribute('data-open')).toBe(false);
    const again = startHeaderMenus(header);
    expect(again).not.toBe(stop);
    stop = again;
  });

  it('opens one dropdown at a time; Escape closes it and returns focus to its toggle', () => {
    const header = renderPage();
    // jsdom lets nothing inside a popover take focus (a browser does, where it is shown).
    panel().removeAttribute('popover');
    stop = startHeaderMenus(header);
    const services = byLabel('Services menu');
    const glass = byLabel('Glass Types');
    services.click();
    expect(services.getAttribute('aria-expanded')).toBe('true');
    expect(services.closest('li')!.hasAttribute('data-open')).toBe(true);
    glass.click();
    expect(services.getAttribute('aria-expanded')).toBe('false');
    expect(glass.closest('li')!.hasAttribute('data-open')).toBe(true);
    press('Escape');
    expect(glass.closest('li')!.hasAttribute('data-open')).toBe(false);
    expect(document.activeElement).toBe(glass);
    glass.click();
    glass.click();
    expect(glass.getAttribute('aria-expanded')).toBe('false');
  });

  it('the mobile menu locks the page behind it and closes on Escape, outside tap and a wide window', () => {
    stop = startHeaderMenus(renderPage());
    const main = document.querySelector('main')!;
    toggle().click();
    expect(panel().hasAttribute('data-open')).toBe(true);
    expect(toggle().getAttribute('aria-expanded')).toBe('true');
    expect(toggle().getAttribute('aria-label')).toBe('Close menu');
    expect(document.body.classList.contains('scroll-locked')).toBe(true);
    for (const selector of ['.skip-link', 'main', 'footer']) {
      expect(document.querySelector<HTMLElement>(selector)!.inert, selector).toBe(true);
    }

    press('Escape');
    expect(panel().hasAttribute('data-open')).toBe(false);
    expect(toggle().getAttribute('aria-label')).toBe('Open menu');
    expect(document.activeElement).toBe(toggle());
    expect(main.inert).toBe(false);
    expect(document.body.classList.contains('scroll-locked')).toBe(false);

    toggle().click();
    // A tap inside the header leaves it open; one outside closes it.
    panel().dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    expect(panel().hasAttribute('data-open')).toBe(true);
    main.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    expect(panel().hasAttribute('data-open')).toBe(false);

    toggle().click();
    media.set(WIDE, true);
    expect(panel().hasAttribute('data-open')).toBe(false);
    expect(main.inert).toBe(false);
  });

  it('leaving the page closes every menu, so the back-forward cache keeps none open', () => {
    const header = renderPage();
    stop = startHeaderMenus(header);
    byLabel('Services menu').click();
    toggle().click();
    expect(panel().hasAttribute('data-open')).toBe(true);
    window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: true }));
    expect(panel().hasAttribute('data-open')).toBe(false);
    expect(header.querySelector('[data-open]')).toBeNull();
    expect(document.querySelector('main')!.inert).toBe(false);
    expect(document.body.classList.contains('scroll-locked')).toBe(false);
  });

  it("'Request an Estimate' scrolls to the page's form, without motion when asked", () => {
    stop = startHeaderMenus(
      renderPage(`<form ${QUOTE_FORM_ATTRIBUTE}><input type="hidden"><input name="name"></form>`),
    );
    media.set(REDUCED_MOTION, true);
    const scrollIntoView = vi.fn();
    HTMLElement.prototype.scrollIntoView = scrollIntoView;
    toggle().click();
    const estimate = document.querySelector<HTMLAnchorElement>('.mobile-actions a')!;
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    estimate.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(scrollIntoView).toHaveBeenCalledWith({ behavior: 'auto', block: 'start' });
    expect(document.activeElement).toBe(document.querySelector('input[name="name"]'));
    expect(panel().hasAttribute('data-open')).toBe(false);
  });

  it("'Request an Estimate' is a plain link to /quote where the page has no form", () => {
    stop = startHeaderMenus(renderPage());
    const estimate = document.querySelector<HTMLAnchorElement>('.mobile-actions a')!;
    expect(estimate.getAttribute('href')).toBe('/quote');
    let followed = false;
    // Seen after the header's own handler; jsdom cannot follow the link, so it stops here.
    document.addEventListener('click', (event) => {
      followed = !event.defaultPrevented;
      event.preventDefault();
    });
    estimate.click();
    expect(followed).toBe(true);
  });
});

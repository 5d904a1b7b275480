import { useCallback, useEffect, useId, useRef, useState, type MouseEvent } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { business, telHref } from '../../content/business.ts';
import { isActivePath, isGroup, mainNavigation, type NavGroup } from '../../content/navigation.ts';
import { useMediaQuery } from '../../lib/use-media-query.ts';
import { useModalPanel } from '../../lib/use-modal-panel.ts';
import { useSiteLinks } from '../../lib/use-site-links.ts';
import { Icon } from '../ui/Icon.tsx';
import { Logo } from './Logo.tsx';

/** The attribute a lead form carries so 'Request an Estimate' can find it (SPEC §2). */
export const QUOTE_FORM_ATTRIBUTE = 'data-quote-form';

function prefersReducedMotion(): boolean {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * SPEC §2 navigation bar. Desktop: links, two independent dropdowns and
 * 'Call Us'. Mobile: 'Request an Estimate', a call button and the menu toggle.
 * Menus close on route change, outside click and Escape; the page behind the
 * open mobile menu does not scroll, and the open mobile menu keeps the
 * keyboard in the header (the top bar and the panel) until it closes.
 */
export function SiteHeader() {
  const { pathname } = useLocation();
  const [openGroup, setOpenGroup] = useState<string | null>(null);
  const [menuOpen, setMenuOpen] = useState(false);
  const headerRef = useRef<HTMLElement>(null);
  const menuToggleRef = useRef<HTMLButtonElement>(null);
  const baseId = useId();
  const navigation = mainNavigation(useSiteLinks());

  const closeAll = useCallback(() => {
    setOpenGroup(null);
    setMenuOpen(false);
  }, []);

  // Close on route change (state adjusted during render, not in an effect).
  const [shownPath, setShownPath] = useState(pathname);
  if (shownPath !== pathname) {
    setShownPath(pathname);
    setOpenGroup(null);
    setMenuOpen(false);
  }
  // The mobile menu is no panel on a wide screen (a phone turned, a window
  // widened): close it there, so the page is not left inert behind it.
  const wide = useMediaQuery('(min-width: 1024px)');
  if (wide && menuOpen) setMenuOpen(false);

  // The open mobile menu covers the page: the rest is inert and Tab stays in the header.
  useModalPanel(headerRef, menuOpen);

  // Close on outside click and on Escape (focus returns to the toggle).
  useEffect(() => {
    if (!openGroup && !menuOpen) return;
    const onPointerDown = (event: PointerEvent) => {
      if (headerRef.current && !headerRef.current.contains(event.target as Node)) closeAll();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      const toggle = openGroup
        ? document.querySelector<HTMLButtonElement>(`[aria-controls="${baseId}-${openGroup}"]`)
        : menuToggleRef.current;
      if (openGroup) setOpenGroup(null);
      else setMenuOpen(false);
      toggle?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [openGroup, menuOpen, closeAll, baseId]);

  // Lock the page behind the open mobile menu.
  useEffect(() => {
    document.body.classList.toggle('scroll-locked', menuOpen);
    return () => document.body.classList.remove('scroll-locked');
  }, [menuOpen]);

  const onEstimateClick = (event: MouseEvent<HTMLAnchorElement>) => {
    const form = document.querySelector<HTMLFormElement>(`form[${QUOTE_FORM_ATTRIBUTE}]`);
    if (!form) return; // No form here: the link goes to /quote.
    event.preventDefault();
    setMenuOpen(false);
    form.scrollIntoView({ behavior: prefersReducedMotion() ? 'auto' : 'smooth', block: 'start' });
    form.querySelector<HTMLElement>('input:not([type=hidden]), select, textarea')?.focus({
      preventScroll: true,
    });
  };

  return (
    <header className="site-header" ref={headerRef}>
      <div className="container site-header__bar">
        <Logo />

        <div className="mobile-actions">
          <Link to="/quote" className="button button--primary button--sm" onClick={onEstimateClick}>
            Request an Estimate
          </Link>
          <a href={telHref} className="icon-button" aria-label={`Call ${business.phone.display}`}>
            <Icon name="phone" />
          </a>
          <button
            ref={menuToggleRef}
            type="button"
            className="icon-button menu-toggle"
            aria-expanded={menuOpen}
            aria-controls={`${baseId}-menu`}
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            onClick={() => setMenuOpen((open) => !open)}
          >
            <Icon name={menuOpen ? 'close' : 'menu'} />
          </button>
          {/* Without JavaScript the toggle cannot work; this link leads to the footer's full list of pages. */}
          <a href="#footer-navigation" className="icon-button menu-fallback">
            <Icon name="menu" />
            <span className="sr-only">Menu</span>
          </a>
        </div>

        <nav
          id={`${baseId}-menu`}
          className="main-nav"
          aria-label="Main"
          data-open={menuOpen || undefined}
        >
          <ul className="main-nav__list">
            {navigation.map((item) =>
              isGroup(item) ? (
                <NavGroupItem
                  key={item.title}
                  group={item}
                  id={`${baseId}-${item.activePrefix.slice(1)}`}
                  open={openGroup === item.activePrefix.slice(1)}
                  active={isActivePath(pathname, item.activePrefix)}
                  onToggle={() =>
                    setOpenGroup((current) =>
                      current === item.activePrefix.slice(1) ? null : item.activePrefix.slice(1),
                    )
                  }
                />
              ) : (
                <li key={item.path} className="main-nav__item">
                  <NavLink
                    to={item.path}
                    end={item.path === '/'}
                    className={
                      isActivePath(pathname, item.path)
                        ? 'main-nav__link is-active'
                        : 'main-nav__link'
                    }
                  >
                    {item.title}
                  </NavLink>
                </li>
              ),
            )}
          </ul>
          <a href={telHref} className="button button--primary main-nav__call">
            <Icon name="phone" size={18} />
            Call Us
            <span className="sr-only"> on {business.phone.display}</span>
          </a>
        </nav>
      </div>
    </header>
  );
}

function NavGroupItem({
  group,
  id,
  open,
  active,
  onToggle,
}: {
  group: NavGroup;
  id: string;
  open: boolean;
  active: boolean;
  onToggle: () => void;
}) {
  const { pathname } = useLocation();
  return (
    <li className="main-nav__item main-nav__group" data-open={open || undefined}>
      {group.path ? (
        <NavLink
          to={group.path}
          end
          className={active ? 'main-nav__link is-active' : 'main-nav__link'}
        >
          {group.title}
        </NavLink>
      ) : null}
      <button
        type="button"
        className={
          group.path
            ? 'main-nav__toggle'
            : `main-nav__link main-nav__toggle main-nav__toggle--labelled${active ? ' is-active' : ''}`
        }
        aria-expanded={open}
        aria-controls={id}
        onClick={onToggle}
      >
        {group.path ? <span className="sr-only">{group.title} menu</span> : group.title}
        <Icon name="chevron-down" size={16} className="main-nav__chevron" />
      </button>
      <ul id={id} className="submenu">
        {group.items.map((entry) => (
          <li key={entry.path}>
            <NavLink
              to={entry.path}
              className={pathname === entry.path ? 'submenu__link is-active' : 'submenu__link'}
            >
              {entry.title}
            </NavLink>
          </li>
        ))}
      </ul>
    </li>
  );
}

import { business, telHref } from '../../content/business.ts';
import {
  isActivePath,
  isGroup,
  mainNavigation,
  type NavGroup,
  type SiteLinks,
} from '../../content/navigation.ts';
import { Icon } from '../ui/Icon.tsx';
import { Logo } from './Logo.tsx';

// Lead forms find the attribute here; it belongs to the header's script.
export { QUOTE_FORM_ATTRIBUTE } from './header-menus.ts';

/** The mobile panel's id: one header a page. */
const MENU_ID = 'site-menu';

/** A link's class, and aria-current on the page it leads to. */
function linkProps(className: string, active: boolean, current: boolean) {
  return {
    className: active ? `${className} is-active` : className,
    ...(current ? { 'aria-current': 'page' as const } : {}),
  };
}

/**
 * docs/pages-and-routes.md#navigation-bar. Desktop: links, two independent dropdowns and
 * 'Call Us'. Mobile: 'Request an Estimate', a call button and the menu toggle.
 * The markup comes from props alone; header-menus.ts gives it its behaviour
 * (the page's module script, app/browser/site.ts, starts it). The mobile
 * panel is a popover its toggle opens natively, so the menu works before any
 * script and without JavaScript.
 */
export function SiteHeader({ currentPath, links }: { currentPath: string; links: SiteLinks }) {
  return (
    <header className="site-header">
      <div className="container site-header__bar">
        <Logo />

        <div className="mobile-actions">
          {/* header-menus.ts scrolls to the page's own form when it has one. */}
          <a href="/quote" className="button button--primary button--sm">
            Request an Estimate
          </a>
          <a href={telHref} className="icon-button" aria-label={`Call ${business.phone.display}`}>
            <Icon name="phone" />
          </a>
          {/* aria-expanded comes with the script: until then the browser reports the popover's state. */}
          <button
            type="button"
            className="icon-button menu-toggle"
            popoverTarget={MENU_ID}
            aria-controls={MENU_ID}
            aria-label="Open menu"
          >
            <Icon name="menu" className="menu-toggle__open" />
            <Icon name="close" className="menu-toggle__close" />
          </button>
        </div>

        <nav id={MENU_ID} className="main-nav" aria-label="Main" popover="auto">
          <ul className="main-nav__list">
            {mainNavigation(links).map((item) =>
              isGroup(item) ? (
                <NavGroupItem key={item.title} group={item} currentPath={currentPath} />
              ) : (
                <li key={item.path} className="main-nav__item">
                  <a
                    href={item.path}
                    {...linkProps(
                      'main-nav__link',
                      isActivePath(currentPath, item.path),
                      isActivePath(currentPath, item.path),
                    )}
                  >
                    {item.title}
                  </a>
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

function NavGroupItem({ group, currentPath }: { group: NavGroup; currentPath: string }) {
  const id = `${MENU_ID}-${group.activePrefix.slice(1)}`;
  const active = isActivePath(currentPath, group.activePrefix);
  return (
    <li className="main-nav__item main-nav__group">
      {group.path ? (
        <a href={group.path} {...linkProps('main-nav__link', active, currentPath === group.path)}>
          {group.title}
        </a>
      ) : null}
      <button
        type="button"
        className={
          group.path
            ? 'main-nav__toggle'
            : `main-nav__link main-nav__toggle main-nav__toggle--labelled${active ? ' is-active' : ''}`
        }
        aria-expanded="false"
        aria-controls={id}
      >
        {group.path ? <span className="sr-only">{group.title} menu</span> : group.title}
        <Icon name="chevron-down" size={16} className="main-nav__chevron" />
      </button>
      <ul id={id} className="submenu">
        {group.items.map((entry) => (
          <li key={entry.path}>
            <a
              href={entry.path}
              {...linkProps(
                'submenu__link',
                currentPath === entry.path,
                isActivePath(currentPath, entry.path),
              )}
            >
              {entry.title}
            </a>
          </li>
        ))}
      </ul>
    </li>
  );
}

/** A navigation entry (docs/pages-and-routes.md#navigation-bar). */
export interface NavEntry {
  title: string;
  path: string;
}

export interface NavGroup {
  title: string;
  /** Where the group's own link goes, if it has a page of its own. */
  path?: string;
  /** Highlighted when the current path starts with this prefix. */
  activePrefix: string;
  items: readonly NavEntry[];
}

export type NavItem = NavEntry | NavGroup;

/** The links that come from content (services, glass types), passed by app/layouts/Document.astro. */
export interface SiteLinks {
  services: readonly NavEntry[];
  glassTypes: readonly NavEntry[];
}

/** docs/pages-and-routes.md#navigation-bar, in order. */
export function mainNavigation(links: SiteLinks): readonly NavItem[] {
  return [
    { title: 'Home', path: '/' },
    { title: 'Services', path: '/services', activePrefix: '/services', items: links.services },
    { title: 'Glass Types', activePrefix: '/glass-types', items: links.glassTypes },
    { title: 'Blog', path: '/blog' },
    { title: 'About Us', path: '/about' },
    { title: 'Contact', path: '/contact' },
  ];
}

export const footerQuickLinks: readonly NavEntry[] = [
  { title: 'Home', path: '/' },
  { title: 'Our Services', path: '/services' },
  { title: 'Request a Free Quote', path: '/quote' },
  { title: 'Blog', path: '/blog' },
  { title: 'About Us', path: '/about' },
  { title: 'Contact', path: '/contact' },
];

export const legalLinks: readonly NavEntry[] = [
  { title: 'Privacy Policy', path: '/privacy-policy' },
  { title: 'Terms', path: '/terms' },
  { title: 'Sitemap', path: '/sitemap' },
];

export function isGroup(item: NavItem): item is NavGroup {
  return 'items' in item;
}

/** docs/pages-and-routes.md#navigation-bar: the active link is highlighted by path prefix. */
export function isActivePath(pathname: string, prefix: string): boolean {
  if (prefix === '/') return pathname === '/';
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

import { describe, expect, it } from 'vitest';
import { isActivePath, mainNavigation } from './navigation.ts';
import { siteLinks } from './site-links.ts';

describe('navigation', () => {
  it('highlights by path prefix, Home only on the home page', () => {
    expect(isActivePath('/', '/')).toBe(true);
    expect(isActivePath('/about', '/')).toBe(false);
    expect(isActivePath('/services', '/services')).toBe(true);
    expect(isActivePath('/services/windows', '/services')).toBe(true);
    expect(isActivePath('/servicesx', '/services')).toBe(false);
    expect(isActivePath('/blog/category/windows', '/blog')).toBe(true);
  });

  it('has the documented order, nine services and two glass types', () => {
    const items = mainNavigation(siteLinks);
    expect(items.map((item) => item.title)).toEqual([
      'Home',
      'Services',
      'Glass Types',
      'Blog',
      'About Us',
      'Contact',
    ]);
    expect(siteLinks.services).toHaveLength(9);
    expect(siteLinks.glassTypes.map((link) => link.title)).toEqual([
      'PerformaTech Glass',
      'Planitherm Glass',
    ]);
  });
});

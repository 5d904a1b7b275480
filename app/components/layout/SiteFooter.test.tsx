// @vitest-environment jsdom
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SiteLinks } from '../../content/navigation.ts';
import { updateFooterYear } from './footer-year.ts';
import { SiteFooter } from './SiteFooter.tsx';

const links: SiteLinks = {
  services: [{ title: 'Windows', path: '/services/windows' }],
  glassTypes: [{ title: 'PerformaTech Glass', path: '/glass-types/performatech' }],
};

// Only the clock's date is fixed; timers stay real.
const setToday = (iso: string) => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(iso));
};

afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

const copyright = (root: ParentNode) =>
  root.querySelector('.site-footer__bottom p')?.textContent ?? '';

describe('SiteFooter', () => {
  it('links the content pages it is given, as plain links', () => {
    const container = document.createElement('div');
    container.innerHTML = renderToString(<SiteFooter links={links} renderedYear={2025} />);
    const hrefs = [...container.querySelectorAll('a')].map((link) => link.getAttribute('href'));
    expect(hrefs).toContain('/services/windows');
    expect(hrefs).toContain('/glass-types/performatech');
    expect(hrefs).toContain('/privacy-policy');
    expect(container.querySelector('[data-discover]')).toBeNull();
  });

  it('renders the year it is given, in the element the year script updates', () => {
    setToday('2026-01-01T10:00:00Z');
    const container = document.createElement('div');
    container.innerHTML = renderToString(<SiteFooter links={links} renderedYear={2025} />);
    expect(container.querySelector('[data-current-year]')?.textContent).toBe('2025');
    expect(copyright(container)).toMatch(/^© 2025 .+\. All rights reserved\.$/);
  });

  it("shows the visitor's year on a page built last year once the year script runs", () => {
    setToday('2026-01-01T10:00:00Z');
    const container = document.createElement('div');
    document.body.append(container);
    container.innerHTML = renderToString(<SiteFooter links={links} renderedYear={2025} />);
    expect(copyright(container)).toMatch(/^© 2025 /);
    // What the page's module script (app/browser/site.ts) does once it runs.
    updateFooterYear(container);
    expect(copyright(container)).toMatch(/^© 2026 .+\. All rights reserved\.$/);
  });
});

describe('updateFooterYear', () => {
  it("replaces a marked year that is not the browser's, and leaves the rest alone", () => {
    setToday('2027-03-01T12:00:00Z');
    document.body.innerHTML =
      '<p>© <span data-current-year="">2026</span> Example Ltd.</p><p id="other">2026</p>';
    updateFooterYear();
    expect(document.body.textContent).toBe('© 2027 Example Ltd.2026');
  });

  it('leaves the element untouched when the year is right', () => {
    setToday('2026-06-01T12:00:00Z');
    document.body.innerHTML = '<p>© <span data-current-year="">2026</span></p>';
    const text = document.querySelector('[data-current-year]')!.firstChild;
    updateFooterYear();
    expect(document.querySelector('[data-current-year]')!.firstChild).toBe(text);
  });

  it('looks only inside the root it is given', () => {
    setToday('2027-03-01T12:00:00Z');
    document.body.innerHTML =
      '<div id="a"><span data-current-year="">2026</span></div><span data-current-year="">2026</span>';
    updateFooterYear(document.getElementById('a')!);
    expect(document.body.textContent).toBe('20272026');
  });
});

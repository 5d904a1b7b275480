import islandScript from 'astro/runtime/server/astro-island.prebuilt.js';
import { ISLAND_STYLES } from 'astro/runtime/server/astro-island-styles.js';
import { describe, expect, it } from 'vitest';
import { afterLoadAndPaint, deferPageScripts } from './defer-scripts.ts';

describe('deferPageScripts', () => {
  it('turns each module script of a page into an import once the page has loaded and painted', () => {
    const html =
      '<main><p>x</p></main><script type="module" src="/assets/site.Ab1.js"></script>' +
      '<script type="module" src="/assets/thank-you.Cd2.js"></script></body>';
    const site = afterLoadAndPaint('import("/assets/site.Ab1.js")');
    const thankYou = afterLoadAndPaint('import("/assets/thank-you.Cd2.js")');
    expect(deferPageScripts(html)).toEqual({
      html:
        '<main><p>x</p></main>' +
        `<script type="module">${site}</script>` +
        `<script type="module">${thankYou}</script></body>`,
      scripts: [site, thankYou],
      styles: [],
    });
  });

  /** Runs the inline code against a stand-in window, document and PerformanceObserver. */
  function runInline(hidden: boolean) {
    const listeners: Record<string, () => void> = {};
    let observerCallback: ((list: unknown, observer: unknown) => void) | undefined;
    let observed: unknown;
    let disconnected = false;
    const calls: string[] = [];
    class FakePerformanceObserver {
      static supportedEntryTypes = ['paint', 'navigation'];
      constructor(callback: (list: unknown, observer: unknown) => void) {
        observerCallback = callback;
      }
      observe(options: unknown) {
        observed = options;
      }
      disconnect() {
        disconnected = true;
      }
    }
    const globalThisStandIn = { PerformanceObserver: FakePerformanceObserver };
    new Function(
      'addEventListener',
      'document',
      'globalThis',
      'PerformanceObserver',
      'start',
      afterLoadAndPaint('start()'),
    )(
      (type: string, listener: () => void) => (listeners[type] = listener),
      { hidden },
      globalThisStandIn,
      FakePerformanceObserver,
      () => calls.push('start'),
    );
    const paint = (name: string) =>
      observerCallback?.(
        { getEntriesByName: (wanted: string) => (wanted === name ? [{ name }] : []) },
        { disconnect: () => (disconnected = true) },
      );
    return { listeners, calls, paint, observed: () => observed, disconnected: () => disconnected };
  }

  it('starts the script after the load event and the first contentful paint, once', () => {
    const page = runInline(false);
    expect(page.calls).toEqual([]);
    page.listeners.load!();
    expect(page.observed()).toEqual({ type: 'paint', buffered: true });
    page.paint('first-paint');
    expect(page.calls).toEqual([]);
    page.paint('first-contentful-paint');
    expect(page.calls).toEqual(['start']);
    expect(page.disconnected()).toBe(true);
  });

  it('starts the script on the load event alone when the page is hidden (it does not paint)', () => {
    const page = runInline(true);
    page.listeners.load!();
    expect(page.calls).toEqual(['start']);
    expect(page.observed()).toBeUndefined();
  });

  it("makes Astro's island runtime inline modules, which run once the document is parsed", () => {
    const directive =
      '(()=>{var s=o=>{};(self.Astro||(self.Astro={})).afterload=s;window.dispatchEvent(new Event("astro:afterload"));})();\n';
    const html = `<main><style>${ISLAND_STYLES}</style><script>${directive}</script><script>${islandScript}</script><astro-island uid="a"></astro-island></main>`;
    expect(deferPageScripts(html)).toEqual({
      html: `<main><style>${ISLAND_STYLES}</style><script type="module">${directive}</script><script type="module">${islandScript}</script><astro-island uid="a"></astro-island></main>`,
      scripts: [directive, islandScript],
      styles: [ISLAND_STYLES],
    });
  });

  it('records no script or style an owner typed into an attribute value', () => {
    // As Astro writes an attribute: only & and " are escaped.
    const typed = `Glass</script><script>alert(1)</script><style>${ISLAND_STYLES}</style><script>alert(2)</script><script>${islandScript.replaceAll('"', '&quot;')}</script>`;
    const html = `<meta property="og:site_name" content="${typed}"><script type="module" src="/assets/site.Ab1.js"></script>`;
    const page = deferPageScripts(html);
    expect(page.html).toContain(`content="${typed}"`);
    expect(page.scripts).toEqual([afterLoadAndPaint('import("/assets/site.Ab1.js")')]);
    expect(page.styles).toEqual([]);
  });

  it('inlines the one rule the islands hydrate on, whole and without comments', () => {
    const code = afterLoadAndPaint('start()');
    expect(code).toContain('first-contentful-paint');
    expect(code).toContain('document.readyState');
    // Folded onto one line: a comment would swallow the rest of the code.
    expect(code).not.toMatch(/\/\/|\/\*/);
    expect(() => new Function(code)).not.toThrow();
  });

  it("takes the island's directive from Astro's runtime back, never from typed text before it", () => {
    const directive = '(()=>{(self.Astro||(self.Astro={})).afterload=()=>{};})();';
    const typed = `Glass<style>${ISLAND_STYLES}</style><script>alert(1)`;
    const html =
      `<meta property="og:site_name" content="${typed}"><main>` +
      `<style>${ISLAND_STYLES}</style><script>${directive}</script><script>${islandScript}</script>` +
      '<astro-island uid="a"></astro-island></main>';
    const page = deferPageScripts(html);
    expect(page.scripts).toEqual([directive, islandScript]);
    expect(page.html).toBe(
      `<meta property="og:site_name" content="${typed}"><main>` +
        `<style>${ISLAND_STYLES}</style><script type="module">${directive}</script><script type="module">${islandScript}</script>` +
        '<astro-island uid="a"></astro-island></main>',
    );
  });

  it('leaves inline scripts, data blocks and other tags alone', () => {
    const html =
      '<script type="application/ld+json">{}</script><script>(()=>{})()</script>' +
      '<link rel="stylesheet" href="/assets/a.css">';
    expect(deferPageScripts(html)).toEqual({ html, scripts: [], styles: [] });
  });
});

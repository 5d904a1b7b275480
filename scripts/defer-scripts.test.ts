import { describe, expect, it } from 'vitest';
import { afterLoadAndPaint, deferPageScripts } from './defer-scripts.ts';

describe('deferPageScripts', () => {
  it('turns each module script of a page into an import once the page has loaded and painted', () => {
    const html =
      '<main><p>x</p></main><script type="module" src="/assets/site.Ab1.js"></script>' +
      '<script type="module" src="/assets/thank-you.Cd2.js"></script></body>';
    expect(deferPageScripts(html)).toBe(
      '<main><p>x</p></main>' +
        `<script type="module">${afterLoadAndPaint('import("/assets/site.Ab1.js")')}</script>` +
        `<script type="module">${afterLoadAndPaint('import("/assets/thank-you.Cd2.js")')}</script></body>`,
    );
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
    const island =
      '(()=>{var a=1;if(a<2){customElements.get("astro-island")||customElements.define("astro-island",class extends HTMLElement{})}})();';
    const html = `<main><script>${directive}</script><script>${island}</script><astro-island></astro-island></main>`;
    expect(deferPageScripts(html)).toBe(
      `<main><script type="module">${directive}</script><script type="module">${island}</script><astro-island></astro-island></main>`,
    );
  });

  it('inlines the one rule the islands hydrate on, whole and without comments', () => {
    const code = afterLoadAndPaint('start()');
    expect(code).toContain('first-contentful-paint');
    expect(code).toContain('document.readyState');
    // Folded onto one line: a comment would swallow the rest of the code.
    expect(code).not.toMatch(/\/\/|\/\*/);
    expect(() => new Function(code)).not.toThrow();
  });

  it('leaves inline scripts, data blocks and other tags alone', () => {
    const html =
      '<script type="application/ld+json">{}</script><script>(()=>{})()</script>' +
      '<link rel="stylesheet" href="/assets/a.css">';
    expect(deferPageScripts(html)).toBe(html);
  });
});

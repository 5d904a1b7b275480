import { describe, expect, it } from 'vitest';
import { deferBootstrap, deferHydration, DeferHydrationError } from './defer-hydration.ts';

// The shape React Router 8.4 writes into a prerendered page.
const bootstrap = `import "/assets/manifest-7d20b73d.js";
import * as route0 from "/assets/root-CViPPp-K.js";
import * as route1_clientAction from "/assets/home-BjOtSZmK.js";
import * as route1_main from "/assets/home-main-QyWDptI0.js";
const route1 = {...route1_clientAction,...route1_main};
  
  window.__reactRouterRouteModules = {"root":route0,"routes/home":route1};

import("/assets/entry.client-zaxWkgUJ.js");`;

const page = `<!DOCTYPE html><html lang="en-NZ"><head><meta charSet="utf-8"/>
<link rel="stylesheet" href="/assets/app.css"/><link rel="modulepreload" href="/assets/manifest-7d20b73d.js"/><link rel="modulepreload" href="/assets/entry.client-zaxWkgUJ.js"/><link rel="modulepreload" href="/assets/react-DlmbjZJV.js"/></head>
<body><main><h1>Glass</h1></main><script>window.__reactRouterContext = {};</script><script type="module" async="">${bootstrap}</script><script>window.__reactRouterContext.streamController.close();</script></body></html>`;

describe('deferBootstrap', () => {
  it('imports the same modules, in order, bound to the same names, after load', () => {
    const deferred = deferBootstrap(bootstrap);
    expect(deferred).toContain(
      'Promise.all([import("/assets/manifest-7d20b73d.js"),import("/assets/root-CViPPp-K.js"),import("/assets/home-BjOtSZmK.js"),import("/assets/home-main-QyWDptI0.js")])',
    );
    expect(deferred).toContain('.then(([_unused0,route0,route1_clientAction,route1_main])=>{');
    expect(deferred).toContain('window.__reactRouterRouteModules = {"root":route0');
    expect(deferred).toContain('import("/assets/entry.client-zaxWkgUJ.js");');
    expect(deferred).toContain('addEventListener("load",hydrate,{once:true})');
    expect(deferred).not.toMatch(/^import /m);
  });

  it('is valid JavaScript once the dynamic imports are stood in for', () => {
    const deferred = deferBootstrap(bootstrap).replace(/\bimport\(/g, 'load(');
    // Parses and runs the body with a fake document, window and loader.
    const loaded: string[] = [];
    const listeners: (() => void)[] = [];
    const windowStub: Record<string, unknown> = {};
    const run = new Function(
      'document',
      'addEventListener',
      'window',
      'load',
      `return (async () => { ${deferred} })();`,
    ) as (...args: unknown[]) => Promise<void>;
    return run(
      { readyState: 'loading' },
      (type: string, listener: () => void) => type === 'load' && listeners.push(listener),
      windowStub,
      (url: string) => {
        loaded.push(url);
        return Promise.resolve({ module: url });
      },
    ).then(async () => {
      expect(loaded).toEqual([]);
      expect(listeners).toHaveLength(1);
      listeners[0]!();
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(loaded).toEqual([
        '/assets/manifest-7d20b73d.js',
        '/assets/root-CViPPp-K.js',
        '/assets/home-BjOtSZmK.js',
        '/assets/home-main-QyWDptI0.js',
        '/assets/entry.client-zaxWkgUJ.js',
      ]);
      expect(windowStub.__reactRouterRouteModules).toEqual({
        root: { module: '/assets/root-CViPPp-K.js' },
        'routes/home': {
          module: '/assets/home-main-QyWDptI0.js',
        },
      });
    });
  });

  it('refuses a bootstrap of another shape', () => {
    expect(() => deferBootstrap('import("/assets/entry.js");')).toThrow(DeferHydrationError);
    expect(() =>
      deferBootstrap(
        'import * as route0 from "/a.js";\nimport { x } from "/b.js";\nimport("/e.js");',
      ),
    ).toThrow(/another form/);
    expect(() => deferBootstrap('import * as route0 from "/a.js";\nwindow.x = route0;')).toThrow(
      /entry/,
    );
  });
});

describe('deferHydration', () => {
  it('drops the modulepreload links and rewrites only the module script', () => {
    const html = deferHydration(page);
    expect(html).not.toContain('modulepreload');
    expect(html).toContain('<link rel="stylesheet" href="/assets/app.css"/>');
    expect(html).toContain('<script>window.__reactRouterContext = {};</script>');
    expect(html).toContain('<script type="module" async="">const hydrate=()=>');
    expect(html).toContain('<main><h1>Glass</h1></main>');
  });

  it('fails when the page has no bootstrap script, or more than one', () => {
    expect(() => deferHydration('<html><body></body></html>')).toThrow(/found 0/);
    expect(() =>
      deferHydration(page.replace('</body>', `<script type="module" async="">x</script></body>`)),
    ).toThrow(/found 2/);
  });
});

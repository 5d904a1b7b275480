import { describe, expect, it } from 'vitest';
import { deferPageScripts } from './defer-scripts.ts';

describe('deferPageScripts', () => {
  it('turns each module script of a page into an import on the load event', () => {
    const html =
      '<main><p>x</p></main><script type="module" src="/assets/site.Ab1.js"></script>' +
      '<script type="module" src="/assets/thank-you.Cd2.js"></script></body>';
    expect(deferPageScripts(html)).toBe(
      '<main><p>x</p></main>' +
        '<script type="module">addEventListener("load",()=>import("/assets/site.Ab1.js"),{once:true})</script>' +
        '<script type="module">addEventListener("load",()=>import("/assets/thank-you.Cd2.js"),{once:true})</script></body>',
    );
  });

  it('leaves inline scripts, data blocks and other tags alone', () => {
    const html =
      '<script type="application/ld+json">{}</script><script>(()=>{})()</script>' +
      '<link rel="stylesheet" href="/assets/a.css">';
    expect(deferPageScripts(html)).toBe(html);
  });
});

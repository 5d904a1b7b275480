import { get } from 'node:http';

/**
 * The JavaScript budgets
 * (docs/decisions/0002-precompressed-assets-and-a-js-budget.md), as a
 * browser receives it (brotli): every script a page has fetched once it is
 * ready (its islands hydrated) and idle. A page with a lead form or the blog search (a React
 * island) may have 71 KiB; any other page 15 KiB (the site's own module and
 * what it starts: menus, carousels, analytics). The forms' proof of work
 * (docs/decisions/0015-invisible-proof-of-work-with-altcha.md) took the
 * contact and quote pages from 69.9 to 70.1 KiB: its solver and worker load
 * only on focus. Keeping where the visit came from (app/browser/visit.ts, in
 * the site module) added 356 bytes: pages without a form 6.3 to 6.6 KiB, the
 * contact and quote pages 70.6 to 70.9 KiB.
 */
export const ISLAND_PAGE_JS_BUDGET_BYTES = 71 * 1024;
export const PLAIN_PAGE_JS_BUDGET_BYTES = 15 * 1024;

/** The pages with an island: the three lead forms and the blog lists. */
export function hasIsland(pagePath: string): boolean {
  return (
    ['/', '/contact', '/quote', '/blog'].includes(pagePath) ||
    pagePath.startsWith('/blog/category/')
  );
}

/** Bytes on the wire for one URL, with the given Accept-Encoding. */
export function transferSize(
  url: string,
  encoding: string,
): Promise<{ bytes: number; encoding?: string }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'Accept-Encoding': encoding } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve({ bytes, encoding: response.headers['content-encoding'] }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

import { get } from 'node:http';
import { expect, test } from '@playwright/test';
import { E2E_BASE_URL } from './support/env.ts';

/**
 * The home page's JavaScript budget: at most 110 KiB as a browser receives it
 * (brotli). Counted: every script the page loads before it is interactive
 * (the inline bootstrap's imports and all their static imports).
 */
export const HOME_JS_BUDGET_BYTES = 110 * 1024;

/** Bytes on the wire for one URL, with the given Accept-Encoding. */
function transferSize(
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

/**
 * The modules a page's bootstrap script loads before the page is interactive:
 * the bootstrap's own imports and, transitively, every static import of those
 * modules (lazy `import()`s inside them are left out, as the browser does).
 */
async function staticModuleGraph(
  html: string,
  fetchText: (url: string) => Promise<string>,
): Promise<Set<string>> {
  const bootstrap = /<script type="module"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
  const queue = [...bootstrap.matchAll(/(?:import\(|from |import )"([^"]+\.js)"/g)].map(
    (match) => match[1]!,
  );
  const urls = new Set<string>();
  while (queue.length > 0) {
    const url = queue.shift()!;
    if (urls.has(url)) continue;
    urls.add(url);
    const code = await fetchText(url);
    // Minified ES modules: `import{a as b}from"./x.js"` and `import"./x.js"`.
    for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*)"(\.\.?\/[^"]+\.js)"/g)) {
      queue.push(new URL(match[1]!, `http://site${url}`).pathname);
    }
  }
  return urls;
}

test('home page JavaScript stays within its compressed budget', async ({ request }) => {
  const html = await (await request.get('/')).text();
  const urls = await staticModuleGraph(html, async (url) => (await request.get(url)).text());
  // entry.client, React, React Router and the home route at least.
  expect(urls.size).toBeGreaterThan(10);
  expect([...urls].some((url) => url.includes('entry.client'))).toBe(true);

  let brotli = 0;
  let raw = 0;
  for (const url of urls) {
    const compressed = await transferSize(`${E2E_BASE_URL}${url}`, 'br');
    if (compressed.bytes > 1024) expect(compressed.encoding, url).toBe('br');
    brotli += compressed.bytes;
    raw += (await transferSize(`${E2E_BASE_URL}${url}`, 'identity')).bytes;
  }
  console.log(
    `home JS: ${urls.size} files, ${(raw / 1024).toFixed(1)} KiB raw, ${(brotli / 1024).toFixed(1)} KiB brotli (budget ${HOME_JS_BUDGET_BYTES / 1024} KiB)`,
  );
  expect(brotli).toBeLessThanOrEqual(HOME_JS_BUDGET_BYTES);
});

// Decision 0004: the first paint gets the bandwidth; hydration follows the load event.
for (const pagePath of ['/', '/services/windows', '/blog/double-pane-window-repair']) {
  test(`${pagePath} fetches its JavaScript only after it has loaded, then hydrates`, async ({
    page,
    request,
  }) => {
    const html = await (await request.get(pagePath)).text();
    expect(html).not.toContain('rel="modulepreload"');

    await page.goto(pagePath);
    await expect(page.locator('html[data-js="on"]')).toBeAttached();
    const timing = await page.evaluate(() => {
      const [navigation] = performance.getEntriesByType(
        'navigation',
      ) as PerformanceNavigationTiming[];
      const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
        .map((entry) => ({ url: entry.name, startTime: entry.startTime }));
      return { loadEventStart: navigation!.loadEventStart, scripts };
    });
    expect(timing.scripts.length).toBeGreaterThan(5);
    for (const script of timing.scripts) {
      expect(script.startTime, script.url).toBeGreaterThanOrEqual(timing.loadEventStart);
    }
  });
}

import { get } from 'node:http';
import { expect, test } from '@playwright/test';
import { E2E_BASE_URL } from './support/env.ts';

/**
 * The home page's JavaScript budget: at most 110 KiB as a browser receives it
 * (brotli). Counted: every script the page loads before it is interactive
 * (module scripts, modulepreloads, the inline bootstrap's imports).
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

test('home page JavaScript stays within its compressed budget', async ({ request }) => {
  const html = await (await request.get('/')).text();
  const urls = new Set<string>();
  for (const match of html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g))
    urls.add(match[1]!);
  for (const match of html.matchAll(/<script[^>]+src="([^"]+)"/g)) urls.add(match[1]!);
  for (const match of html.matchAll(/import\("([^"]+\.js)"\)/g)) urls.add(match[1]!);
  for (const match of html.matchAll(/from "([^"]+\.js)"/g)) urls.add(match[1]!);
  expect(urls.size).toBeGreaterThan(0);

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

import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogger, tempDataDir } from '../app/leads/testing/test-support.server.ts';
import { createRelease, publishRelease } from './build-releases.ts';
import { parseEnv } from './env.server.ts';
import {
  OWNER_TEXT_SITE_URL,
  ownerTextBuild,
  SCRIPT_LIKE_NAME,
} from './testing/site-build-test-support.server.ts';
import { ServedSite } from './site-release.server.ts';

/**
 * Nothing an owner types widens the Content Security Policy: a business name that looks like a script is published, the site
 * is built for real (`node scripts/build.ts`), and every hash in every
 * page's CSP must be the hash of an inline script or style element in that
 * page's DOM, as a real HTML parser (jsdom's parse5) reads it. The build
 * is the one job-photo-copies.server.test.ts serves (ownerTextBuild, made
 * once per run), which also has a job photo on a service page.
 */

const scratch = tempDataDir('csp-owner-text-');
const SITE_URL = OWNER_TEXT_SITE_URL;
const TYPED = SCRIPT_LIKE_NAME;

const sha = (body: string) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`;

/** The hashes of the inline code a browser would run or apply on a page, from its DOM. */
function domHashes(html: string): { scripts: Set<string>; styles: Set<string> } {
  const { document } = new JSDOM(html).window;
  const scripts = new Set<string>();
  for (const script of document.querySelectorAll('script:not([src])')) {
    const type = script.getAttribute('type')?.toLowerCase();
    if (type && type !== 'module' && type !== 'text/javascript') continue;
    if (script.textContent) scripts.add(sha(script.textContent));
  }
  const styles = new Set<string>();
  for (const style of document.querySelectorAll('style')) {
    if (style.textContent) styles.add(sha(style.textContent));
  }
  return { scripts, styles };
}

/** The 'sha256-…' sources of one directive of a policy. */
function policyHashes(csp: string, directive: string): string[] {
  const part = csp.split('; ').find((entry) => entry.startsWith(`${directive} `)) ?? '';
  return part.split(' ').filter((source) => source.startsWith("'sha256-"));
}

let site: ServedSite;
let dataDir: string;

beforeAll(async () => {
  const build = await ownerTextBuild();
  dataDir = build.folders.dataDir;
  site = await ServedSite.open(build.folders.buildDir, {
    env: parseEnv({ SITE_URL, DATA_DIR: dataDir }),
    logger: captureLogger().logger,
  });
}, 600_000);

afterAll(() => {
  site?.close();
  scratch.remove();
});

describe('a business name that looks like a script', () => {
  it('is on the pages as text in attributes, never as an element', () => {
    const html = readFileSync(path.join(site.current.dir, 'client/index.html'), 'utf8');
    // The page carries the name (Open Graph's site name, in an attribute)…
    expect(html).toContain(TYPED);
    // …and the browser makes no script of it.
    expect(domHashes(html).scripts).not.toContain(sha('alert(1)'));
  });

  it("adds nothing to any page's CSP: every hash is of an inline element in that page's DOM", () => {
    const allScripts = new Set<string>();
    const allStyles = new Set<string>();
    expect(site.current.pages.size).toBeGreaterThan(20);
    for (const [urlPath, page] of site.current.pages) {
      const dom = domHashes(readFileSync(path.join(site.current.dir, 'client', page.file), 'utf8'));
      dom.scripts.forEach((hash) => allScripts.add(hash));
      dom.styles.forEach((hash) => allStyles.add(hash));
      expect({ urlPath, hashes: policyHashes(page.csp, 'script-src').sort() }).toEqual({
        urlPath,
        hashes: [...dom.scripts].sort(),
      });
      expect({ urlPath, hashes: policyHashes(page.csp, 'style-src').sort() }).toEqual({
        urlPath,
        hashes: [...dom.styles].sort(),
      });
    }
    // A page rendered on request (/admin, the 404 page) allows what the prerendered ones have.
    const rendered = site.current.renderedPageCsp;
    expect(policyHashes(rendered, 'script-src')).not.toContain(sha('alert(1)'));
    expect(policyHashes(rendered, 'style-src')).not.toContain(sha('body{display:none}'));
    for (const hash of policyHashes(rendered, 'script-src')) expect(allScripts).toContain(hash);
    for (const hash of policyHashes(rendered, 'style-src')) expect(allStyles).toContain(hash);
  });
});

describe('a release built before its inline code was recorded', () => {
  it('allows no inline script, and the log says its pages run without JavaScript', async () => {
    const dir = path.join(scratch.dir, 'old');
    const release = createRelease(dir);
    mkdirSync(path.join(release, 'client'));
    writeFileSync(
      path.join(release, 'client/index.html'),
      '<!doctype html><title>Home</title><script type="module">import("/assets/a.js")</script>',
    );
    mkdirSync(path.join(release, 'server'));
    writeFileSync(
      path.join(release, 'server/entry.mjs'),
      "export function handler(_req, res) { res.statusCode = 404; res.end('not found'); }\n",
    );
    publishRelease(dir, release);
    const log = captureLogger('info');
    const old = await ServedSite.open(dir, {
      env: parseEnv({ SITE_URL, DATA_DIR: dataDir }),
      logger: log.logger,
    });
    try {
      expect(policyHashes(old.current.pages.get('/')!.csp, 'script-src')).toEqual([]);
      expect(log.entries().map((entry) => entry.msg)).toContain(
        'this build recorded no inline scripts: its pages run without JavaScript until the next build',
      );
    } finally {
      old.close();
    }
  });
});

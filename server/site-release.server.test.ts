import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { published, refreshPublishedContent } from '../app/content/published.ts';
import { defaultSiteContent, type SiteContent } from '../app/content/site-content.ts';
import { captureLogger, tempDataDir } from '../app/leads/testing/test-support.server.ts';
import { createRelease, publishRelease } from './build-releases.ts';
import { parseEnv } from './env.server.ts';
import { ServedSite } from './site-release.server.ts';

/**
 * A publication changes data, never the running code
 * (docs/decisions/0011-content-is-data-not-code.md): the served site
 * imports the server bundle of the release it starts with, once; a switch
 * to a newer release serves its files and puts its content in place for
 * the pages, with the same code.
 */

const scratch = tempDataDir('served-site-');
afterAll(() => scratch.remove());

/** What the stand-in server bundles count: how many were imported in this process. */
const IMPORTS = Symbol.for('served-site-test.imports');
type Counted = { [IMPORTS]?: string[] };

let site: ServedSite | undefined;
afterEach(() => {
  site?.close();
  site = undefined;
  refreshPublishedContent();
});

/** A release whose server bundle says which release it is, and counts its import. */
function release(buildDir: string, name: string, content: SiteContent, version: number): string {
  const dir = createRelease(buildDir, new Date(Date.UTC(2026, 0, 1, 0, 0, version)));
  mkdirSync(path.join(dir, 'client'));
  writeFileSync(path.join(dir, 'client/index.html'), `<!doctype html><title>${name}</title>`);
  mkdirSync(path.join(dir, 'server'));
  writeFileSync(
    path.join(dir, 'server/entry.mjs'),
    `(globalThis[Symbol.for('served-site-test.imports')] ??= []).push(${JSON.stringify(name)});\n` +
      `export function handler(_req, res) { res.end(${JSON.stringify(name)}); }\n`,
  );
  mkdirSync(path.join(dir, 'content'));
  writeFileSync(
    path.join(dir, 'content/site-content.json'),
    JSON.stringify({ version, key: `v${version}`, content }),
  );
  writeFileSync(
    path.join(dir, 'build-stamp.json'),
    JSON.stringify({ content: { version, key: `v${version}` } }),
  );
  return dir;
}

const named = (name: string): SiteContent => ({
  ...defaultSiteContent,
  identity: { ...defaultSiteContent.identity, name },
});

describe('the served site', () => {
  it('switches files and content at each publication, never its code', async () => {
    const buildDir = path.join(scratch.dir, 'build');
    const first = release(buildDir, 'first', named('Kōwhai Glass'), 1);
    publishRelease(buildDir, first);
    const env = parseEnv({ SITE_URL: 'https://glass.example.com' });
    site = await ServedSite.open(buildDir, { env, logger: captureLogger().logger, graceMs: 0 });
    const render = site.current.render;
    refreshPublishedContent();
    expect(published()).toEqual({ version: 1, content: named('Kōwhai Glass') });

    for (let version = 2; version <= 6; version++) {
      const next = release(buildDir, `release ${version}`, named(`Rātā Glass ${version}`), version);
      publishRelease(buildDir, next);
      const served = await site.switchTo(buildDir);
      expect(served.dir).toBe(next);
      expect(served.files.root).toBe(path.join(next, 'client'));
      // The pages rendered from now on state the new content...
      refreshPublishedContent();
      expect(published()?.version).toBe(version);
      expect(published()?.content.identity.name).toBe(`Rātā Glass ${version}`);
      // ...with the code the server started with.
      expect(served.render).toBe(render);
    }
    expect((globalThis as Counted)[IMPORTS]).toEqual(['first']);
    expect(site.codeDir).toBe(first);
  });
});

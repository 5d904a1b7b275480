import { existsSync, readdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSiteContent } from '../app/content/site-content.ts';
import { captureLogger } from '../app/leads/testing/test-support.server.ts';
import { createApp } from './app.server.ts';
import { parseEnv } from './env.server.ts';
import { createRuntime } from './runtime.server.ts';
import {
  buildSite,
  OWNER_TEXT_SITE_URL,
  ownerTextBuild,
  publishSiteContent,
  sharedSiteBuildCopy,
} from './testing/site-build-test-support.server.ts';
import { ServedSite } from './site-release.server.ts';

/**
 * A job photo's public copies (the service page's "Recent work", resized
 * by Astro's image service) after the photo is taken off the site: real
 * builds (`node scripts/build.ts`) with one image cache, as the server's
 * publisher runs them. No copy of the photo stays in the cache, and its
 * copies are never cached by visitors for a year. The first build is the
 * one csp-owner-text.server.test.ts reads (ownerTextBuild, made once per
 * run); this file builds again on a copy of it.
 */

const SITE_URL = OWNER_TEXT_SITE_URL;

let scratch: ReturnType<typeof sharedSiteBuildCopy>;
let dataDir: string;
let buildDir: string;
let cacheDir: string;
let photoId: string;

/** The image cache's files (Astro's, under BUILD_CACHE_DIR). */
const cached = () => {
  const dir = path.join(cacheDir, 'astro/assets');
  return existsSync(dir) ? readdirSync(dir) : [];
};

beforeAll(async () => {
  const shared = await ownerTextBuild();
  photoId = shared.photoId;
  // A copy: the second build below replaces the release and prunes the cache.
  scratch = sharedSiteBuildCopy(shared.dir, 'job-photo-copies-');
  ({ dataDir, buildDir, cacheDir } = scratch.folders);
}, 600_000);

afterAll(() => scratch?.remove());

describe('a job photo on the site', () => {
  it('is served under names made from the photo, cached for an hour, not a year', async () => {
    const env = parseEnv({ SITE_URL, DATA_DIR: dataDir });
    const log = captureLogger('info');
    const site = await ServedSite.open(buildDir, { env, logger: log.logger, graceMs: 0 });
    const leads = await createRuntime(env, log.logger);
    const server = http.createServer(await createApp({ env, logger: log.logger, site, leads }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const html = await (await fetch(`${url}/services/windows`)).text();
      const copies = [...html.matchAll(/\/assets\/[^"\s,]+\.(?:avif|webp|jpg)/g)]
        .map((match) => match[0])
        .filter((src) => src.includes(photoId));
      expect(copies.length).toBeGreaterThan(2);
      for (const src of new Set(copies)) {
        // The photo's id and a hash of its bytes: another photo never has this name.
        expect(src).toMatch(
          new RegExp(`^/assets/${photoId}\\.[\\w-]{8}_[\\w-]+\\.(avif|webp|jpg)$`),
        );
        const response = await fetch(`${url}${src}`);
        expect(response.status).toBe(200);
        expect({ src, cache: response.headers.get('cache-control') }).toEqual({
          src,
          cache: 'public, max-age=3600',
        });
      }
      // Every other hashed asset stays cached for a year.
      const stylesheet = /href="(\/assets\/[^"]+\.css)"/.exec(html)![1]!;
      expect((await fetch(`${url}${stylesheet}`)).headers.get('cache-control')).toBe(
        'public, max-age=31536000, immutable',
      );
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await leads.close();
      site.close();
    }
  });

  it('leaves no copy in the image cache once a build no longer shows it', async () => {
    expect(cached().filter((file) => file.startsWith(photoId)).length).toBeGreaterThan(2);
    await publishSiteContent(dataDir, defaultSiteContent);
    await buildSite(scratch.folders, SITE_URL);
    expect(cached().filter((file) => file.startsWith(photoId))).toEqual([]);
    const assets = readdirSync(path.join(buildDir, 'client/assets'));
    expect(assets.filter((file) => file.startsWith(photoId))).toEqual([]);
  }, 300_000);
});

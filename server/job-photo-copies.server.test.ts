import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSiteContent, type SiteContent } from '../app/content/site-content.ts';
import { openSqliteStore } from '../app/db/store-sqlite.server.ts';
import { captureLogger, tempDataDir } from '../app/leads/testing/test-support.server.ts';
import { createApp } from './app.server.ts';
import { parseEnv } from './env.server.ts';
import { createRuntime } from './runtime.server.ts';
import { ServedSite } from './site-release.server.ts';

/**
 * A job photo's public copies (the service page's "Recent work", resized
 * by Astro's image service) after the photo is taken off the site: real
 * builds (`node scripts/build.ts`) with one image cache, as the server's
 * publisher runs them. No copy of the photo stays in the cache, and its
 * copies are never cached by visitors for a year.
 */

const root = path.resolve(import.meta.dirname, '..');
const scratch = tempDataDir('job-photo-copies-');
const dataDir = path.join(scratch.dir, 'leads');
const buildDir = path.join(scratch.dir, 'build');
const cacheDir = path.join(scratch.dir, 'cache');
const SITE_URL = 'https://glass.example.nz';

async function build(): Promise<void> {
  const output: string[] = [];
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [path.join(root, 'scripts/build.ts')], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        SITE_URL,
        DATA_DIR: dataDir,
        BUILD_DIR: buildDir,
        BUILD_CACHE_DIR: cacheDir,
        ASTRO_TELEMETRY_DISABLED: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.once('close', resolve);
  });
  expect(code, output.join('')).toBe(0);
}

/** Publishes `content` as the newest live version. */
async function publish(content: SiteContent): Promise<void> {
  const store = await openSqliteStore({ dataDir });
  try {
    const { version } = await store.createSiteContentVersion(content, null);
    await store.setSiteContentVersionState(version, 'live');
  } finally {
    await store.close();
  }
}

/** The image cache's files (Astro's, under BUILD_CACHE_DIR). */
const cached = () => {
  const dir = path.join(cacheDir, 'astro/assets');
  return existsSync(dir) ? readdirSync(dir) : [];
};

let photoId: string;

beforeAll(async () => {
  const store = await openSqliteStore({ dataDir });
  try {
    const jpeg = await sharp({
      create: { width: 800, height: 600, channels: 3, background: '#136a83' },
    })
      .jpeg()
      .toBuffer();
    ({ id: photoId } = await store.addSitePhoto({
      bytes: new Uint8Array(jpeg),
      width: 800,
      height: 600,
      ownerId: null,
    }));
  } finally {
    await store.close();
  }
  await publish({
    ...defaultSiteContent,
    jobPhotos: [{ photoId, service: 'windows', alt: 'A new lounge window' }],
  });
  await build();
}, 300_000);

afterAll(() => scratch.remove());

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
    await publish(defaultSiteContent);
    await build();
    expect(cached().filter((file) => file.startsWith(photoId))).toEqual([]);
    const assets = readdirSync(path.join(buildDir, 'client/assets'));
    expect(assets.filter((file) => file.startsWith(photoId))).toEqual([]);
  }, 300_000);
});

import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';
import { defaultSiteContent, type SiteContent } from '../../app/content/site-content.ts';
import { openSqliteStore } from '../../app/db/store-sqlite.server.ts';
import { eventually, tempDataDir } from '../../app/leads/testing/test-support.server.ts';
import { newestSourceMtime, sourcePaths } from '../../scripts/build-config.ts';

/**
 * Real builds (`node scripts/build.ts`) for tests, and one such build shared
 * by the test files that check the same thing of it. A build takes half a
 * minute or more on a loaded machine; the test files that need a build of
 * the same content and settings get one, made once per `vitest run` (by
 * whichever file asks first; the others wait for it) into a folder that
 * vitest.config.ts's global setup makes and removes. A test reads the shared
 * build in place, or works on a copy of it (sharedSiteBuildCopy).
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where this run's shared builds go (see setup below). */
    sharedSiteBuildsDir: string;
  }
}

const root = path.resolve(import.meta.dirname, '../..');

/** The folders a build reads and writes, as build.ts takes them from the environment. */
export interface SiteBuildFolders {
  /** DATA_DIR: the SQLite lead store the site content is read from. */
  dataDir: string;
  /** BUILD_DIR: the link to the release built. */
  buildDir: string;
  /** BUILD_CACHE_DIR: Astro's image cache among others. */
  cacheDir: string;
}

export const siteBuildFolders = (dir: string): SiteBuildFolders => ({
  dataDir: path.join(dir, 'leads'),
  buildDir: path.join(dir, 'build'),
  cacheDir: path.join(dir, 'cache'),
});

/** `node scripts/build.ts` on `folders`, as the server's publisher runs it; throws with its output if it fails. */
export async function buildSite(folders: SiteBuildFolders, siteUrl: string): Promise<void> {
  const output: string[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'scripts/build.ts')], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        SITE_URL: siteUrl,
        DATA_DIR: folders.dataDir,
        BUILD_DIR: folders.buildDir,
        BUILD_CACHE_DIR: folders.cacheDir,
        ASTRO_TELEMETRY_DISABLED: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`the build failed (${code}):\n${output.join('')}`);
}

/** Publishes `content` as the newest live version in the store in `dataDir`. */
export async function publishSiteContent(dataDir: string, content: SiteContent): Promise<void> {
  const store = await openSqliteStore({ dataDir });
  try {
    const { version } = await store.createSiteContentVersion(content, null);
    await store.setSiteContentVersionState(version, 'live');
  } finally {
    await store.close();
  }
}

/** Vitest's global setup: the folder for this run's shared builds, removed when the run ends. */
export function setup(project: TestProject): () => void {
  const dir = mkdtempSync(path.join(tmpdir(), 'glass-shared-builds-'));
  project.provide('sharedSiteBuildsDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}

const DONE = 'shared-build.json';
const FAILED = 'shared-build-failed.txt';

/**
 * The shared build called `name`, made by `make` in an empty folder the
 * first time any test file of this run asks for it; later callers wait for
 * it. The folder is named by the newest of the build's sources too, so a
 * run that goes on (vitest's watch mode) builds again once they change.
 */
async function sharedSiteBuild<T>(
  name: string,
  make: (dir: string) => Promise<T>,
): Promise<{ dir: string; made: T }> {
  const buildsDir = inject('sharedSiteBuildsDir');
  if (!buildsDir) {
    throw new Error('No folder for shared builds: run Vitest with vitest.config.ts (globalSetup)');
  }
  const sources = newestSourceMtime([
    ...sourcePaths,
    path.join(root, 'scripts'),
    path.join(root, 'server'),
  ]);
  const dir = path.join(buildsDir, `${name}-${Math.trunc(sources)}`);
  try {
    // Whoever makes the folder makes the build.
    mkdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Waits on the build, a ceiling for a loaded machine.
    await eventually(
      () => {
        if (!existsSync(path.join(dir, DONE)) && !existsSync(path.join(dir, FAILED))) {
          throw new Error(`the shared build ${name} is not done`);
        }
      },
      600_000,
      250,
    );
    if (existsSync(path.join(dir, FAILED))) {
      throw new Error(readFileSync(path.join(dir, FAILED), 'utf8'));
    }
    return { dir, made: JSON.parse(readFileSync(path.join(dir, DONE), 'utf8')) as T };
  }
  try {
    const made = await make(dir);
    // Written whole, then renamed: a waiting file never reads half of it.
    writeFileSync(path.join(dir, `${DONE}.tmp`), JSON.stringify(made));
    renameSync(path.join(dir, `${DONE}.tmp`), path.join(dir, DONE));
    return { dir, made };
  } catch (error) {
    writeFileSync(path.join(dir, FAILED), (error as Error).stack ?? String(error));
    throw error;
  }
}

/**
 * A copy of a shared build's folders in a folder of the caller's, for a test
 * that builds again or publishes on top of it. The release link is relative
 * (server/build-releases.ts), so the copy links to its own release.
 */
export function sharedSiteBuildCopy(shared: string, prefix: string) {
  const scratch = tempDataDir(prefix);
  cpSync(shared, scratch.dir, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (source) => ![DONE, `${DONE}.tmp`].includes(path.basename(source)),
  });
  return { ...scratch, folders: siteBuildFolders(scratch.dir) };
}

/** What an owner typed for the business name, shaped like a script and a style. */
export const SCRIPT_LIKE_NAME =
  'Glass</script><script>alert(1)</script><style>body{display:none}</style>';

export const OWNER_TEXT_SITE_URL = 'https://glass.example.nz';

export interface OwnerTextBuild {
  /** The build's folders: read them, never write (copy them with sharedSiteBuildCopy). */
  readonly folders: SiteBuildFolders;
  /** The folder holding them. */
  readonly dir: string;
  /** The job photo on the windows service page. */
  readonly photoId: string;
}

/**
 * A real build of what an owner may put on the site, shared by the tests of
 * what it must not do: the business name SCRIPT_LIKE_NAME
 * (server/csp-owner-text.server.test.ts) and a job photo on the windows
 * service page (server/job-photo-copies.server.test.ts), published in a
 * SQLite store and built for OWNER_TEXT_SITE_URL with an image cache of its own.
 */
export async function ownerTextBuild(): Promise<OwnerTextBuild> {
  const { dir, made } = await sharedSiteBuild('owner-text', async (dir) => {
    const folders = siteBuildFolders(dir);
    const store = await openSqliteStore({ dataDir: folders.dataDir });
    let photoId: string;
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
    await publishSiteContent(folders.dataDir, {
      ...defaultSiteContent,
      identity: { ...defaultSiteContent.identity, name: SCRIPT_LIKE_NAME },
      jobPhotos: [{ photoId, service: 'windows', alt: 'A new lounge window' }],
    });
    await buildSite(folders, OWNER_TEXT_SITE_URL);
    return { photoId };
  });
  return { dir, folders: siteBuildFolders(dir), photoId: made.photoId };
}

import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import {
  checkSiteContent,
  contentKey,
  defaultSiteContent,
  describeProblems,
  visibleContent,
  type SiteContent,
} from '../app/content/site-content.ts';
import { SQLITE_FILE_NAME } from '../app/db/store-sqlite.server.ts';
import { type AppStore } from '../app/db/store.server.ts';
import { openStore } from '../app/db/open-store.server.ts';
import { currentRelease } from './build-releases.ts';

/**
 * What a build is made from (docs/operations.md#site-content): a version of
 * the site content from the store, or the shipped defaults (version 0).
 * scripts/build.ts writes it into the release; scripts/ensure-build.ts and
 * the builder's publisher compare `desiredSiteBuild` with the build stamp.
 */

/** What the served build should show now: its content version and key. */
export interface SiteBuildTarget {
  version: number;
  /** contentKey(): changes when an offer ends or a notice starts or ends. */
  key: string;
}

/** The file the build writes and astro.config.ts reads (SITE_CONTENT_FILE). */
export interface BuiltContentFile {
  version: number;
  key: string;
  /** The content as visible when it was built (visibleContent). */
  content: SiteContent;
}

export const CONTENT_DIR_NAME = 'content';
export const CONTENT_FILE_NAME = 'site-content.json';
export const PHOTOS_DIR_NAME = 'photos';

/** A content version the build cannot use: the reason, for the build's output. */
export class SiteContentBuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SiteContentBuildError';
  }
}

/**
 * The store as the CLIs open it (DATABASE_URL, else the embedded store
 * in DATA_DIR), or null when there is no embedded store yet: nothing was
 * ever published, and a build creates no store. An unreachable PostgreSQL
 * is an error, never the defaults: the site would lose the owner's content.
 */
export async function openStoreForBuild(env: {
  DATA_DIR: string;
  DATABASE_URL?: string | undefined;
}): Promise<AppStore | null> {
  if (!env.DATABASE_URL && !existsSync(path.join(env.DATA_DIR, SQLITE_FILE_NAME))) return null;
  return openStore({ dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL });
}

/** The newest live version, or the defaults as version 0. */
async function newestLive(
  store: AppStore | null,
): Promise<{ version: number; content: SiteContent }> {
  const live = store ? await store.newestLiveSiteContent() : null;
  return live
    ? { version: live.version, content: live.content }
    : { version: 0, content: defaultSiteContent };
}

/** What the site should be built from at `now`: the newest live version (or the defaults) and its key. */
export async function desiredSiteBuild(
  store: AppStore | null,
  now: Date,
): Promise<SiteBuildTarget> {
  const { version, content } = await newestLive(store);
  return { version, key: contentKey(version, content, now) };
}

/**
 * The content a build uses: `requested` (SITE_CONTENT_VERSION) when given,
 * else the newest live version, else the defaults (version 0), checked
 * with the site content schema.
 */
export async function contentForBuild(
  store: AppStore | null,
  requested: number | undefined,
  now: Date,
): Promise<BuiltContentFile> {
  let chosen: { version: number; content: unknown };
  if (requested === undefined) {
    chosen = await newestLive(store);
  } else if (requested === 0) {
    chosen = { version: 0, content: defaultSiteContent };
  } else {
    const stored = store ? await store.siteContentVersion(requested) : null;
    if (!stored)
      throw new SiteContentBuildError(`Site content version ${requested} does not exist`);
    chosen = stored;
  }
  const checked = checkSiteContent(chosen.content);
  if (!checked.ok) {
    throw new SiteContentBuildError(
      `Site content version ${chosen.version} is not valid:\n${describeProblems(checked.problems)}`,
    );
  }
  return {
    version: chosen.version,
    key: contentKey(chosen.version, checked.content, now),
    content: visibleContent(checked.content, now),
  };
}

/** SITE_CONTENT_VERSION as a version number, or undefined when unset. */
export function requestedVersion(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const version = Number(value);
  if (!Number.isSafeInteger(version) || version < 0) {
    throw new SiteContentBuildError(
      `SITE_CONTENT_VERSION must be a version number (0 for the defaults), not “${value}”`,
    );
  }
  return version;
}

/**
 * Writes the content file and the job photos it names (`<dir>/photos/<id>.jpg`)
 * into `dir`; returns the content file's path.
 */
export async function writeContentFiles(
  dir: string,
  built: BuiltContentFile,
  store: AppStore | null,
): Promise<string> {
  const photos = path.join(dir, PHOTOS_DIR_NAME);
  mkdirSync(photos, { recursive: true });
  for (const photo of built.content.jobPhotos) {
    const stored = store ? await store.sitePhoto(photo.photoId) : null;
    if (!stored) {
      throw new SiteContentBuildError(
        `Site content version ${built.version} names a job photo that is not stored: ${photo.photoId}`,
      );
    }
    writeFileSync(path.join(photos, `${photo.photoId}.jpg`), stored.bytes);
  }
  const file = path.join(dir, CONTENT_FILE_NAME);
  writeFileSync(file, `${JSON.stringify(built, null, 2)}\n`);
  return file;
}

/**
 * What the builder's publisher (server/site-publisher.server.ts) should build:
 * a version an owner has just published (still `publishing`: its build has
 * not yet succeeded anywhere) when it is the newest, else the newest live
 * version as `desiredSiteBuild` says. A failed version is passed over.
 *
 * With `host` (docs/operations.md#several-hosts), the newest version also
 * when it is live on another host (and this host's failed build of it is
 * retried, after the publisher's back-off), or failed on others but not
 * yet tried here: one host's failure never rolls back or holds back another.
 */
export async function siteBuildToPublish(
  store: AppStore,
  now: Date,
  host?: string,
): Promise<SiteBuildTarget> {
  const [newest] = await store.listSiteContentVersions(1);
  let build = newest?.state === 'publishing';
  if (newest && host !== undefined && newest.state !== 'publishing') {
    const mine = (await store.listSiteBuilds(newest.version)).find(
      (row) => row.version === newest.version && row.host === host,
    );
    build = newest.state === 'live' || (newest.state === 'failed' && mine === undefined);
  }
  if (newest && build) {
    return { version: newest.version, key: contentKey(newest.version, newest.content, now) };
  }
  return desiredSiteBuild(store, now);
}

/** What a build uses when it cannot read the store, and where it came from. */
export interface FallbackContent {
  built: BuiltContentFile;
  /** The content file written into the build's folder. */
  file: string;
  /** The release whose content it is; undefined: the shipped defaults. */
  release?: string;
}

/**
 * The content of a build that cannot read the store (the database is
 * down while `npm start` or `npm run build` builds): the content of the
 * release BUILD_DIR serves, as the build that made it wrote it (its
 * `content/` folder, job photos included, with its version and key, so the
 * builder builds again once the store answers and shows
 * anything else), or the shipped defaults (version 0) when no release has
 * any. A site never stops serving because its database is down.
 */
export async function fallbackContent(
  buildDir: string,
  dir: string,
  now: Date,
): Promise<FallbackContent> {
  const release = currentRelease(buildDir);
  const served = release ? path.join(release, CONTENT_DIR_NAME) : undefined;
  if (served && existsSync(path.join(served, CONTENT_FILE_NAME))) {
    const built = JSON.parse(
      readFileSync(path.join(served, CONTENT_FILE_NAME), 'utf8'),
    ) as BuiltContentFile;
    const checked = checkSiteContent(built.content);
    if (checked.ok) {
      cpSync(served, dir, { recursive: true });
      return {
        built: { version: built.version, key: built.key, content: checked.content },
        file: path.join(dir, CONTENT_FILE_NAME),
        release,
      };
    }
  }
  const built = await contentForBuild(null, 0, now);
  return { built, file: await writeContentFiles(dir, built, null) };
}

/**
 * A job photo's files in a build and in Astro's image cache: named by the
 * photo's id, then a hash of its bytes (`<id>.<hash>_<transform>.webp`),
 * so a name never stands for another photo.
 */
export const JOB_PHOTO_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\./;

/**
 * Deletes from Astro's image cache (`cacheAssetsDir`) every copy of a job
 * photo that the build just made (`clientAssetsDir`) does not have: the
 * resized copies of a photo taken off the site would otherwise stay there
 * through every later build. Returns the files deleted.
 */
export function pruneJobPhotoCache(cacheAssetsDir: string, clientAssetsDir: string): string[] {
  if (!existsSync(cacheAssetsDir)) return [];
  const built = new Set(existsSync(clientAssetsDir) ? readdirSync(clientAssetsDir) : []);
  const removed: string[] = [];
  for (const file of readdirSync(cacheAssetsDir)) {
    if (!JOB_PHOTO_FILE.test(file) || built.has(file)) continue;
    rmSync(path.join(cacheAssetsDir, file), { force: true });
    removed.push(file);
  }
  return removed;
}

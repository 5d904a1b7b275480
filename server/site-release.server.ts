import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger } from 'pino';
import { usePublishedContent } from '../app/content/published.ts';
import { defaultSiteContent, type SiteContent } from '../app/content/site-content.ts';
import { STAMP_FILE_NAME, type BuildStamp } from '../scripts/build-config.ts';
import {
  cspOptionsOf,
  loadSiteRelease,
  type AstroHandler,
  type SiteRelease,
} from './release-files.server.ts';
import { markInUse } from './build-releases.ts';
import { INLINE_CODE_FILE, type InlineCodeRecord } from './csp.server.ts';
import type { Env } from './env.server.ts';

/**
 * The release the server serves, replaceable while it runs
 * (docs/operations.md, "Publishing the site"). The server's code is the
 * server bundle of the release it started with, imported once: a
 * publication changes data, never the running code
 * (docs/decisions/0011-content-is-data-not-code.md). A new release is loaded
 * completely first (its files scanned, its pages' CSPs computed, its
 * content read), then it replaces the served one in one assignment, and its
 * content is put in place for the pages rendered from then on
 * (app/content/published.ts). A request already started finishes on the
 * files it started with. The served release is held (markInUse) so no build
 * prunes it, and so is the one whose code runs, for as long as the server
 * lives; a replaced release is let go after a grace period, when the
 * requests still on it have long finished, and the next build may delete it.
 */

/** What the build stamp says about the content a release was built from. */
export interface ContentStamp {
  version: number;
  key: string;
}

export type ReleaseStamp = BuildStamp & { content?: ContentStamp };

/** A release as loaded: what the app serves, and where it came from. */
export interface LoadedRelease extends SiteRelease {
  /** The release folder (its real path). */
  dir: string;
  stamp: ReleaseStamp | undefined;
  /** The content it was built from: what Node code reads of the site served. */
  content: SiteContent;
}

/** The path, in a release, of the content it was built from. */
export const RELEASE_CONTENT_FILE = 'content/site-content.json';

/** How long a replaced release stays held for requests still on it. */
export const DEFAULT_RELEASE_GRACE_MS = 60_000;

/** The build stamp of a release, if it has a readable one. */
export function readReleaseStamp(dir: string): ReleaseStamp | undefined {
  try {
    return JSON.parse(readFileSync(path.join(dir, STAMP_FILE_NAME), 'utf8')) as ReleaseStamp;
  } catch {
    return undefined;
  }
}

/**
 * The content a release was built from (the file scripts/build.ts writes:
 * { version, key, content }), or the shipped defaults for a release built
 * without one. Node code reads the identity it serves from here
 * (app/content/served-identity.ts).
 */
export function releaseContent(dir: string): SiteContent {
  const file = path.join(dir, RELEASE_CONTENT_FILE);
  if (!existsSync(file)) return defaultSiteContent;
  const built = JSON.parse(readFileSync(file, 'utf8')) as { content?: SiteContent };
  return built.content ?? defaultSiteContent;
}

/** The map a release's pages frame: its content's map, or none when the owner removed it. */
export function releaseMapEmbedUrl(content: SiteContent): string | undefined {
  const url = content.identity.mapEmbedUrl;
  return typeof url === 'string' && url !== '' ? url : undefined;
}

/**
 * The inline code the build recorded for each of a release's pages
 * (INLINE_CODE_FILE); none for a release built before it was recorded,
 * whose pages then run no inline script (they work without JavaScript)
 * until the next build.
 */
export function readInlineCode(dir: string): InlineCodeRecord | undefined {
  try {
    return JSON.parse(readFileSync(path.join(dir, INLINE_CODE_FILE), 'utf8')) as InlineCodeRecord;
  } catch {
    return undefined;
  }
}

/** Imports a release's server bundle: the Astro handler the server runs its pages with. */
export async function importHandler(dir: string): Promise<AstroHandler> {
  const entry = path.join(dir, 'server/entry.mjs');
  if (!existsSync(entry)) throw new Error(`${dir} has no server/entry.mjs`);
  const { handler } = (await import(pathToFileURL(entry).href)) as { handler: AstroHandler };
  if (typeof handler !== 'function') throw new Error(`${entry} exports no handler`);
  return handler;
}

/**
 * Loads a release's files and content completely, to be served with
 * `render` (the server's own code); throws, changing nothing, if it cannot
 * be served.
 */
export async function loadRelease(
  dir: string,
  env: Env,
  render: AstroHandler,
  /** The release `render` came from, when it is another one. */
  code?: LoadedRelease,
): Promise<LoadedRelease> {
  const real = realpathSync(dir);
  // Only a complete release is served: a restart would run its server bundle.
  if (!existsSync(path.join(real, 'server/entry.mjs'))) {
    throw new Error(`${real} has no server/entry.mjs`);
  }
  const content = releaseContent(real);
  const site = await loadSiteRelease(
    path.join(real, 'client'),
    render,
    cspOptionsOf(env, releaseMapEmbedUrl(content)),
    readInlineCode(real),
    code && code.dir !== real ? code : undefined,
  );
  return { ...site, dir: real, stamp: readReleaseStamp(real), content };
}

/** The content a release states, put in place for the pages (app/content/published.ts). */
function putContentInPlace(release: LoadedRelease): void {
  usePublishedContent({ version: release.stamp?.content?.version ?? 0, content: release.content });
}

export interface ServedSiteOptions {
  env: Env;
  logger: Logger;
  graceMs?: number;
}

export class ServedSite {
  #current: LoadedRelease;
  #letGo: () => void;
  readonly #options: ServedSiteOptions;
  /** The release whose server bundle runs, held while the server lives. */
  readonly #code: { dir: string; render: AstroHandler; letGo: () => void; release: LoadedRelease };
  /** Replaced releases still held, with their timers. */
  readonly #pending = new Map<NodeJS.Timeout, () => void>();

  private constructor(
    release: LoadedRelease,
    code: { dir: string; render: AstroHandler; letGo: () => void; release: LoadedRelease },
    options: ServedSiteOptions,
  ) {
    this.#current = release;
    this.#letGo = () => {};
    this.#code = code;
    this.#options = options;
    putContentInPlace(release);
  }

  /** Loads and holds `dir`, the first release served, and imports its server bundle: the server's code. */
  static async open(dir: string, options: ServedSiteOptions): Promise<ServedSite> {
    const real = realpathSync(dir);
    const letGo = ServedSite.#mark(real, options);
    try {
      const render = await importHandler(real);
      const release = await ServedSite.#load(real, render, options);
      return new ServedSite(release, { dir: real, render, letGo, release }, options);
    } catch (error) {
      letGo();
      throw error;
    }
  }

  /** Held before it is read, so a build's pruning cannot delete it meanwhile. */
  static #mark(real: string, options: ServedSiteOptions): () => void {
    try {
      return markInUse(real);
    } catch (error) {
      options.logger.warn(
        { err: (error as Error).message, release: real },
        'cannot mark the build as in use; a later build may delete it while it is served',
      );
      return () => {};
    }
  }

  static async #load(
    real: string,
    render: AstroHandler,
    options: ServedSiteOptions,
    code?: LoadedRelease,
  ) {
    const release = await loadRelease(real, options.env, render, code);
    if (!existsSync(path.join(real, INLINE_CODE_FILE))) {
      options.logger.warn(
        { release: real },
        'this build recorded no inline scripts: its pages run without JavaScript until the next build',
      );
    }
    return release;
  }

  get current(): LoadedRelease {
    return this.#current;
  }

  /** The release whose server bundle the server runs (the one it started with). */
  get codeDir(): string {
    return this.#code.dir;
  }

  /**
   * Serves `dir`'s files and content from now on, once they are loaded
   * completely, with the same code as before; the release it replaces is
   * let go after the grace period. Throws, serving the same release as
   * before, if `dir` cannot be loaded.
   */
  async switchTo(dir: string): Promise<LoadedRelease> {
    const real = realpathSync(dir);
    if (real === this.#current.dir) return this.#current;
    // The code's release is held already, for as long as the server lives.
    const letGo = real === this.#code.dir ? () => {} : ServedSite.#mark(real, this.#options);
    let release: LoadedRelease;
    try {
      release = await ServedSite.#load(real, this.#code.render, this.#options, this.#code.release);
    } catch (error) {
      letGo();
      throw error;
    }
    const letGoOld = this.#letGo;
    this.#current = release;
    this.#letGo = letGo;
    putContentInPlace(release);
    const timer = setTimeout(() => {
      this.#pending.delete(timer);
      letGoOld();
    }, this.#options.graceMs ?? DEFAULT_RELEASE_GRACE_MS);
    timer.unref();
    this.#pending.set(timer, letGoOld);
    return release;
  }

  /** Lets every release go (at shutdown). */
  close(): void {
    for (const [timer, letGo] of this.#pending) {
      clearTimeout(timer);
      letGo();
    }
    this.#pending.clear();
    this.#letGo();
    this.#code.letGo();
  }
}

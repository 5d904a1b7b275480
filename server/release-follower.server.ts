import path from 'node:path';
import type { Logger } from 'pino';
import { currentRelease } from './build-releases.ts';
import type { ServedSite } from './site-release.server.ts';

/**
 * The web server follows BUILD_DIR (docs/operations.md, "Publishing the
 * site"): it never builds. The builder (server/builder.ts) points BUILD_DIR
 * at each release it builds; every `pollMs` the web server looks where
 * BUILD_DIR points, and when that changed it switches to the release
 * (ServedSite.switchTo: loaded completely first, then served). A release
 * that cannot be loaded leaves the one served before, and is logged once;
 * it is tried again only when BUILD_DIR points somewhere else.
 */

export interface ReleaseFollowerOptions {
  buildDir: string;
  site: ServedSite;
  logger: Logger;
  /** How often to look at BUILD_DIR. */
  pollMs?: number;
  /** Records the content version served (the store's record of this host's builds). */
  onServing?: (version: number) => Promise<void> | void;
}

export interface ReleaseFollower {
  /** Looks at BUILD_DIR now (after the look in progress, if any). */
  check(): Promise<void>;
  /** Starts the periodic look; reports what is served at start. */
  start(): void;
  /** Stops it and waits for the look in progress. */
  close(): Promise<void>;
}

export const DEFAULT_FOLLOW_POLL_MS = 1000;

export function followBuildDir(options: ReleaseFollowerOptions): ReleaseFollower {
  const { buildDir, site, logger } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let closed = false;
  /** The release that could not be loaded: not tried again while BUILD_DIR points at it. */
  let refused: string | undefined;
  /** The version last recorded as served. */
  let reported: number | undefined;

  const servedVersion = () => site.current.stamp?.content?.version;

  async function report() {
    const version = servedVersion();
    if (version === undefined || version === reported || !options.onServing) return;
    try {
      await options.onServing(version);
      reported = version;
    } catch (error) {
      // Tried again at the next look.
      logger.error({ err: error, version }, 'cannot record the version served');
    }
  }

  async function look() {
    const release = currentRelease(buildDir);
    if (release && release !== site.current.dir && release !== refused) {
      const from = servedVersion() ?? null;
      const started = Date.now();
      try {
        await site.switchTo(release);
        refused = undefined;
        const to = servedVersion() ?? null;
        const ms = Date.now() - started;
        logger.info(
          { from, to, release: path.basename(release), ms },
          `site switched to content version ${to} in ${ms} ms`,
        );
      } catch (error) {
        refused = release;
        logger.error(
          { err: error, release },
          'cannot serve the new build; the build served before stays',
        );
      }
    }
    await report();
  }

  function check(): Promise<void> {
    running ??= look().finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    check,
    start() {
      if (timer || closed) return;
      timer = setInterval(() => void check(), options.pollMs ?? DEFAULT_FOLLOW_POLL_MS);
      timer.unref();
      void check();
    },
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
    },
  };
}

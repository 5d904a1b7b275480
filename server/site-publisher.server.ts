import { spawn } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { currentRelease, tryLockPublishing } from './build-releases.ts';
import { readReleaseStamp, type ContentStamp, type ServedSite } from './site-release.server.ts';

/**
 * Publishing the site (docs/operations.md, "Publishing the site"): every
 * SITE_PUBLISH_INTERVAL_S seconds, and at once when asked, the publisher
 * compares the content that should be served with the content of the
 * served release. When they differ it switches to BUILD_DIR's current
 * release if that one already has the content (another process built it),
 * and otherwise runs the build (`node scripts/build.ts`) for that content
 * version, one build per BUILD_DIR at a time across processes, then
 * switches to what it built. A failed build changes nothing that visitors
 * see; its error is reported, and the same content is tried again only
 * after a back-off.
 */

/** Where the publisher learns what to serve and reports what it built. */
export interface SitePublishSource {
  /** The content version and key that should be served now; null: none published. */
  desired(now: Date): Promise<ContentStamp | null>;
  /**
   * A build for `version` starts in this process: the versions published
   * before it whose builds have not started never will (superseded).
   */
  onBuildStarting(version: number): Promise<void> | void;
  /** A build for `version` ended: built and served, or failed with the build's last lines. */
  onBuilt(version: number, ok: boolean, errorSummary: string | null): Promise<void> | void;
  /**
   * This process serves `version` without having built it (another process
   * on its BUILD_DIR did, or it was served at start): once per version.
   */
  onServing?(version: number): Promise<void> | void;
}

export interface SitePublisherOptions {
  source: SitePublishSource;
  site: ServedSite;
  /** The project folder: where scripts/build.ts and node_modules are. */
  root: string;
  buildDir: string;
  logger: Logger;
  /** How often to compare (SITE_PUBLISH_INTERVAL_S). */
  intervalMs: number;
  /** The environment of the build (the server's own by default). */
  buildEnv?: NodeJS.ProcessEnv;
  /** How long a failed content key waits before it is built again. */
  retryAfterMs?: number;
  /** How often to try the build lock while another process builds. */
  lockPollMs?: number;
}

export type PublishOutcome =
  | { kind: 'nothing-published' }
  | { kind: 'current'; version: number }
  | { kind: 'switched'; version: number; built: boolean; ms: number }
  | { kind: 'failed'; version: number; error: string }
  | { kind: 'waiting-to-retry'; version: number };

export interface SitePublisher {
  /** Compares and publishes now (after the run in progress, if any). */
  publishNow(): Promise<PublishOutcome>;
  /** Starts the periodic comparison. */
  start(): void;
  /** Stops it and waits for the run in progress. */
  close(): Promise<void>;
}

export const DEFAULT_RETRY_AFTER_MS = 10 * 60_000;
/** The most of a build's output kept in the log. */
const OUTPUT_LOG_CHARS = 20_000;

const sameContent = (a: ContentStamp | undefined, b: ContentStamp) =>
  a !== undefined && a.version === b.version && a.key === b.key;

/** The last lines of a build's output that say what went wrong: no colours, no stack frames. */
export function buildErrorSummary(output: string, lines = 8): string {
  const useful = output
    // eslint-disable-next-line no-control-regex
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((line) => line.trimEnd())
    .filter(
      (line) => line.trim() !== '' && !/^\s+at /.test(line) && line.trim() !== 'Stack trace:',
    );
  return useful.slice(-lines).join('\n').slice(-2_000);
}

export function createSitePublisher(options: SitePublisherOptions): SitePublisher {
  const { source, site, root, buildDir, logger } = options;
  const retryAfterMs = options.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS;
  const lockPollMs = options.lockPollMs ?? 250;
  let failed: { content: ContentStamp; at: number } | undefined;
  let running: Promise<PublishOutcome> | undefined;
  let queued: Promise<PublishOutcome> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  /** The version last reported as served (built here, or onServing). */
  let reported: number | undefined;

  const builtContent = () => {
    const release = currentRelease(buildDir);
    return release ? { release, content: readReleaseStamp(release)?.content } : undefined;
  };

  async function switchTo(release: string, desired: ContentStamp, started: number, built: boolean) {
    const from = site.current.stamp?.content?.version ?? null;
    await site.switchTo(release);
    if (!built) await reportServing(desired.version);
    const ms = Date.now() - started;
    logger.info(
      { from, to: desired.version, release: path.basename(release), built, ms },
      `site switched to content version ${desired.version} in ${ms} ms`,
    );
    return { kind: 'switched', version: desired.version, built, ms } as const;
  }

  function runBuild(desired: ContentStamp): Promise<{ ok: boolean; output: string }> {
    const env = options.buildEnv ?? process.env;
    const bin = [path.join(root, 'node_modules/.bin'), path.dirname(process.execPath)];
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [path.join(root, 'scripts/build.ts')], {
        cwd: root,
        env: {
          ...env,
          // astro and the node it runs on: the project's, whatever PATH the service has.
          PATH: [...bin, env.PATH ?? ''].join(path.delimiter),
          BUILD_DIR: buildDir,
          SITE_CONTENT_VERSION: String(desired.version),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      const collect = (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-4 * OUTPUT_LOG_CHARS);
      };
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
      child.once('error', (error) => resolve({ ok: false, output: `${output}\n${error.message}` }));
      child.once('close', (code, signal) =>
        resolve({
          ok: code === 0,
          output: code === 0 ? output : `${output}\nThe build exited with ${signal ?? code}.`,
        }),
      );
    });
  }

  async function run(): Promise<PublishOutcome> {
    const started = Date.now();
    const desired = await source.desired(new Date(started));
    if (!desired) return { kind: 'nothing-published' };
    if (sameContent(site.current.stamp?.content, desired)) {
      await reportServing(desired.version);
      return { kind: 'current', version: desired.version };
    }
    if (failed && sameContent(failed.content, desired) && started - failed.at < retryAfterMs) {
      return { kind: 'waiting-to-retry', version: desired.version };
    }

    // Built already, by this BUILD_DIR's last build or by another process.
    let built = builtContent();
    if (built && sameContent(built.content, desired)) {
      return switchTo(built.release, desired, started, false);
    }
    let unlock = tryLockPublishing(buildDir);
    while (!unlock) {
      if (closed) return { kind: 'nothing-published' };
      await sleep(lockPollMs);
      built = builtContent();
      if (built && sameContent(built.content, desired)) {
        return switchTo(built.release, desired, started, false);
      }
      unlock = tryLockPublishing(buildDir);
    }
    try {
      // Another process may have built it just before letting the lock go.
      built = builtContent();
      if (built && sameContent(built.content, desired)) {
        return switchTo(built.release, desired, started, false);
      }
      logger.info({ version: desired.version }, `building content version ${desired.version}`);
      try {
        await source.onBuildStarting(desired.version);
      } catch (reportError) {
        // The build goes on: the versions it passes over stay `publishing` until the next one.
        logger.error(
          { err: reportError, version: desired.version },
          'cannot record the build start',
        );
      }
      const result = await runBuild(desired);
      const output = result.output.slice(-OUTPUT_LOG_CHARS);
      built = builtContent();
      let error: string | undefined;
      if (!result.ok) error = buildErrorSummary(result.output);
      else if (!built || !sameContent(built.content, desired)) {
        error = `The build finished but its stamp does not name content version ${desired.version}.`;
      }
      if (error !== undefined) {
        logger.error({ version: desired.version, output }, 'site build failed');
        failed = { content: desired, at: Date.now() };
        await reportBuilt(desired.version, false, error);
        return { kind: 'failed', version: desired.version, error };
      }
      logger.info({ version: desired.version, output }, 'site build output');
      failed = undefined;
      const outcome = await switchTo(built!.release, desired, started, true);
      await reportBuilt(desired.version, true, null);
      return outcome;
    } finally {
      unlock();
    }
  }

  async function reportServing(version: number) {
    if (reported === version || !source.onServing) return;
    try {
      await source.onServing(version);
      reported = version;
    } catch (reportError) {
      logger.error({ err: reportError, version }, 'cannot record the version served');
    }
  }

  async function reportBuilt(version: number, ok: boolean, error: string | null) {
    if (ok) reported = version;
    try {
      await source.onBuilt(version, ok, error);
    } catch (reportError) {
      logger.error({ err: reportError, version }, 'cannot record the build of the site');
    }
  }

  function publishNow(): Promise<PublishOutcome> {
    if (!running) {
      running = run()
        .catch((error: unknown) => {
          logger.error({ err: error }, 'publishing the site failed');
          throw error;
        })
        .finally(() => {
          running = undefined;
        });
      return running;
    }
    // One more run after the one in progress, shared by every caller meanwhile.
    queued ??= running
      .catch(() => undefined)
      .then(() => {
        queued = undefined;
        return publishNow();
      });
    return queued;
  }

  return {
    publishNow,
    start() {
      if (timer || closed) return;
      timer = setInterval(() => {
        if (!running) publishNow().catch(() => undefined);
      }, options.intervalMs);
      timer.unref();
      publishNow().catch(() => undefined);
    },
    async close() {
      closed = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}

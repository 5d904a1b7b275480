import { spawn } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { currentRelease, tryLockPublishing } from './build-releases.ts';
import { readReleaseStamp, type ContentStamp } from './site-release.server.ts';

/**
 * Publishing the site (docs/operations.md, "Publishing the site"): the
 * builder process (server/builder.ts) runs this. Every
 * SITE_PUBLISH_INTERVAL_S seconds, and at once when woken, it compares the
 * content that should be served with the content of BUILD_DIR's current
 * release. When they differ it runs the build (`node scripts/build.ts`) for
 * that content version, one build per BUILD_DIR at a time across
 * processes; the build points BUILD_DIR at its release, and the web server
 * follows (server/release-follower.server.ts). It never serves anything
 * itself. A failed build changes nothing that visitors see; its error is
 * reported, and the same content is tried again only after a back-off.
 */

/** Where the publisher learns what to build and reports how its builds went. */
export interface SitePublishSource {
  /** The content version and key that should be served now; null: none published. */
  desired(now: Date): Promise<ContentStamp | null>;
  /**
   * A build for `version` starts in this process: the versions published
   * before it whose builds have not started never will (superseded).
   */
  onBuildStarting(version: number): Promise<void> | void;
  /** A build for `version` ended: built into BUILD_DIR, or failed with the build's last lines. */
  onBuilt(version: number, ok: boolean, errorSummary: string | null): Promise<void> | void;
  /**
   * The web server serves `version` (it switched to BUILD_DIR's release, or
   * served it at start): reported by the web server, never by the publisher.
   */
  onServing?(version: number): Promise<void> | void;
}

export interface SitePublisherOptions {
  source: SitePublishSource;
  /** The project folder: where scripts/build.ts and node_modules are. */
  root: string;
  buildDir: string;
  logger: Logger;
  /** How often to compare (SITE_PUBLISH_INTERVAL_S). */
  intervalMs: number;
  /** The environment of the build (the builder's own by default). */
  buildEnv?: NodeJS.ProcessEnv;
  /** How long a failed content key waits before it is built again. */
  retryAfterMs?: number;
  /** How often to try the build lock while another process builds. */
  lockPollMs?: number;
}

export type PublishOutcome =
  | { kind: 'nothing-published' }
  /** BUILD_DIR's release has the content already (built here before, or by another process). */
  | { kind: 'current'; version: number }
  | { kind: 'built'; version: number; ms: number }
  | { kind: 'failed'; version: number; error: string }
  | { kind: 'waiting-to-retry'; version: number };

export interface SitePublisher {
  /** Compares and builds now (after the run in progress, if any). */
  publishNow(): Promise<PublishOutcome>;
  /** Starts the periodic comparison. */
  start(): void;
  /**
   * Stops it and waits for the run in progress; a build in progress is
   * stopped (its release is never published, and the next build's pruning
   * deletes it).
   */
  close(): Promise<void>;
}

export const DEFAULT_RETRY_AFTER_MS = 10 * 60_000;
/** The most of a build's output kept in the log. */
const OUTPUT_LOG_CHARS = 20_000;

const sameStamp = (a: ContentStamp | undefined, b: ContentStamp) =>
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
  const { source, root, buildDir, logger } = options;
  const retryAfterMs = options.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS;
  const lockPollMs = options.lockPollMs ?? 250;
  let failed: { content: ContentStamp; at: number } | undefined;
  let running: Promise<PublishOutcome> | undefined;
  let queued: Promise<PublishOutcome> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  /** Stops the build in progress (at close). */
  const stopBuild = new AbortController();

  const builtContent = () => {
    const release = currentRelease(buildDir);
    return release ? { release, content: readReleaseStamp(release)?.content } : undefined;
  };

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
        // A process group of its own, so stopping it stops the Astro build it runs too.
        detached: true,
      });
      const stop = () => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
        } catch {
          // Ended already.
        }
      };
      stopBuild.signal.addEventListener('abort', stop, { once: true });
      let output = '';
      const collect = (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-4 * OUTPUT_LOG_CHARS);
      };
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
      child.once('error', (error) => resolve({ ok: false, output: `${output}\n${error.message}` }));
      child.once('close', (code, signal) => {
        stopBuild.signal.removeEventListener('abort', stop);
        resolve({
          ok: code === 0,
          output: code === 0 ? output : `${output}\nThe build exited with ${signal ?? code}.`,
        });
      });
    });
  }

  async function run(): Promise<PublishOutcome> {
    const started = Date.now();
    const desired = await source.desired(new Date(started));
    if (!desired) return { kind: 'nothing-published' };
    // Built already, by this BUILD_DIR's last build or by another process.
    let built = builtContent();
    if (built && sameStamp(built.content, desired)) {
      return { kind: 'current', version: desired.version };
    }
    if (failed && sameStamp(failed.content, desired) && started - failed.at < retryAfterMs) {
      return { kind: 'waiting-to-retry', version: desired.version };
    }

    let unlock = tryLockPublishing(buildDir);
    while (!unlock) {
      if (closed) return { kind: 'nothing-published' };
      await sleep(lockPollMs);
      built = builtContent();
      if (built && sameStamp(built.content, desired)) {
        return { kind: 'current', version: desired.version };
      }
      unlock = tryLockPublishing(buildDir);
    }
    try {
      // Another process may have built it just before letting the lock go.
      built = builtContent();
      if (built && sameStamp(built.content, desired)) {
        return { kind: 'current', version: desired.version };
      }
      if (closed) return { kind: 'nothing-published' };
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
      if (closed && !result.ok) {
        // Stopped at close: neither built nor failed; the next builder builds it.
        logger.info({ version: desired.version }, 'site build stopped');
        return { kind: 'nothing-published' };
      }
      const output = result.output.slice(-OUTPUT_LOG_CHARS);
      built = builtContent();
      let error: string | undefined;
      if (!result.ok) error = buildErrorSummary(result.output);
      else if (!built || !sameStamp(built.content, desired)) {
        error = `The build finished but its stamp does not name content version ${desired.version}.`;
      }
      if (error !== undefined) {
        logger.error({ version: desired.version, output }, 'site build failed');
        failed = { content: desired, at: Date.now() };
        await reportBuilt(desired.version, false, error);
        return { kind: 'failed', version: desired.version, error };
      }
      failed = undefined;
      const ms = Date.now() - started;
      logger.info({ version: desired.version, output }, 'site build output');
      logger.info(
        { version: desired.version, release: path.basename(built!.release), ms },
        `built content version ${desired.version} in ${ms} ms`,
      );
      await reportBuilt(desired.version, true, null);
      return { kind: 'built', version: desired.version, ms };
    } finally {
      unlock();
    }
  }

  async function reportBuilt(version: number, ok: boolean, error: string | null) {
    try {
      await source.onBuilt(version, ok, error);
    } catch (reportError) {
      logger.error({ err: reportError, version }, 'cannot record the build of the site');
    }
  }

  function publishNow(): Promise<PublishOutcome> {
    if (!running) {
      running = run()
        .then((outcome) => {
          logger.debug({ outcome }, 'publish check');
          return outcome;
        })
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
      stopBuild.abort();
      await running?.catch(() => undefined);
      await queued?.catch(() => undefined);
    },
  };
}

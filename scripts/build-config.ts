import { statSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from '../server/env.server.ts';

/**
 * Where the build lives and what it was made from; shared by build.ts and
 * ensure-build.ts. BUILD_DIR is a link to the served release
 * (server/build-releases.ts), so the stamp read through it is the served build's.
 */
export const root = path.resolve(import.meta.dirname, '..');
export const buildDir = path.resolve(root, process.env.BUILD_DIR ?? 'build');
export const STAMP_FILE_NAME = 'build-stamp.json';
export const stampFile = path.join(buildDir, STAMP_FILE_NAME);

/** Inputs whose change makes the build stale. */
export const sourcePaths = [
  'app',
  'public',
  'astro.config.ts',
  'package-lock.json',
  'scripts/build.ts',
  'scripts/defer-scripts.ts',
  'scripts/owner-app.ts',
  'server/env.server.ts',
].map((entry) => path.join(root, entry));

export interface BuildStamp {
  builtAt: number;
  publicConfig: Record<string, string>;
  /**
   * The site content version built and its key (server/site-content-build.server.ts);
   * absent in builds made before the content came from the store.
   */
  content?: { version: number; key: string };
}

/** The public values baked into the pages (see astro.config.ts). */
export function currentPublicConfig(): Record<string, string> {
  const env = parseEnv();
  return {
    SITE_URL: env.SITE_URL,
    GTAG_ID: env.GTAG_ID ?? '',
    ADS_CONVERSION_SEND_TO: env.ADS_CONVERSION_SEND_TO ?? '',
    LEAD_RETENTION_DAYS: String(env.LEAD_RETENTION_DAYS),
  };
}

/** The newest modification time among the build's inputs. */
export function newestSourceMtime(paths: readonly string[] = sourcePaths): number {
  let newest = 0;
  const visit = (entry: string) => {
    let stats;
    try {
      stats = statSync(entry);
    } catch {
      return;
    }
    if (stats.isDirectory()) {
      for (const child of readdirSync(entry)) visit(path.join(entry, child));
    } else {
      newest = Math.max(newest, stats.mtimeMs);
    }
  };
  paths.forEach(visit);
  return newest;
}

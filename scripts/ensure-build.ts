import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from '../server/env.server.ts';
import { desiredSiteBuild, openStoreForBuild } from '../server/site-content-build.server.ts';
import {
  buildDir,
  currentPublicConfig,
  newestSourceMtime,
  root,
  stampFile,
  type BuildStamp,
} from './build-config.ts';

/**
 * `npm start` runs this first: it builds only when the build is missing,
 * older than its sources, or made with other public settings (SITE_URL,
 * GTAG_ID, ADS_CONVERSION_SEND_TO are baked into the prerendered pages).
 * The build goes beside the served one, so a server already running keeps
 * answering from its own (scripts/build.ts). It also builds when the site
 * content differs: a newer live version in the store, or an offer
 * ended or a notice started or ended since (the content key,
 * server/site-content-build.server.ts).
 */

export async function staleReason(now: Date = new Date()): Promise<string | null> {
  if (!existsSync(path.join(buildDir, 'server/entry.mjs')) || !existsSync(stampFile)) {
    return 'no build yet';
  }
  // A plain folder was built in place, before builds became releases: the
  // next build turns it into one (server/build-releases.ts).
  if (!lstatSync(buildDir).isSymbolicLink()) return 'the build is not a release yet';
  const stamp = JSON.parse(readFileSync(stampFile, 'utf8')) as BuildStamp;
  if (JSON.stringify(stamp.publicConfig) !== JSON.stringify(currentPublicConfig())) {
    return 'public settings changed';
  }
  if (newestSourceMtime() > stamp.builtAt) return 'sources changed since the last build';
  // The site starts whether or not the store answers: without it, the
  // build there is kept (a build now could only remake it from the content
  // it already has: scripts/build.ts builds from the served release's
  // content when the store cannot be read, and the builder
  // catches up once it answers).
  let store: Awaited<ReturnType<typeof openStoreForBuild>>;
  let wanted: Awaited<ReturnType<typeof desiredSiteBuild>>;
  try {
    store = await openStoreForBuild(parseEnv());
  } catch (problem) {
    console.warn(
      `Cannot read the site content (${(problem as Error).message}); keeping the build.`,
    );
    return null;
  }
  try {
    wanted = await desiredSiteBuild(store, now);
  } catch (problem) {
    console.warn(
      `Cannot read the site content (${(problem as Error).message}); keeping the build.`,
    );
    return null;
  } finally {
    await store?.close();
  }
  const built = stamp.content ?? { version: 0, key: '' };
  if (wanted.version !== built.version) {
    return `site content version ${wanted.version} is live, the build has version ${built.version}`;
  }
  if (wanted.key !== built.key) {
    return 'what the site content shows changed (an offer or notice date)';
  }
  return null;
}

if (import.meta.main) {
  const reason = await staleReason();
  if (reason === null) {
    console.log('Build is up to date.');
  } else {
    console.log(`Building the site (${reason})…`);
    const result = spawnSync('node', ['scripts/build.ts'], { cwd: root, stdio: 'inherit' });
    process.exit(result.status ?? 1);
  }
}

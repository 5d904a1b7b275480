import os from 'node:os';
import path from 'node:path';

/**
 * This host's name in the store's record of builds (docs/operations.md,
 * "Several hosts"): SITE_HOST_NAME, else the machine's name, followed by
 * BUILD_DIR when that is not the default, so two processes on one machine
 * with a BUILD_DIR each count as two hosts, and two sharing one as one.
 */
export function siteHostName(
  env: { SITE_HOST_NAME?: string | undefined },
  buildDir: string,
  defaultBuildDir: string,
): string {
  if (env.SITE_HOST_NAME) return env.SITE_HOST_NAME;
  const machine = os.hostname() || 'localhost';
  const dir = path.resolve(buildDir);
  return (dir === path.resolve(defaultBuildDir) ? machine : `${machine} ${dir}`).slice(0, 200);
}

import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

/**
 * Builds never change under a running server.
 *
 * BUILD_DIR (default `build`) is a symbolic link to one release,
 * `<BUILD_DIR>-releases/<id>/`. `npm run build` writes a new release beside
 * the served one and then points the link at it in one rename, so a reader of
 * BUILD_DIR sees either the old build or the new one, never half of one.
 *
 * A server resolves the link once, at start, and keeps serving that release
 * (its page list and CSP hashes were read from it) until it restarts. It
 * leaves a marker in the release, `.in-use.<pid>`; a build in progress does
 * the same. After publishing, every other release is deleted unless a live
 * process has marked it, so old builds do not pile up and none still in use
 * disappears. (Markers are read by process id: a server in another PID
 * namespace, such as another container, is not seen; keep one BUILD_DIR per
 * machine or container.)
 */

const MARKER_PREFIX = '.in-use.';

export function releasesDirOf(buildDir: string): string {
  return `${path.resolve(buildDir)}-releases`;
}

/** A new, empty release folder, marked as in use by this process until published. */
export function createRelease(buildDir: string, now: Date = new Date()): string {
  const id = `${now.toISOString().replace(/[:.]/g, '-')}-${process.pid}`;
  const release = path.join(releasesDirOf(buildDir), id);
  mkdirSync(release, { recursive: true });
  markInUse(release);
  return release;
}

function markerOf(release: string, pid = process.pid): string {
  return path.join(release, `${MARKER_PREFIX}${pid}`);
}

/** Keeps a release from being deleted while this process lives; returns the undo. */
export function markInUse(release: string): () => void {
  const marker = markerOf(release);
  writeFileSync(marker, '');
  return () => rmSync(marker, { force: true });
}

/**
 * Points BUILD_DIR at `release` in one rename. A BUILD_DIR that is still a
 * plain folder (made before releases existed) becomes a release first.
 */
export function publishRelease(buildDir: string, release: string): void {
  const link = path.resolve(buildDir);
  const current = lstatOrNull(link);
  if (current && !current.isSymbolicLink()) {
    renameSync(link, path.join(releasesDirOf(buildDir), `before-releases-${Date.now()}`));
  }
  const temporary = `${link}.next-${process.pid}`;
  rmSync(temporary, { force: true });
  // Relative, so the project folder can be moved; 'junction' only matters on Windows.
  symlinkSync(path.relative(path.dirname(link), release), temporary, 'junction');
  renameSync(temporary, link);
  rmSync(markerOf(release), { force: true });
}

/** The release BUILD_DIR points at now (or BUILD_DIR itself, if it is a plain folder). */
export function currentRelease(buildDir: string): string | undefined {
  try {
    return realpathSync(buildDir);
  } catch {
    return undefined;
  }
}

/** Deletes every release but the current one and those a live process has marked. */
export function pruneReleases(buildDir: string): string[] {
  const releasesDir = releasesDirOf(buildDir);
  if (!existsSync(releasesDir)) return [];
  const current = currentRelease(buildDir);
  const removed: string[] = [];
  for (const name of readdirSync(releasesDir)) {
    const release = path.join(releasesDir, name);
    if (realpathSync(release) === current || isInUse(release)) continue;
    rmSync(release, { recursive: true, force: true });
    removed.push(release);
  }
  return removed;
}

function isInUse(release: string): boolean {
  return readdirSync(release)
    .filter((name) => name.startsWith(MARKER_PREFIX))
    .some((name) => isAlive(Number(name.slice(MARKER_PREFIX.length))));
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function lstatOrNull(file: string) {
  try {
    return lstatSync(file);
  } catch {
    return null;
  }
}

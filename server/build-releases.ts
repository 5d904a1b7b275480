import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/**
 * Builds never change under a running server.
 *
 * BUILD_DIR (default `build`) is a symbolic link to one release,
 * `<BUILD_DIR>-releases/<id>/`. `npm run build` writes a new release beside
 * the served one and then points the link at it in one rename, so a reader of
 * BUILD_DIR sees either the old build or the new one, never half of one.
 *
 * A server resolves the link and serves that release (its page list and
 * CSP hashes were read from it) until the link points at another one, which
 * it then loads and switches to (server/release-follower.server.ts). While
 * it serves a release it holds a shared lock on the release's lock file,
 * `<BUILD_DIR>-releases/<id>.lock`, which the build created beside the
 * release; a build in progress holds one on its own. After publishing, every
 * other release is deleted unless some process holds its lock, so old builds
 * do not pile up and none still in use disappears.
 *
 * Why a lock and not a marker file: taking a shared lock needs only read
 * access to the lock file, so a server run as its own user keeps a release
 * that root (or anyone else) built and owns, where it could never write a
 * marker; the kernel drops the lock when the process ends, however it ends;
 * and the build needs no view of other users' processes to see it. The lock
 * is SQLite's (node:sqlite): the lock file is an empty database, a server
 * keeps a read transaction open on it, and the build asks for an exclusive
 * lock, which SQLite refuses while any reader holds one.
 */

/** Marker files of releases served by servers older than the lock (`.in-use.<pid>`). */
const LEGACY_MARKER_PREFIX = '.in-use.';
const LOCK_SUFFIX = '.lock';
/** The link to the project's packages (linkDependencies), not a release. */
const DEPENDENCIES_LINK = 'node_modules';

/** The locks this process holds, by release. */
const held = new Map<string, DatabaseSync>();

export function releasesDirOf(buildDir: string): string {
  return `${path.resolve(buildDir)}-releases`;
}

/** The lock file of a release: beside it, so the build's output step cannot remove it. */
export function lockFileOf(release: string): string {
  return `${path.resolve(release)}${LOCK_SUFFIX}`;
}

/** A new, empty release folder, held as in use by this process until published. */
export function createRelease(buildDir: string, now: Date = new Date()): string {
  const id = `${now.toISOString().replace(/[:.]/g, '-')}-${process.pid}`;
  const release = path.join(releasesDirOf(buildDir), id);
  mkdirSync(release, { recursive: true });
  markInUse(release);
  return release;
}

/**
 * Keeps a release from being deleted while this process lives; returns the
 * undo. Needs only read access to the release's lock file; a release made
 * before lock files existed gets one if its folder's parent is writable, and
 * otherwise this throws.
 */
export function markInUse(release: string): () => void {
  const resolved = path.resolve(release);
  const lockFile = lockFileOf(resolved);
  let lock: DatabaseSync;
  if (existsSync(lockFile)) {
    // Waits out a build that is checking this lock at this very moment.
    lock = new DatabaseSync(lockFile, { readOnly: true, timeout: 5_000 });
  } else {
    lock = new DatabaseSync(lockFile, { timeout: 5_000 });
    lock.exec('PRAGMA user_version = 1');
  }
  // An open read transaction holds SQLite's shared lock until it ends.
  lock.exec('BEGIN');
  lock.prepare('SELECT count(*) FROM sqlite_schema').get();
  held.get(resolved)?.close();
  held.set(resolved, lock);
  return () => {
    if (held.get(resolved) !== lock) return;
    held.delete(resolved);
    lock.close();
  };
}

/**
 * The server bundle of a release imports its packages by name, which Node
 * looks up in the `node_modules` folders above the bundle. A release outside
 * the project (BUILD_DIR under /var/lib/glass-site, docs/operations.md
 * "Publishing the site") finds them through a link beside the releases to
 * the project's own `node_modules`; inside the project it needs none.
 */
export function linkDependencies(buildDir: string, nodeModules: string): void {
  const releasesDir = releasesDirOf(buildDir);
  const projectRoot = path.dirname(path.resolve(nodeModules));
  if (!path.relative(projectRoot, releasesDir).startsWith('..')) return;
  const link = path.join(releasesDir, DEPENDENCIES_LINK);
  mkdirSync(releasesDir, { recursive: true });
  if (currentRelease(link) === realpathSync(nodeModules)) return;
  rmSync(link, { force: true });
  symlinkSync(path.resolve(nodeModules), link, 'junction');
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
  const resolved = path.resolve(release);
  held.get(resolved)?.close();
  held.delete(resolved);
}

/** The release BUILD_DIR points at now (or BUILD_DIR itself, if it is a plain folder). */
export function currentRelease(buildDir: string): string | undefined {
  try {
    return realpathSync(buildDir);
  } catch {
    return undefined;
  }
}

/**
 * Deletes every release but the current one and those a live process holds
 * (with their lock files), and lock files left without a release.
 */
export function pruneReleases(buildDir: string): string[] {
  const releasesDir = releasesDirOf(buildDir);
  if (!existsSync(releasesDir)) return [];
  const current = currentRelease(buildDir);
  const removed: string[] = [];
  for (const entry of readdirSync(releasesDir, { withFileTypes: true })) {
    const full = path.join(releasesDir, entry.name);
    if (entry.name === DEPENDENCIES_LINK) continue;
    if (entry.name.endsWith(LOCK_SUFFIX) && !entry.isDirectory()) {
      const release = full.slice(0, -LOCK_SUFFIX.length);
      if (!existsSync(release) && !isLocked(full)) rmSync(full, { force: true });
      continue;
    }
    if (realpathSync(full) === current || isInUse(full)) continue;
    rmSync(full, { recursive: true, force: true });
    rmSync(lockFileOf(full), { force: true });
    removed.push(full);
  }
  return removed;
}

function isInUse(release: string): boolean {
  const lockFile = lockFileOf(release);
  if (existsSync(lockFile) && isLocked(lockFile)) return true;
  return readdirSync(release)
    .filter((name) => name.startsWith(LEGACY_MARKER_PREFIX))
    .some((name) => isAlive(Number(name.slice(LEGACY_MARKER_PREFIX.length))));
}

/** Whether a process (this one included) holds the lock. If that cannot be told, it counts as held. */
function isLocked(lockFile: string): boolean {
  let probe: DatabaseSync | undefined;
  try {
    // No waiting: a shared lock held by anyone makes this fail at once.
    probe = new DatabaseSync(lockFile, { timeout: 0 });
    probe.exec('BEGIN EXCLUSIVE');
    probe.exec('ROLLBACK');
    return false;
  } catch {
    return true;
  } finally {
    probe?.close();
  }
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

/**
 * The lock that lets one process at a time build for BUILD_DIR when the
 * site is published (server/site-publisher.server.ts, run by the builder): SQLite's exclusive
 * lock on `<BUILD_DIR>.publish.lock`, beside BUILD_DIR where no pruning
 * removes it. Returns the release of the lock, or undefined at once when
 * another process (or another publisher in this one) holds it. The kernel
 * drops it when the process ends, however it ends.
 */
export function tryLockPublishing(buildDir: string): (() => void) | undefined {
  const lockFile = `${path.resolve(buildDir)}.publish.lock`;
  mkdirSync(path.dirname(lockFile), { recursive: true });
  const lock = new DatabaseSync(lockFile, { timeout: 0 });
  try {
    lock.exec('BEGIN EXCLUSIVE');
  } catch {
    lock.close();
    return undefined;
  }
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    lock.exec('ROLLBACK');
    lock.close();
  };
}

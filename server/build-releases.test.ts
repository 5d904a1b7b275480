import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createRelease,
  currentRelease,
  markInUse,
  publishRelease,
  pruneReleases,
  releasesDirOf,
} from './build-releases.ts';

let scratch: string;
let buildDir: string;

beforeEach(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'releases-'));
  buildDir = path.join(scratch, 'build');
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

/** A complete release with one page saying `text`. */
function makeRelease(text: string, at: Date): string {
  const release = createRelease(buildDir, at);
  mkdirSync(path.join(release, 'client'));
  writeFileSync(path.join(release, 'client/index.html'), text);
  return release;
}

const served = () => readFileSync(path.join(buildDir, 'client/index.html'), 'utf8');
const releaseNames = () => readdirSync(releasesDirOf(buildDir)).sort();

/** The id of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('build releases', () => {
  it('BUILD_DIR becomes a link to the newest release, switched in one rename', () => {
    const first = makeRelease('first', new Date('2026-01-01T00:00:00Z'));
    expect(existsSync(buildDir)).toBe(false);
    publishRelease(buildDir, first);
    expect(lstatSync(buildDir).isSymbolicLink()).toBe(true);
    expect(served()).toBe('first');

    const second = makeRelease('second', new Date('2026-01-02T00:00:00Z'));
    // Until it is published, readers still get the first build.
    expect(served()).toBe('first');
    publishRelease(buildDir, second);
    expect(served()).toBe('second');
    expect(currentRelease(buildDir)).toBe(realpathSync(second));
    // No temporary link is left behind.
    expect(readdirSync(scratch).sort()).toEqual(['build', 'build-releases']);
  });

  it('turns a build made in place (a plain folder) into a release', () => {
    mkdirSync(path.join(buildDir, 'client'), { recursive: true });
    writeFileSync(path.join(buildDir, 'client/index.html'), 'in place');
    const release = makeRelease('new', new Date());
    publishRelease(buildDir, release);
    expect(served()).toBe('new');
    const kept = releaseNames().find((name) => name.startsWith('before-releases-'));
    expect(kept).toBeDefined();
    expect(
      readFileSync(path.join(releasesDirOf(buildDir), kept!, 'client/index.html'), 'utf8'),
    ).toBe('in place');
  });

  it('prunes old releases, but never the current one or one a live process uses', () => {
    const usedByLiveServer = makeRelease('a', new Date('2026-01-01T00:00:00Z'));
    publishRelease(buildDir, usedByLiveServer);
    // This test process stands for the server still serving it.
    const unmark = markInUse(usedByLiveServer);

    const usedByDeadServer = makeRelease('b', new Date('2026-01-02T00:00:00Z'));
    publishRelease(buildDir, usedByDeadServer);
    writeFileSync(path.join(usedByDeadServer, `.in-use.${deadPid()}`), '');

    const unused = makeRelease('c', new Date('2026-01-03T00:00:00Z'));
    publishRelease(buildDir, unused);

    const current = makeRelease('d', new Date('2026-01-04T00:00:00Z'));
    publishRelease(buildDir, current);
    // A build another process is still making (marked by createRelease, here this process).
    const inProgress = createRelease(buildDir, new Date('2026-01-05T00:00:00Z'));

    const removed = pruneReleases(buildDir).map((release) => path.basename(release));
    expect(removed.sort()).toEqual([path.basename(usedByDeadServer), path.basename(unused)].sort());
    expect(releaseNames()).toEqual(
      [usedByLiveServer, current, inProgress].map((release) => path.basename(release)).sort(),
    );
    expect(served()).toBe('d');

    // Once the server has gone, its release goes at the next build.
    unmark();
    const removedLater = pruneReleases(buildDir).map((release) => path.basename(release));
    expect(removedLater).toEqual([path.basename(usedByLiveServer)]);
  });
});

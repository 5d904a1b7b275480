import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
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
  lockFileOf,
  markInUse,
  publishRelease,
  pruneReleases,
  releasesDirOf,
} from './build-releases.ts';
import { eventually } from '../app/leads/testing/test-support.server.ts';
import { watchServerOutput } from './testing/server-output.server.ts';

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
/** The releases (lock files aside). */
const releaseNames = () =>
  readdirSync(releasesDirOf(buildDir))
    .filter((name) => !name.endsWith('.lock'))
    .sort();

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
    // Each release has its lock file beside it, where the build's output step cannot remove it.
    expect(existsSync(lockFileOf(first))).toBe(true);
    expect(existsSync(lockFileOf(second))).toBe(true);
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
    // The marker a server older than the lock leaves, whose process has gone.
    writeFileSync(path.join(usedByDeadServer, `.in-use.${deadPid()}`), '');

    const usedByOlderLiveServer = makeRelease('b2', new Date('2026-01-02T12:00:00Z'));
    publishRelease(buildDir, usedByOlderLiveServer);
    // A server older than the lock, still running (this process stands for it).
    writeFileSync(path.join(usedByOlderLiveServer, `.in-use.${process.pid}`), '');

    const unused = makeRelease('c', new Date('2026-01-03T00:00:00Z'));
    publishRelease(buildDir, unused);

    const current = makeRelease('d', new Date('2026-01-04T00:00:00Z'));
    publishRelease(buildDir, current);
    // A build another process is still making (marked by createRelease, here this process).
    const inProgress = createRelease(buildDir, new Date('2026-01-05T00:00:00Z'));

    const removed = pruneReleases(buildDir).map((release) => path.basename(release));
    expect(removed.sort()).toEqual([path.basename(usedByDeadServer), path.basename(unused)].sort());
    expect(releaseNames()).toEqual(
      [usedByLiveServer, usedByOlderLiveServer, current, inProgress]
        .map((release) => path.basename(release))
        .sort(),
    );
    // A removed release's lock file goes with it.
    expect(existsSync(lockFileOf(unused))).toBe(false);
    expect(served()).toBe('d');

    // Once the server has gone, its release goes at the next build.
    unmark();
    const removedLater = pruneReleases(buildDir).map((release) => path.basename(release));
    expect(removedLater).toEqual([path.basename(usedByLiveServer)]);
  });
});

/**
 * The README's deploy: the build runs as root, the service as its own user
 * (here `nobody`), so the release it serves belongs to root and the server
 * cannot write in it. The next build must still leave that release alone
 * until the server has gone.
 */
const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
const root = path.resolve(import.meta.dirname, '..');

/** A complete release a real server can start from: a stand-in server bundle and two pages. */
function makeServableRelease(text: string, at: Date): string {
  const release = makeRelease(text, at);
  mkdirSync(path.join(release, 'client/contact'));
  writeFileSync(path.join(release, 'client/contact/index.html'), `${text}: contact`);
  mkdirSync(path.join(release, 'server'));
  writeFileSync(
    path.join(release, 'server/entry.mjs'),
    "export function handler(_req, res) { res.statusCode = 404; res.end('not found'); }\n",
  );
  return release;
}

/** The folders `nobody` cannot read, of those a server run as `nobody` needs. */
function unreadableByNobody(dirs: string[]): string[] {
  return dirs.filter(
    (dir) =>
      spawnSync(
        process.execPath,
        ['-e', `require('node:fs').accessSync(${JSON.stringify(dir)}, 5)`],
        { uid: NOBODY, gid: NOBODY, stdio: 'ignore' },
      ).status !== 0,
  );
}

describe('build releases, built by root and served by another user', () => {
  it.skipIf(!isRoot)(
    `a build run as root keeps the release a server run as nobody is serving${isRoot ? '' : ' (SKIPPED: needs root, to run the server as another user)'}`,
    async (context) => {
      const unreadable = unreadableByNobody([root, path.join(root, 'node_modules')]);
      if (unreadable.length > 0) {
        context.skip(`SKIPPED: the user nobody cannot read ${unreadable.join(', ')}`);
      }
      // mkdtemp makes a private folder: the served files must be readable by the server's user.
      chmodSync(scratch, 0o755);
      const dataDir = path.join(scratch, 'data');
      mkdirSync(dataDir, { mode: 0o700 });
      chownSync(dataDir, NOBODY, NOBODY);

      const served = makeServableRelease('first', new Date('2026-01-01T00:00:00Z'));
      publishRelease(buildDir, served);
      expect(unreadableByNobody([served, path.join(served, 'client')])).toEqual([]);

      const server = spawn(process.execPath, ['server/start.ts'], {
        cwd: root,
        uid: NOBODY,
        gid: NOBODY,
        env: {
          PATH: process.env.PATH,
          HOST: '127.0.0.1',
          PORT: '0',
          SITE_URL: 'http://localhost',
          BUILD_DIR: buildDir,
          DATA_DIR: dataDir,
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
      const printed = watchServerOutput(server);
      try {
        const port = await printed.port;
        const get = async (page: string) => {
          const response = await fetch(`http://127.0.0.1:${port}${page}`);
          return `${response.status} ${await response.text()}`;
        };
        expect(await get('/')).toBe('200 first');

        // What `npm run build` does, as root: a new release, the switch, the prune.
        const next = makeServableRelease('second', new Date('2026-01-02T00:00:00Z'));
        publishRelease(buildDir, next);
        const removed = pruneReleases(buildDir);
        expect(removed).toEqual([]);

        // The server follows BUILD_DIR; the release it served before stays
        // held for the requests still on it (60 s), so no build removes it.
        await eventually(async () => expect(await get('/'), printed.text()).toBe('200 second'));
        expect(await get('/contact')).toBe('200 second: contact');
        expect(pruneReleases(buildDir)).toEqual([]);
        expect(existsSync(served)).toBe(true);
      } finally {
        server.kill('SIGTERM');
        await exited;
      }
      // Once that server has stopped, the next build removes the release it served first.
      expect(pruneReleases(buildDir)).toEqual([served]);
    },
  );
});

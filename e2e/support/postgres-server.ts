import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.ts';

/**
 * A PostgreSQL server of the test's own (Debian's binaries, a fresh data
 * directory, a free port on loopback), so a test can stop and start a real
 * database under a running site without touching the shared one. PostgreSQL
 * refuses to run as root, so as root it runs as the `postgres` user.
 */

const run = promisify(execFile);

export const POSTGRES_BINARIES_SKIP_MESSAGE =
  'Outage tests skipped: PostgreSQL server binaries (Debian package postgresql) are not installed';

/** The newest /usr/lib/postgresql/<version>/bin with initdb, if any. */
export function postgresBinDir(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((version) => existsSync(path.join(base, version, 'bin/initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(base, versions[0], 'bin') : undefined;
}

export interface PrivatePostgres {
  /** postgres://… for the role `glass` (trusted on loopback). */
  readonly url: string;
  start(): Promise<void>;
  /** A fast shutdown: open connections are cut, like a database restart. */
  stop(): Promise<void>;
  remove(): Promise<void>;
}

export async function createPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error(POSTGRES_BINARIES_SKIP_MESSAGE);
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(tmpdir(), 'glass-pg-'));
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const pgCommand = (tool: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args])
      : run(path.join(bin, tool), args);
  const data = path.join(dir, 'data');
  await pgCommand('initdb', ['-D', data, '-U', 'glass', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    // A test database: nothing to keep across a power cut.
    '-c fsync=off',
  ].join(' ');
  const server: PrivatePostgres = {
    url: `postgres://glass@127.0.0.1:${port}/postgres`,
    async start() {
      await pgCommand('pg_ctl', [
        '-D',
        data,
        '-o',
        options,
        '-l',
        path.join(dir, 'log'),
        '-w',
        'start',
      ]);
    },
    async stop() {
      await pgCommand('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    async remove() {
      await server.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}

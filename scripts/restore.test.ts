import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { makeLead } from '../app/db/leads/leads.contract.ts';
import { openSqliteStore, SQLITE_FILE_NAME } from '../app/db/store-sqlite.server.ts';
import { eventually, tempDataDir } from '../app/leads/testing/test-support.server.ts';
import { leadIdsInBackup, replicate } from '../server/backup/testing/backup-test-support.server.ts';
import type { BackupTarget } from '../server/backup/litestream.server.ts';
import { descendantsOf, watchServerOutput } from '../server/testing/server-output.server.ts';
import { stubBuild } from '../server/testing/stub-build.server.ts';

/**
 * `npm run restore -- [--at ISO_TIME]` (docs/operations.md, "Backups"): the
 * newest backup, or the state at a time, into an empty DATA_DIR; a folder
 * with anything in it is refused and left as it was. And the whole story:
 * the server killed after 50 accepted leads, its disk gone, the backup
 * restored on a new folder, and all 50 served.
 */

const root = path.resolve(import.meta.dirname, '..');
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function scratch(): string {
  const dir = tempDataDir('restore-');
  cleanups.push(dir.remove);
  return dir.dir;
}

function baseEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info' };
}

function restore(
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/restore.ts', ...args], {
      cwd: root,
      env: { ...baseEnv(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('close', (code) => resolve({ code, output }));
  });
}

/** Every file under `dir` with its size, time and bytes. */
function snapshotOf(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }).map(String).sort()) {
    const full = path.join(dir, name);
    const info = statSync(full);
    files[name] = info.isDirectory()
      ? `dir ${info.mtimeMs}`
      : `${info.size} ${info.mtimeMs} ${readFileSync(full).toString('base64')}`;
  }
  return files;
}

function leadIdsIn(dataDir: string): string[] {
  return readLeads(dataDir).map((lead) => lead.id);
}

function readLeads(dataDir: string): Array<{ id: string }> {
  // A read-only look, as the server would see it.
  const db = new DatabaseSync(path.join(dataDir, SQLITE_FILE_NAME), { readOnly: true });
  try {
    return db
      .prepare('SELECT id FROM leads ORDER BY created_at')
      .all()
      .map((row) => ({ id: String(row.id) }));
  } finally {
    db.close();
  }
}

describe('npm run restore', () => {
  it('restores the newest backup or the state at a time, and refuses a folder with anything in it', async () => {
    const dir = scratch();
    const target: BackupTarget = { kind: 'file', path: path.join(dir, 'backup') };
    const live = path.join(dir, 'live');
    const store = await openSqliteStore({ dataDir: live, replicated: true });
    cleanups.push(() => store.close());
    const dbPath = path.join(live, SQLITE_FILE_NAME);
    const replication = await replicate(dbPath, target);
    cleanups.push(() => replication.stop());
    const first = makeLead();
    await store.insertLead(first, []);
    await eventually(
      async () =>
        expect(await leadIdsInBackup(dbPath, target, path.join(dir, 'c'))).toContain(first.id),
      60_000,
      250,
    );
    // Litestream's times are whole seconds.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const between = new Date();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = makeLead();
    await store.insertLead(second, []);
    await eventually(
      async () =>
        expect(await leadIdsInBackup(dbPath, target, path.join(dir, 'c'))).toContain(second.id),
      10_000,
      200,
    );
    const env = { BACKUP_URL: `file://${target.path}` };

    // A folder with anything in it: refused, and nothing in it changes.
    const used = path.join(dir, 'used');
    mkdirSync(path.join(used, 'photos'), { recursive: true });
    writeFileSync(path.join(used, SQLITE_FILE_NAME), 'the old store');
    writeFileSync(path.join(used, 'photos', 'one.jpg'), 'a photo');
    const before = snapshotOf(used);
    const refused = await restore({ ...env, DATA_DIR: used });
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('is not empty: nothing was changed');
    expect(snapshotOf(used)).toEqual(before);

    // A folder that is not there yet: the newest backup.
    const fresh = path.join(dir, 'fresh', 'data');
    const newest = await restore({ ...env, DATA_DIR: fresh });
    expect(newest.output).toContain('2 leads');
    expect(newest.code).toBe(0);
    expect(leadIdsIn(fresh)).toEqual([first.id, second.id]);

    // An empty folder, as it was at a time.
    const empty = path.join(dir, 'empty');
    mkdirSync(empty);
    const then = await restore({ ...env, DATA_DIR: empty }, ['--at', between.toISOString()]);
    expect(then.code, then.output).toBe(0);
    expect(leadIdsIn(empty)).toEqual([first.id]);

    // A bad time changes nothing either.
    const bad = path.join(dir, 'bad');
    const wrong = await restore({ ...env, DATA_DIR: bad }, ['--at', 'yesterday-ish']);
    expect(wrong.code).toBe(1);
    expect(() => readdirSync(bad)).toThrow();
  }, 120_000);

  it('brings back all 50 leads of a server killed with SIGKILL, on a new folder', async () => {
    const dir = scratch();
    const backup = path.join(dir, 'backup');
    const buildDir = stubBuild(dir);
    const env = {
      ...baseEnv(),
      SITE_URL: 'http://localhost:3999',
      BUILD_DIR: buildDir,
      BACKUP_URL: `file://${backup}`,
      SITE_PUBLISH_INTERVAL_S: '3600',
      LEAD_RATE_LIMIT: '1000',
      PORT: '0',
      HOST: '127.0.0.1',
    };
    const start = (dataDir: string) => {
      const supervisor = spawn(process.execPath, ['scripts/start.ts'], {
        cwd: root,
        env: { ...env, DATA_DIR: dataDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise<void>((resolve) => supervisor.once('exit', () => resolve()));
      cleanups.push(async () => {
        for (const line of descendantsOf(supervisor.pid!)) {
          try {
            process.kill(Number(line.split(' ')[0]), 'SIGKILL');
          } catch {
            // Ended meanwhile.
          }
        }
        if (supervisor.exitCode === null && supervisor.signalCode === null)
          supervisor.kill('SIGKILL');
        await exited;
      });
      return { supervisor, exited, watched: watchServerOutput(supervisor, { timeoutMs: 60_000 }) };
    };

    const lost = path.join(dir, 'lost-disk');
    const first = start(lost);
    const origin = `http://127.0.0.1:${await first.watched.port}`;
    const bodies = Array.from({ length: 50 }, (_, index) => ({
      name: `Customer ${index + 1}`,
      email: `customer${index + 1}@example.nz`,
      phone: '027 555 0199',
      service: 'Windows',
      message: `Enquiry ${index + 1}: a cracked pane in the lounge window.`,
      source: 'quote_form',
      idempotency_key: randomUUID(),
    }));
    const post = (body: object) =>
      fetch(`${origin}/api/leads`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const ids: string[] = [];
    for (const body of bodies) {
      const answer = await post(body);
      expect(answer.status, await answer.clone().text()).toBeLessThan(300);
      ids.push(((await answer.json()) as { id: string }).id);
    }
    // The 50th, like every committed lead, is in the backup within 10 seconds.
    await eventually(
      async () =>
        expect(
          await leadIdsInBackup(
            path.join(lost, SQLITE_FILE_NAME),
            {
              kind: 'file',
              path: backup,
            },
            path.join(dir, 'check'),
          ),
        ).toContain(ids.at(-1)),
      10_000,
      200,
    );

    // Every process killed at once, with no chance to finish anything; then the disk is gone.
    const everyone = [
      first.supervisor.pid!,
      ...descendantsOf(first.supervisor.pid!).map((line) => Number(line.split(' ')[0])),
    ];
    for (const pid of everyone) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Ended meanwhile.
      }
    }
    await first.exited;
    rmSync(lost, { recursive: true, force: true });

    const restored = path.join(dir, 'new-disk');
    const result = await restore({ BACKUP_URL: `file://${backup}`, DATA_DIR: restored });
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('50 leads');
    expect(leadIdsIn(restored).sort()).toEqual([...ids].sort());

    // The site on the new folder has every one of them: sent again, each is
    // answered as the lead it already holds.
    const second = start(restored);
    const again = `http://127.0.0.1:${await second.watched.port}`;
    for (const [index, body] of bodies.entries()) {
      const answer = await fetch(`${again}/api/leads`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { id: string }).id).toBe(ids[index]);
    }
    expect(leadIdsIn(restored)).toHaveLength(50);
    const health = (await (await fetch(`${again}/healthz`)).json()) as { ok: boolean };
    expect(health.ok).toBe(true);
  }, 180_000);
});

import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, tempDataDir } from '../app/leads/testing/test-support.server.ts';
import { stubBuild } from '../server/testing/stub-build.server.ts';
import { descendantsOf, watchServerOutput } from '../server/testing/server-output.server.ts';

/**
 * `npm start`'s two processes (scripts/start.ts): the web server and the
 * builder side by side; a builder that ends is started again, signals
 * reach both, and when the web server ends everything does.
 */

const root = path.resolve(import.meta.dirname, '..');

interface Started {
  supervisor: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output: () => string;
  /** The pid of the one process below it running `script`, once there is one. */
  pidOf(script: string): Promise<number>;
}

const running: Started[] = [];
const scratches: { remove(): void }[] = [];

afterEach(async () => {
  for (const started of running.splice(0)) {
    if (started.supervisor.exitCode === null && started.supervisor.signalCode === null) {
      started.supervisor.kill('SIGTERM');
    }
    await started.exited;
  }
  for (const scratch of scratches.splice(0)) scratch.remove();
});

async function startBoth(extraEnv: Record<string, string> = {}): Promise<Started> {
  const scratch = tempDataDir('start-');
  scratches.push(scratch);
  const supervisor = spawn(process.execPath, ['scripts/start.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      SITE_URL: 'http://localhost:3999',
      DATA_DIR: path.join(scratch.dir, 'leads'),
      BUILD_DIR: stubBuild(scratch.dir),
      SITE_PUBLISH_INTERVAL_S: '3600',
      LOG_LEVEL: 'info',
      PORT: '0',
      HOST: '127.0.0.1',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    supervisor.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const watched = watchServerOutput(supervisor, { timeoutMs: 60_000 });
  await watched.port;
  const started: Started = {
    supervisor,
    exited,
    output: watched.text,
    async pidOf(script) {
      let pid = 0;
      await eventually(
        () => {
          const found = descendantsOf(supervisor.pid!).filter((line) => line.includes(script));
          expect(found, watched.text()).toHaveLength(1);
          pid = Number(found[0]!.split(' ')[0]);
        },
        60_000,
        50,
      );
      return pid;
    },
  };
  running.push(started);
  return started;
}

describe('npm start', () => {
  it('starts the builder again when it ends, and SIGTERM stops both', async () => {
    const started = await startBoth();
    const web = await started.pidOf('server/start.ts');
    const builder = await started.pidOf('server/builder.ts');
    await eventually(() => expect(started.output()).toContain('"msg":"builder started"'), 60_000);
    process.kill(builder, 'SIGKILL');
    await eventually(
      async () => expect(await started.pidOf('server/builder.ts')).not.toBe(builder),
      60_000,
      50,
    );
    expect(started.output()).toContain('the builder ended; starting it again');
    // The web server never noticed.
    expect(await started.pidOf('server/start.ts')).toBe(web);

    const restarted = await started.pidOf('server/builder.ts');
    await eventually(
      () => expect(started.output().split('"msg":"builder started"')).toHaveLength(3),
      60_000,
    );
    expect(started.output()).not.toContain('building content version');
    started.supervisor.kill('SIGTERM');
    expect(await started.exited).toEqual({ code: 0, signal: null });
    for (const pid of [web, restarted]) expect(() => process.kill(pid, 0)).toThrow();
    expect(started.output()).toContain('"msg":"stopped"');
    expect(started.output()).toContain('"msg":"builder stopped"');
  }, 120_000);

  it('ends when the web server ends, the builder with it', async () => {
    const started = await startBoth();
    const web = await started.pidOf('server/start.ts');
    const builder = await started.pidOf('server/builder.ts');
    process.kill(web, 'SIGKILL');
    expect((await started.exited).code).not.toBe(0);
    await eventually(() => expect(() => process.kill(builder, 0)).toThrow(), 30_000, 50);
  }, 120_000);
  it('runs the replicator with BACKUP_URL, starts it again when it ends, and Litestream with it', async () => {
    const backup = tempDataDir('start-backup-');
    scratches.push(backup);
    const started = await startBoth({ BACKUP_URL: `file://${backup.dir}` });
    const replicator = await started.pidOf('server/replicator.ts');
    const litestream = await started.pidOf('litestream replicate');
    await eventually(() => expect(started.output()).toContain('replicating the store'), 60_000);
    // Killed outright (out of memory): its Litestream goes with it, and a new pair starts.
    process.kill(replicator, 'SIGKILL');
    await eventually(() => expect(() => process.kill(litestream, 0)).toThrow(), 30_000, 50);
    await eventually(
      async () => expect(await started.pidOf('server/replicator.ts')).not.toBe(replicator),
      60_000,
      50,
    );
    expect(started.output()).toContain('the replicator ended; starting it again');
    const again = await started.pidOf('litestream replicate');
    expect(again).not.toBe(litestream);
    started.supervisor.kill('SIGTERM');
    expect(await started.exited).toEqual({ code: 0, signal: null });
    await eventually(() => expect(() => process.kill(again, 0)).toThrow(), 30_000, 50);
  }, 120_000);
});

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contentKey, defaultSiteContent } from '../app/content/site-content.ts';
import { eventually, tempDataDir } from '../app/leads/testing/test-support.server.ts';
import { createRelease, publishRelease } from '../server/build-releases.ts';
import { descendantsOf, watchServerOutput } from '../server/testing/server-output.server.ts';

/**
 * `npm start`'s two processes (scripts/start.ts): the web server and the
 * builder side by side; a builder that ends is started again, signals
 * reach both, and when the web server ends everything does.
 */

const root = path.resolve(import.meta.dirname, '..');

/** The smallest build the web server serves; nothing for the builder to do with it. */
function stubBuild(dir: string): string {
  const buildDir = path.join(dir, 'build');
  const release = createRelease(buildDir);
  mkdirSync(path.join(release, 'client'));
  writeFileSync(path.join(release, 'client/index.html'), '<!doctype html><title>Home</title>');
  mkdirSync(path.join(release, 'server'));
  writeFileSync(
    path.join(release, 'server/entry.mjs'),
    "export const handler = (req, res) => { res.status(404).type('text/plain').send('Not found'); };\n",
  );
  // The defaults' content, as the store without a version asks for: nothing to build.
  writeFileSync(
    path.join(release, 'build-stamp.json'),
    JSON.stringify({ content: { version: 0, key: contentKey(0, defaultSiteContent, new Date()) } }),
  );
  publishRelease(buildDir, release);
  return buildDir;
}

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

async function startBoth(): Promise<Started> {
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
});

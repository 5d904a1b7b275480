import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/**
 * `npm start` after scripts/ensure-build.ts: the web server (server/start.ts)
 * and the builder (server/builder.ts) as sibling processes
 * (docs/decisions/0010-builds-in-their-own-process.md), and with BACKUP_URL
 * set and the embedded store, the replicator (server/replicator.ts,
 * docs/decisions/0013-continuous-backups-with-litestream.md). SIGINT and
 * SIGTERM go to all; a builder or replicator that ends on its own is
 * started again (after a pause that grows while it keeps ending, up to a
 * minute); when the web server ends, the others are stopped and this ends
 * with the web server's exit code. Each child has an IPC channel to this
 * process and stops when it closes, so none outlives this one, however it
 * ends. With systemd, they run as units of their own instead (deploy/).
 */

const root = path.resolve(import.meta.dirname, '..');
const RESTART_MIN_MS = 1000;
const RESTART_MAX_MS = 60_000;
/** A builder that ran this long before it ended is restarted after the shortest pause. */
const STEADY_MS = 60_000;

let stopping: NodeJS.Signals | undefined;

function run(script: string): ChildProcess {
  return spawn(process.execPath, [path.join(root, script)], {
    cwd: root,
    env: process.env,
    // Their output is this process's: one log, as when the server was one process.
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/**
 * A sibling of the web server that is started again whenever it ends, after
 * a pause that grows while it keeps ending.
 */
class Sibling {
  child: ChildProcess | undefined;
  #timer: NodeJS.Timeout | undefined;
  #restartMs = RESTART_MIN_MS;

  readonly name: string;
  readonly script: string;

  constructor(name: string, script: string) {
    this.name = name;
    this.script = script;
  }

  start() {
    const started = Date.now();
    const child = run(this.script);
    this.child = child;
    child.once('exit', (code, signal) => {
      if (this.child === child) this.child = undefined;
      if (stopping) return;
      if (Date.now() - started >= STEADY_MS) this.#restartMs = RESTART_MIN_MS;
      console.error(
        JSON.stringify({
          level: 50,
          time: Date.now(),
          service: 'start',
          code,
          signal,
          restartInMs: this.#restartMs,
          msg: `the ${this.name} ended; starting it again`,
        }),
      );
      this.#timer = setTimeout(() => this.start(), this.#restartMs);
      this.#restartMs = Math.min(this.#restartMs * 2, RESTART_MAX_MS);
    });
  }

  stop(signal: NodeJS.Signals): Promise<void> {
    clearTimeout(this.#timer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    return ended;
  }
}

const web = run('server/start.ts');
const siblings = [new Sibling('builder', 'server/builder.ts')];
// Continuous backups of the embedded store (docs/operations.md, "Backups").
if (process.env.BACKUP_URL?.trim() && !process.env.DATABASE_URL?.trim()) {
  siblings.push(new Sibling('replicator', 'server/replicator.ts'));
}
for (const sibling of siblings) sibling.start();

web.once('exit', (code, signal) => {
  stopping ??= 'SIGTERM';
  void Promise.all(siblings.map((sibling) => sibling.stop('SIGTERM'))).then(() =>
    process.exit(code ?? (signal ? 1 : 0)),
  );
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopping = signal;
    web.kill(signal);
    for (const sibling of siblings) void sibling.stop(signal);
  });
}

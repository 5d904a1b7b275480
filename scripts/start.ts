import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/**
 * `npm start` after scripts/ensure-build.ts: the web server (server/start.ts)
 * and the builder (server/builder.ts) as two sibling processes
 * (docs/decisions/0010-builds-in-their-own-process.md). SIGINT and SIGTERM
 * go to both; a builder that ends on its own is started again (after a
 * pause that grows while it keeps ending, up to a minute); when the web
 * server ends, the builder is stopped and this ends with the web server's
 * exit code. Each child has an IPC channel to this process and stops when
 * it closes, so neither outlives this one, however it ends. With systemd,
 * the two run as units of their own instead (deploy/).
 */

const root = path.resolve(import.meta.dirname, '..');
const RESTART_MIN_MS = 1000;
const RESTART_MAX_MS = 60_000;
/** A builder that ran this long before it ended is restarted after the shortest pause. */
const STEADY_MS = 60_000;

let stopping: NodeJS.Signals | undefined;
let builder: ChildProcess | undefined;
let restartTimer: NodeJS.Timeout | undefined;
let restartMs = RESTART_MIN_MS;

function run(script: string): ChildProcess {
  return spawn(process.execPath, [path.join(root, script)], {
    cwd: root,
    env: process.env,
    // Their output is this process's: one log, as when the server was one process.
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

function startBuilder() {
  const started = Date.now();
  const child = run('server/builder.ts');
  builder = child;
  child.once('exit', (code, signal) => {
    if (builder === child) builder = undefined;
    if (stopping) return;
    if (Date.now() - started >= STEADY_MS) restartMs = RESTART_MIN_MS;
    console.error(
      JSON.stringify({
        level: 50,
        time: Date.now(),
        service: 'start',
        code,
        signal,
        restartInMs: restartMs,
        msg: 'the builder ended; starting it again',
      }),
    );
    restartTimer = setTimeout(startBuilder, restartMs);
    restartMs = Math.min(restartMs * 2, RESTART_MAX_MS);
  });
}

const web = run('server/start.ts');
startBuilder();

web.once('exit', (code, signal) => {
  stopping ??= 'SIGTERM';
  clearTimeout(restartTimer);
  const exit = () => process.exit(code ?? (signal ? 1 : 0));
  if (!builder || builder.exitCode !== null || builder.signalCode !== null) return exit();
  builder.once('exit', exit);
  builder.kill('SIGTERM');
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stopping = signal;
    clearTimeout(restartTimer);
    web.kill(signal);
    builder?.kill(signal);
  });
}

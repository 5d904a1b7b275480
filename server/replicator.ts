import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { SQLITE_FILE_NAME } from '../app/db/store-sqlite.server.ts';
import { openStore } from '../app/db/open-store.server.ts';
import { defaultFacts } from '../app/content/facts.ts';
import { EnvError, parseEnv, type Env } from './env.server.ts';
import {
  historyForDays,
  litestreamBinary,
  litestreamEnv,
  writeLitestreamConfig,
} from './backup/litestream.server.ts';

/**
 * The replicator (docs/decisions/0013-continuous-backups-with-litestream.md):
 * Litestream copying the embedded store to BACKUP_URL as it is written,
 * beside the web server and the builder. `npm start` runs it when BACKUP_URL
 * is set (scripts/start.ts); systemd runs it as
 * deploy/glass-site-replicator.service.
 *
 * It writes Litestream's configuration from the environment and keeps the
 * backup's history as long as the published privacy policy says
 * (`leadBackupRetention`): every RETENTION_CHECK_MS it reads the published
 * figure again, and when the owner changed it, starts Litestream again with
 * the new one. When Litestream ends on its own, so does this process, and
 * its supervisor starts it again.
 */

const RETENTION_CHECK_MS = 10 * 60_000;
/**
 * util-linux's setpriv, on every Debian system, when it may run here: under
 * the unit's sandbox (no capability system calls) it cannot, and there
 * systemd stops whatever the unit left running anyway. Without it Litestream
 * is started directly.
 */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find(
  (file) =>
    existsSync(file) &&
    spawnSync(file, ['--pdeathsig', 'TERM', '--', process.execPath, '-e', ''], {
      stdio: 'ignore',
    }).status === 0,
);

let env: Env;
try {
  env = parseEnv();
} catch (error) {
  if (error instanceof EnvError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const logger = pino({ level: env.LOG_LEVEL, base: { service: 'replicator' } });
const target = env.BACKUP_URL;
if (!target || env.DATABASE_URL) {
  logger.info(
    env.DATABASE_URL
      ? 'PostgreSQL keeps its own backups (docs/operations.md, "Backups"); nothing to replicate'
      : 'BACKUP_URL is not set; nothing to replicate',
  );
  process.exit(0);
}
const dbPath = path.resolve(env.DATA_DIR, SQLITE_FILE_NAME);

/** The published policy's figure, or the shipped one until a version is live. */
async function retentionDays(): Promise<number> {
  // Opening the store also creates and migrates the file Litestream watches.
  const store = await openStore({ dataDir: env.DATA_DIR });
  try {
    const live = await store.newestLiveSiteContent();
    return (
      live?.content.hours.facts.leadBackupRetention.days ?? defaultFacts.leadBackupRetention.days
    );
  } finally {
    await store.close();
  }
}

let child: ChildProcess | undefined;
let stopping = false;
let days = await retentionDays();

async function startLitestream(): Promise<void> {
  const config = await writeLitestreamConfig(dbPath, target!, historyForDays(days));
  const command = [litestreamBinary(), 'replicate', '-no-expand-env', '-config', config.file];
  // Litestream ends when this process does, however it ends (a SIGKILL
  // included): the kernel sends it SIGTERM (util-linux's setpriv), so a
  // replicator started again never finds an orphan copying beside it.
  const [file, ...args] = SETPRIV ? [SETPRIV, '--pdeathsig', 'TERM', '--', ...command] : command;
  const started = spawn(file!, args, {
    env: litestreamEnv(target!),
    // Litestream logs JSON lines to stderr: this process's log.
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child = started;
  logger.info(
    {
      target: target!.kind === 'file' ? target!.path : `s3://${target!.bucket}/${target!.path}`,
      retentionDays: days,
      pid: started.pid,
    },
    'replicating the store',
  );
  started.once('exit', (code, signal) => {
    void config.remove();
    if (child !== started) return;
    child = undefined;
    if (stopping) return;
    logger.error({ code, signal }, 'litestream ended');
    process.exit(code ?? 1);
  });
}

async function restartIfRetentionChanged(): Promise<void> {
  const now = await retentionDays();
  if (now === days || stopping) return;
  logger.info({ from: days, to: now }, 'the backup retention changed; restarting litestream');
  days = now;
  const old = child;
  child = undefined;
  if (old) {
    const ended = new Promise((resolve) => old.once('exit', resolve));
    old.kill('SIGTERM');
    await ended;
  }
  if (!stopping) await startLitestream();
}

await startLitestream();
const retentionTimer = setInterval(() => {
  restartIfRetentionChanged().catch((error: unknown) =>
    logger.error({ err: error }, 'cannot read the backup retention'),
  );
}, RETENTION_CHECK_MS);

function shutdown(reason: string) {
  if (stopping) return;
  stopping = true;
  clearInterval(retentionTimer);
  logger.info({ reason }, 'replicator stopping');
  const running = child;
  if (!running) process.exit(0);
  // Litestream copies what it has not copied yet before it ends.
  running.once('exit', () => process.exit(0));
  running.kill('SIGTERM');
  setTimeout(() => running.kill('SIGKILL'), 20_000).unref();
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
// Started by scripts/start.ts: it goes when its supervisor goes, however that ends.
if (process.connected) process.once('disconnect', () => shutdown('supervisor gone'));

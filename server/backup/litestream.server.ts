import { spawn } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';

/**
 * Litestream (docs/decisions/0013-continuous-backups-with-litestream.md):
 * the kept tool that copies the embedded store to the backup as it is
 * written, and restores it. This module knows its command line and its
 * configuration file; nothing else in the project does.
 *
 * The binary comes from the npm registry, pinned in package.json: the
 * platform package `@flydotio/litestream-linux-x64` ships Litestream 0.3.13.
 * The configuration is written from the environment (BACKUP_*) to a private
 * temporary file for each run; the S3 secret never goes in it: Litestream
 * reads it from its own environment (LITESTREAM_SECRET_ACCESS_KEY), and
 * nothing here logs it.
 */

/** Where BACKUP_URL points (docs/operations.md, "Backups"). */
export type BackupTarget =
  | { kind: 'file'; path: string }
  | {
      kind: 's3';
      bucket: string;
      /** The folder inside the bucket, without a leading slash. */
      path: string;
      endpoint: string | undefined;
      region: string;
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
    };

/**
 * BACKUP_URL: `file:///ABSOLUTE/PATH` or `s3://BUCKET/PATH`; an error
 * message (without the value) when it is neither.
 */
export function parseBackupUrl(value: string): { target: BackupTarget } | { error: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { error: 'must be file:///ABSOLUTE/PATH or s3://BUCKET/PATH' };
  }
  if (url.protocol === 'file:') {
    if (url.host !== '' || url.pathname === '/' || url.search || url.hash) {
      return {
        error: 'a file:// backup needs an absolute folder, such as file:///var/backups/glass-site',
      };
    }
    return { target: { kind: 'file', path: decodeURIComponent(url.pathname) } };
  }
  if (url.protocol === 's3:') {
    const folder = decodeURIComponent(url.pathname).replace(/^\/+/, '').replace(/\/+$/, '');
    if (url.hostname === '' || folder === '' || url.username || url.password || url.search) {
      return {
        error:
          'an s3:// backup needs a bucket and a folder, such as s3://my-bucket/glass-site (keys go in BACKUP_S3_*)',
      };
    }
    return {
      target: {
        kind: 's3',
        bucket: url.hostname,
        path: folder,
        endpoint: undefined,
        region: 'us-east-1',
        accessKeyId: undefined,
        secretAccessKey: undefined,
      },
    };
  }
  return { error: 'must be file:///ABSOLUTE/PATH or s3://BUCKET/PATH' };
}

/** Litestream's executable for this machine, from its npm package. */
export function litestreamBinary(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve(
    `@flydotio/litestream-${process.platform}-${process.arch}/package.json`,
  );
  return path.join(path.dirname(manifest), 'litestream');
}

/** How the backup keeps its history: how long, and how often it starts a new full copy. */
export interface BackupHistory {
  /** Nothing older than this stays in the backup (the privacy policy's days, less the check interval). */
  retentionMs: number;
  /** How often Litestream looks for data older than that. */
  retentionCheckMs: number;
  /** How often a full copy is made; older data can be deleted only once a newer copy exists. */
  snapshotMs: number;
  /**
   * How long after the store's file last changed Litestream checkpoints the
   * write-ahead log into it (default: Litestream's minute). A copy made
   * after the log started again replaces the older ones.
   */
  checkpointMs?: number;
}

const HOUR_MS = 3_600_000;

/**
 * The history for a privacy policy that promises a backup is gone `days`
 * days after what it holds was deleted: a full copy every day, each deleted
 * within an hour of passing `days` days less an hour, so no copy made
 * before a deletion outlives it by more than `days` days.
 */
export function historyForDays(days: number): BackupHistory {
  return {
    retentionMs: days * 24 * HOUR_MS - HOUR_MS,
    retentionCheckMs: HOUR_MS,
    snapshotMs: 24 * HOUR_MS,
  };
}

/** A duration as Go writes it (Litestream's configuration): whole milliseconds. */
function goDuration(ms: number): string {
  return `${Math.max(1, Math.round(ms))}ms`;
}

/**
 * Litestream's configuration for the store file `dbPath` and the target.
 * Holds no secret: the keys are passed in the environment (litestreamEnv).
 */
export function litestreamConfig(
  dbPath: string,
  target: BackupTarget,
  history: BackupHistory = historyForDays(30),
): string {
  const replica: Record<string, unknown> = {
    name: 'backup',
    // Every committed write reaches the backup within a second or two.
    'sync-interval': '1s',
    retention: goDuration(history.retentionMs),
    'retention-check-interval': goDuration(history.retentionCheckMs),
    'snapshot-interval': goDuration(history.snapshotMs),
  };
  if (target.kind === 'file') {
    Object.assign(replica, { type: 'file', path: target.path });
  } else {
    Object.assign(replica, {
      type: 's3',
      bucket: target.bucket,
      path: target.path,
      region: target.region,
      ...(target.endpoint ? { endpoint: target.endpoint, 'force-path-style': true } : {}),
    });
  }
  return stringify({
    logging: { level: 'info', type: 'json', stderr: true },
    dbs: [
      {
        path: dbPath,
        ...(history.checkpointMs
          ? { 'checkpoint-interval': goDuration(history.checkpointMs) }
          : {}),
        replicas: [replica],
      },
    ],
  });
}

/** Litestream's environment: the S3 keys, under the names it reads them from. */
export function litestreamEnv(
  target: BackupTarget,
  base: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const name of Object.keys(env)) {
    if (name.startsWith('BACKUP_S3_') || name.startsWith('AWS_')) delete env[name];
  }
  if (target.kind === 's3') {
    if (target.accessKeyId) env.AWS_ACCESS_KEY_ID = target.accessKeyId;
    if (target.secretAccessKey) env.AWS_SECRET_ACCESS_KEY = target.secretAccessKey;
  }
  return env;
}

/** A private folder with Litestream's configuration in it; `remove` deletes both. */
export async function writeLitestreamConfig(
  dbPath: string,
  target: BackupTarget,
  history?: BackupHistory,
): Promise<{ file: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'glass-backup-'));
  const file = path.join(dir, 'litestream.yml');
  await writeFile(file, litestreamConfig(dbPath, target, history), { mode: 0o600 });
  return { file, remove: () => rm(dir, { recursive: true, force: true }) };
}

export class LitestreamError extends Error {
  override name = 'LitestreamError';
}

/** Runs one Litestream command to its end; its output, or a LitestreamError with its last lines. */
export function runLitestream(
  args: readonly string[],
  target: BackupTarget,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(litestreamBinary(), args, {
      env: litestreamEnv(target),
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeoutMs ?? 10 * 60_000,
      signal: options.signal,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', (error) => reject(new LitestreamError(error.message)));
    child.once('close', (code, signal) => {
      if (code === 0) return resolve(stdout);
      const said = (stderr || stdout).trim().split('\n').slice(-3).join(' ').slice(0, 500);
      reject(
        new LitestreamError(
          `litestream ${args[0]} ended with ${signal ?? `code ${code}`}${said ? `: ${said}` : ''}`,
        ),
      );
    });
  });
}

/**
 * Restores the backup of `dbPath` into `outputFile` (which must not exist):
 * the newest state, or the state at `at`. Throws a LitestreamError when
 * there is no backup or it cannot be read.
 */
export async function restoreBackup(
  dbPath: string,
  target: BackupTarget,
  outputFile: string,
  options: { at?: Date | undefined; timeoutMs?: number } = {},
): Promise<void> {
  const config = await writeLitestreamConfig(dbPath, target);
  try {
    const args = ['restore', '-no-expand-env', '-config', config.file, '-o', outputFile];
    const run = (extra: string[]) =>
      runLitestream([...args, ...extra, dbPath], target, { timeoutMs: options.timeoutMs });
    if (!options.at) return void (await run([]));
    try {
      await run(['-timestamp', options.at.toISOString()]);
    } catch (error) {
      // Litestream looks for the time between the first and the last write
      // to the backup; after the last one (known to the second), the state
      // then is the newest.
      const newest = await backupUpdatedAt(dbPath, target, config.file).catch(() => null);
      if (!newest || options.at.getTime() < newest.getTime() + 1000) throw error;
      await run([]);
    }
  } finally {
    await config.remove();
  }
}

/**
 * When the backup was last written to (the newest end of its generations),
 * or null when it holds nothing yet.
 */
export async function backupUpdatedAt(
  dbPath: string,
  target: BackupTarget,
  configFile?: string,
): Promise<Date | null> {
  const config = configFile
    ? { file: configFile, remove: () => Promise.resolve() }
    : await writeLitestreamConfig(dbPath, target);
  try {
    const out = await runLitestream(
      ['generations', '-no-expand-env', '-config', config.file, dbPath],
      target,
      { timeoutMs: 60_000 },
    );
    let newest: number | null = null;
    // name  generation  lag  start  end (the times in RFC 3339, to the second)
    for (const line of out.split('\n').slice(1)) {
      const end = line.trim().split(/\s+/)[4];
      const time = end ? Date.parse(end) : NaN;
      if (!Number.isNaN(time) && (newest === null || time > newest)) newest = time;
    }
    return newest === null ? null : new Date(newest);
  } finally {
    await config.remove();
  }
}

/** When the store file last changed: its own time or its write-ahead log's, whichever is later. */
export async function storeUpdatedAt(dbPath: string): Promise<Date | null> {
  const times = await Promise.all(
    [dbPath, `${dbPath}-wal`].map((file) =>
      stat(file).then(
        (info) => info.mtimeMs,
        () => null,
      ),
    ),
  );
  const known = times.filter((time): time is number => time !== null);
  return known.length === 0 ? null : new Date(Math.max(...known));
}

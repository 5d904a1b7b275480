import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';
import { SQLITE_FILE_NAME } from '../app/db/store-sqlite.server.ts';
import { EnvError, parseEnv } from '../server/env.server.ts';
import { LitestreamError, restoreBackup } from '../server/backup/litestream.server.ts';

/**
 * `npm run restore -- [--at ISO_TIME]` (docs/operations.md, "Backups"):
 * restores the embedded store from BACKUP_URL into DATA_DIR, which must be
 * empty or absent: the newest state, or the state at that time. A DATA_DIR
 * with anything in it is refused and left as it was; a restore that fails
 * leaves DATA_DIR as it found it.
 */

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

let env;
try {
  env = parseEnv();
} catch (error) {
  if (error instanceof EnvError) fail(error.message);
  throw error;
}

let at: Date | undefined;
try {
  const { values } = parseArgs({ options: { at: { type: 'string' } }, strict: true });
  if (values.at !== undefined) {
    at = new Date(values.at);
    if (Number.isNaN(at.getTime()))
      fail(`--at: "${values.at}" is not a time (2026-11-28T09:14:00Z)`);
  }
} catch (error) {
  if (error instanceof Error && 'code' in error)
    fail(`${error.message}\nUsage: npm run restore -- [--at ISO_TIME]`);
  throw error;
}

if (env.DATABASE_URL) {
  fail(
    'DATABASE_URL is set: PostgreSQL is restored with its own tools (docs/operations.md, "Backups").',
  );
}
const target = env.BACKUP_URL;
if (!target) fail('BACKUP_URL is not set: there is no backup to restore from.');

const dataDir = path.resolve(env.DATA_DIR);
let existing: string[] | undefined;
try {
  existing = readdirSync(dataDir);
} catch (error) {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
}
if (existing && existing.length > 0) {
  fail(
    `${dataDir} is not empty: nothing was changed. Restore into an empty folder (set DATA_DIR to a new one, or move this one aside).`,
  );
}
if (!existing) mkdirSync(dataDir, { recursive: true });

const dbPath = path.join(dataDir, SQLITE_FILE_NAME);
try {
  await restoreBackup(dbPath, target, dbPath, { at });
} catch (error) {
  // Leave the folder as it was found: empty, or not there.
  if (existing) {
    for (const name of readdirSync(dataDir))
      rmSync(path.join(dataDir, name), { recursive: true, force: true });
  } else {
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (error instanceof LitestreamError) fail(`Nothing restored: ${error.message}`);
  throw error;
}

const db = new DatabaseSync(dbPath, { readOnly: true });
try {
  const row = db.prepare('SELECT COUNT(*) AS n, MAX(created_at) AS newest FROM leads').get();
  const newest = row?.newest ? `, the newest from ${String(row.newest)}` : '';
  console.log(
    `Restored ${dbPath}${at ? ` as it was at ${at.toISOString()}` : ''}: ${Number(row?.n)} leads${newest}.`,
  );
} finally {
  db.close();
}

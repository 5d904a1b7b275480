import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import S3rver from 's3rver';
import {
  litestreamBinary,
  litestreamEnv,
  restoreBackup,
  writeLitestreamConfig,
  type BackupHistory,
  type BackupTarget,
} from '../litestream.server.ts';

/**
 * Backups for tests, with the real tools: Litestream replicating a store
 * file, and s3rver (an S3-compatible server on loopback) as the bucket.
 * Not a test file: imported by the backup tests.
 */

export interface TestBucket {
  target: BackupTarget;
  close(): Promise<void>;
}

/** s3rver on a port the system picks, with one bucket, and a target naming it. */
export async function startTestBucket(dir: string): Promise<TestBucket> {
  mkdirSync(dir, { recursive: true });
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: dir,
    configureBuckets: [{ name: 'glass-backups', configs: [] }],
  });
  listCommonPrefixesAtAnyDepth(server);
  const { port } = await server.run();
  return {
    target: {
      kind: 's3',
      bucket: 'glass-backups',
      path: 'site',
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      // s3rver's own keys.
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
    },
    close: () => server.close(),
  };
}

interface ListedObjects {
  objects: Array<{ key: string }>;
  commonPrefixes: string[];
  isTruncated: boolean;
}
interface ListOptions {
  delimiter?: string;
  prefix?: string;
  maxKeys?: number;
  startAfter?: string;
}

/**
 * s3rver 3.7's file store never looks below the first folder under the
 * prefix when a delimiter is given, so a prefix whose objects are deeper
 * (Litestream's `generations/ID/snapshots/…`) is not listed, and Litestream
 * finds no backup. Here the listing with a delimiter is made from the full
 * listing, as S3 makes it.
 */
function listCommonPrefixesAtAnyDepth(server: S3rver): void {
  const store = (
    server as unknown as {
      store: { listObjects(bucket: string, options: ListOptions): Promise<ListedObjects> };
    }
  ).store;
  const list = store.listObjects.bind(store);
  store.listObjects = async (bucket, options) => {
    if (!options.delimiter) return list(bucket, options);
    const { delimiter, maxKeys = Infinity, ...rest } = options;
    const prefix = options.prefix ?? '';
    const all = await list(bucket, { ...rest, prefix });
    const prefixes = new Set<string>();
    const objects: ListedObjects['objects'] = [];
    for (const object of all.objects) {
      const at = object.key.slice(prefix.length).indexOf(delimiter);
      if (at === -1) objects.push(object);
      else prefixes.add(object.key.slice(0, prefix.length + at + delimiter.length));
    }
    return {
      objects: objects.slice(0, maxKeys),
      commonPrefixes: [...prefixes].sort(),
      isTruncated: objects.length > maxKeys,
    };
  };
}

export interface Replication {
  process: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** `litestream replicate` on the store file, as the replicator runs it. */
export async function replicate(
  dbPath: string,
  target: BackupTarget,
  history?: BackupHistory,
): Promise<Replication> {
  const config = await writeLitestreamConfig(dbPath, target, history);
  const child = spawn(litestreamBinary(), ['replicate', '-no-expand-env', '-config', config.file], {
    env: litestreamEnv(target),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await config.remove();
    },
  };
}

/** The ids of the leads in the newest backup (restored into `scratch`), or the state at `at`. */
export async function leadIdsInBackup(
  dbPath: string,
  target: BackupTarget,
  scratch: string,
  at?: Date,
): Promise<string[]> {
  mkdirSync(scratch, { recursive: true });
  const out = path.join(
    scratch,
    `restored-${Date.now()}-${Math.random().toString(36).slice(2)}.sqlite`,
  );
  await restoreBackup(dbPath, target, out, { at });
  if (!existsSync(out)) throw new Error('nothing was restored');
  const db = new DatabaseSync(out, { readOnly: true });
  try {
    return db
      .prepare('SELECT id FROM leads ORDER BY created_at')
      .all()
      .map((row) => String(row.id));
  } finally {
    db.close();
  }
}

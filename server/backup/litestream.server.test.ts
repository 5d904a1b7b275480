import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeLead } from '../../app/db/leads/leads.contract.ts';
import { openSqliteStore, SQLITE_FILE_NAME } from '../../app/db/store-sqlite.server.ts';
import { eventually, tempDataDir } from '../../app/leads/testing/test-support.server.ts';
import {
  historyForDays,
  litestreamBinary,
  litestreamConfig,
  parseBackupUrl,
  runLitestream,
  type BackupTarget,
} from './litestream.server.ts';
import {
  leadIdsInBackup,
  replicate,
  startTestBucket,
} from './testing/backup-test-support.server.ts';

/**
 * Continuous backups with Litestream (docs/operations.md, "Backups"): every
 * committed lead is in the backup within 10 seconds, to a folder or to an
 * S3-compatible bucket; the backup keeps nothing older than its retention.
 */

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function scratch(): string {
  const dir = tempDataDir('backup-');
  cleanups.push(dir.remove);
  return dir.dir;
}

describe('the backup settings', () => {
  it('reads file:// and s3:// addresses and refuses others', () => {
    expect(parseBackupUrl('file:///var/backups/glass-site')).toEqual({
      target: { kind: 'file', path: '/var/backups/glass-site' },
    });
    expect(parseBackupUrl('s3://my-bucket/glass/site/')).toEqual({
      target: expect.objectContaining({ kind: 's3', bucket: 'my-bucket', path: 'glass/site' }),
    });
    for (const bad of [
      'file://host/x',
      'file:///',
      's3://bucket',
      's3://k:secret@b/p',
      'https://x/y',
      'nope',
    ]) {
      expect(parseBackupUrl(bad), bad).toHaveProperty('error');
      expect(JSON.stringify(parseBackupUrl(bad))).not.toContain('secret');
    }
  });

  it('never writes the S3 secret into the configuration, and keeps a day less an hour under the policy', () => {
    const config = litestreamConfig('/data/leads.sqlite', {
      kind: 's3',
      bucket: 'b',
      path: 'p',
      endpoint: 'https://s3.example.nz',
      region: 'ap-southeast-2',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'very-secret-key',
    });
    expect(config).not.toContain('very-secret-key');
    expect(config).not.toContain('AKIDEXAMPLE');
    expect(config).toContain('endpoint: https://s3.example.nz');
    // 30 days less an hour, checked every hour: gone within 30 days.
    expect(historyForDays(30).retentionMs + historyForDays(30).retentionCheckMs).toBe(
      30 * 86_400_000,
    );
    expect(config).toContain(`retention: ${30 * 86_400_000 - 3_600_000}ms`);
  });

  it('runs the pinned Litestream', async () => {
    expect(litestreamBinary()).toContain('@flydotio/litestream-');
    const version = await runLitestream(['version'], { kind: 'file', path: '/nowhere' });
    expect(version.trim()).toBe('v0.3.13');
  });
});

async function replicatesWithin10Seconds(target: BackupTarget, dir: string) {
  const dataDir = path.join(dir, 'data');
  const store = await openSqliteStore({ dataDir });
  cleanups.push(() => store.close());
  const dbPath = path.join(dataDir, SQLITE_FILE_NAME);
  const replication = await replicate(dbPath, target);
  cleanups.push(() => replication.stop());
  const first = makeLead();
  await store.insertLead(first, []);
  // The first copy of the store (the snapshot).
  await eventually(
    async () =>
      expect(await leadIdsInBackup(dbPath, target, path.join(dir, 'check'))).toContain(first.id),
    60_000,
    250,
  );
  // Then every lead committed after it, within 10 seconds.
  const lead = makeLead();
  await store.insertLead(lead, []);
  const committed = Date.now();
  await eventually(
    async () =>
      expect(await leadIdsInBackup(dbPath, target, path.join(dir, 'check'))).toContain(lead.id),
    10_000,
    200,
  );
  return Date.now() - committed;
}

describe('continuous replication', () => {
  it('has every committed lead in a file:// backup within 10 seconds', async () => {
    const dir = scratch();
    const ms = await replicatesWithin10Seconds(
      { kind: 'file', path: path.join(dir, 'backup') },
      dir,
    );
    expect(ms).toBeLessThan(10_000);
  }, 90_000);

  it('has every committed lead in an S3-compatible backup within 10 seconds', async () => {
    const dir = scratch();
    const bucket = await startTestBucket(path.join(dir, 's3'));
    cleanups.push(() => bucket.close());
    const ms = await replicatesWithin10Seconds(bucket.target, dir);
    expect(ms).toBeLessThan(10_000);
    // The bucket holds Litestream's files, and nothing in them names the secret.
    const files = readdirSync(path.join(dir, 's3', 'glass-backups'), { recursive: true });
    expect(files.some((file) => String(file).includes('snapshots'))).toBe(true);
  }, 90_000);
});

describe('retention', () => {
  it('deletes backup data older than the retention', async () => {
    const dir = scratch();
    const dataDir = path.join(dir, 'data');
    const target: BackupTarget = { kind: 'file', path: path.join(dir, 'backup') };
    const store = await openSqliteStore({ dataDir, replicated: true });
    cleanups.push(() => store.close());
    const dbPath = path.join(dataDir, SQLITE_FILE_NAME);
    // The policy's days, in seconds: a copy every second, kept 5 seconds.
    const replication = await replicate(dbPath, target, {
      retentionMs: 5000,
      retentionCheckMs: 500,
      snapshotMs: 1000,
      checkpointMs: 500,
    });
    cleanups.push(() => replication.stop());
    const old = makeLead();
    await store.insertLead(old, []);
    const check = path.join(dir, 'check');
    await eventually(
      async () => expect(await leadIdsInBackup(dbPath, target, check)).toContain(old.id),
      30_000,
      200,
    );
    // Every file of the backup, as it is now: its name and when it was written.
    const files = () =>
      readdirSync(target.kind === 'file' ? target.path : '', { recursive: true })
        .map(String)
        .filter((file) => file.endsWith('.lz4'))
        .map((file) => {
          try {
            return `${file}@${statSync(path.join(target.kind === 'file' ? target.path : '', file)).mtimeMs}`;
          } catch {
            return `${file}@gone`;
          }
        });
    // The lead is deleted; the copies made before hold it…
    const held = files();
    expect(held.some((file) => file.includes('snapshots/'))).toBe(true);
    const deletedAt = Date.now();
    await store.deleteLeads([old.id]);
    await eventually(
      async () => expect(await leadIdsInBackup(dbPath, target, check)).not.toContain(old.id),
      10_000,
      200,
    );
    expect(files().filter((file) => held.includes(file))).not.toEqual([]);
    // …until the retention has passed: then every one of them is gone.
    await eventually(
      () => expect(files().filter((file) => held.includes(file))).toEqual([]),
      30_000,
      200,
    );
    expect(Date.now() - deletedAt).toBeGreaterThanOrEqual(3000);
    expect(await leadIdsInBackup(dbPath, target, check)).not.toContain(old.id);
  }, 90_000);
});

describe('the store beside Litestream', () => {
  it('deletes a lead while Litestream holds the write-ahead log', async () => {
    const dir = scratch();
    const dataDir = path.join(dir, 'data');
    const target: BackupTarget = { kind: 'file', path: path.join(dir, 'backup') };
    const store = await openSqliteStore({ dataDir, replicated: true });
    cleanups.push(() => store.close());
    const dbPath = path.join(dataDir, SQLITE_FILE_NAME);
    const replication = await replicate(dbPath, target);
    cleanups.push(() => replication.stop());
    const lead = makeLead();
    await store.insertLead(lead, []);
    await eventually(
      async () =>
        expect(await leadIdsInBackup(dbPath, target, path.join(dir, 'check'))).toContain(lead.id),
      60_000,
      250,
    );
    // Litestream's read transaction keeps the log from being truncated: the
    // deletion is not held up (nor refused) for it.
    const started = Date.now();
    expect(await store.deleteLeads([lead.id])).toBe(1);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await store.getLead(lead.id)).toBeNull();
    // And the backup follows the deletion.
    await eventually(
      async () =>
        expect(await leadIdsInBackup(dbPath, target, path.join(dir, 'check'))).not.toContain(
          lead.id,
        ),
      10_000,
      200,
    );
  }, 90_000);
});

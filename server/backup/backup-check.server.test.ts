import { existsSync, readFileSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeLead } from '../../app/db/leads/leads.contract.ts';
import { openSqliteStore, SQLITE_FILE_NAME } from '../../app/db/store-sqlite.server.ts';
import {
  startSmtpServer,
  type TestSmtpServer,
} from '../../app/leads/testing/smtp-test-support.server.ts';
import {
  eventually,
  silentLogger,
  tempDataDir,
} from '../../app/leads/testing/test-support.server.ts';
import { parseEnv } from '../env.server.ts';
import { createRuntime, type LeadsHealth } from '../runtime.server.ts';
import { BACKUP_CHECK_FILE, createBackupCheck } from './backup-check.server.ts';
import type { BackupTarget } from './litestream.server.ts';
import { leadIdsInBackup, replicate } from './testing/backup-test-support.server.ts';

/**
 * The daily check (docs/operations.md#backups): it restores the newest
 * backup and finds the newest lead there, measures how far the backup is
 * behind, reports both in GET /healthz, and e-mails every owner once a day,
 * not more, while no restore was verified for 26 hours or the backup is
 * more than 5 minutes behind.
 */

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(options: { replicating: boolean }) {
  const scratch = tempDataDir('backup-check-');
  cleanups.push(scratch.remove);
  const dataDir = path.join(scratch.dir, 'data');
  const target: BackupTarget = { kind: 'file', path: path.join(scratch.dir, 'backup') };
  const store = await openSqliteStore({ dataDir, replicated: true });
  cleanups.push(() => store.close());
  const dbPath = path.join(dataDir, SQLITE_FILE_NAME);
  if (options.replicating) {
    const replication = await replicate(dbPath, target);
    cleanups.push(() => replication.stop());
  }
  return { dir: scratch.dir, dataDir, dbPath, target, store };
}

async function smtp(): Promise<TestSmtpServer> {
  const server = await startSmtpServer();
  cleanups.push(() => server.close());
  return server;
}

describe('the daily backup check', () => {
  it('restores the newest backup, finds the newest lead there and reports no lag', async () => {
    const { dir, dataDir, dbPath, target, store } = await setUp({ replicating: true });
    const older = makeLead({ created_at: new Date(Date.now() - 60_000).toISOString() });
    const newest = makeLead({ created_at: new Date(Date.now() - 30_000).toISOString() });
    await store.insertLead(older, []);
    await store.insertLead(newest, []);
    await eventually(
      async () =>
        expect(await leadIdsInBackup(dbPath, target, path.join(dir, 'c'))).toContain(newest.id),
      60_000,
      250,
    );
    const check = createBackupCheck({
      target,
      storeKind: 'sqlite',
      dataDir,
      store,
      logger: silentLogger(),
    });
    cleanups.push(() => check.close());
    expect(check.status()).toEqual({ state: 'on', verifiedAt: null, lagSeconds: 0 });
    const before = Date.now();
    expect(await check.verify()).toBe(true);
    const { verifiedAt } = check.status();
    expect(Date.parse(verifiedAt!)).toBeGreaterThanOrEqual(before);
    await eventually(async () => expect(await check.measureLag()).toBeLessThanOrEqual(2), 10_000);
    // Kept across a restart.
    expect(JSON.parse(readFileSync(path.join(dataDir, BACKUP_CHECK_FILE), 'utf8'))).toEqual(
      expect.objectContaining({ verifiedAt }),
    );
  }, 90_000);

  it('does not verify a backup that lacks the newest lead', async () => {
    const { dir, dataDir, dbPath, target, store } = await setUp({ replicating: false });
    const backedUp = makeLead({ created_at: new Date(Date.now() - 120_000).toISOString() });
    await store.insertLead(backedUp, []);
    const replication = await replicate(dbPath, target);
    await eventually(
      async () =>
        expect(await leadIdsInBackup(dbPath, target, path.join(dir, 'c'))).toContain(backedUp.id),
      60_000,
      250,
    );
    // The copying stops; a lead committed after it never reaches the backup.
    await replication.stop();
    await store.insertLead(
      makeLead({ created_at: new Date(Date.now() - 60_000).toISOString() }),
      [],
    );
    const check = createBackupCheck({
      target,
      storeKind: 'sqlite',
      dataDir,
      store,
      logger: silentLogger(),
    });
    cleanups.push(() => check.close());
    expect(await check.verify()).toBe(false);
    expect(check.status().verifiedAt).toBeNull();
  }, 90_000);

  it('e-mails every owner once a day while no restore is verified, and not more', async () => {
    const { dataDir, target, store } = await setUp({ replicating: false });
    const mail = await smtp();
    await store.addOwner('hemi@glass.example.nz', new Date().toISOString());
    await store.addOwner('mere@glass.example.nz', new Date().toISOString());
    const env = parseEnv({ SMTP_URL: mail.url, LEAD_EMAIL_TO: 'office@glass.example.nz' });
    const { sendBackupAlertEmail } = await import('../../app/owner/backup-email.server.ts');
    let clock = Date.now();
    const options = {
      target,
      storeKind: 'sqlite' as const,
      dataDir,
      store,
      logger: silentLogger(),
      now: () => new Date(clock),
      sendAlert: async (
        to: string,
        problem: Parameters<typeof sendBackupAlertEmail>[1]['problem'],
      ) =>
        (
          await sendBackupAlertEmail(
            env.SMTP_URL!,
            { to, problem, siteName: 'Tauranga Glass', from: 'website@glass.example.nz' },
            { timeoutMs: 5000 },
          )
        ).ok,
    };
    const check = createBackupCheck(options);
    cleanups.push(() => check.close());
    expect(await check.verify()).toBe(false);
    // Nothing is wrong yet: the check started watching just now.
    expect(await check.alertIfDue()).toBeNull();
    clock += 25 * 3_600_000;
    expect(await check.alertIfDue()).toBeNull();
    clock += 2 * 3_600_000;
    expect(await check.alertIfDue()).toEqual({ kind: 'unchecked', verifiedAt: null });
    await mail.waitForMessages(2);
    expect(
      mail.messages
        .map((message) => message.envelope.to)
        .flat()
        .sort(),
    ).toEqual(['hemi@glass.example.nz', 'mere@glass.example.nz']);
    const text = mail.messages[0]!.parsed.text ?? '';
    expect(mail.messages[0]!.parsed.subject).toBe(
      'The Tauranga Glass website’s backup needs attention',
    );
    expect(text).toContain('not been able to check its backup');
    expect(text).not.toMatch(/litestream|npm|BACKUP_URL|sqlite/i);

    // Not again the same day, even after a restart…
    clock += 23 * 3_600_000;
    expect(await check.alertIfDue()).toBeNull();
    const restarted = createBackupCheck(options);
    cleanups.push(() => restarted.close());
    expect(await restarted.alertIfDue()).toBeNull();
    expect(mail.messages).toHaveLength(2);
    // …but the next day, while it is still not fixed.
    clock += 2 * 3_600_000;
    expect(await restarted.alertIfDue()).toEqual({ kind: 'unchecked', verifiedAt: null });
    await mail.waitForMessages(4);
    expect(mail.messages).toHaveLength(4);
  }, 60_000);

  it('pushes the same words to the devices once a day, with or without e-mail', async () => {
    const { dataDir, target, store } = await setUp({ replicating: false });
    const { backupAlertPush } = await import('../../app/owner/backup-email.server.ts');
    let clock = Date.now();
    const pushed: unknown[] = [];
    const options = {
      target,
      storeKind: 'sqlite' as const,
      dataDir,
      store,
      logger: silentLogger(),
      now: () => new Date(clock),
      pushAlert: async (problem: Parameters<typeof backupAlertPush>[0]) => {
        pushed.push(backupAlertPush(problem));
        return true;
      },
    };
    const check = createBackupCheck(options);
    cleanups.push(() => check.close());
    expect(await check.alertIfDue()).toBeNull();
    clock += 27 * 3_600_000;
    expect(await check.alertIfDue()).toEqual({ kind: 'unchecked', verifiedAt: null });
    expect(pushed).toEqual([
      {
        type: 'notice',
        title: 'The website’s backup needs attention',
        body: 'The website has not been able to check its backup of your enquiries yet.',
        url: '/admin',
        tag: 'backup',
      },
    ]);
    // Not again the same day, even after a restart; again the next day.
    clock += 23 * 3_600_000;
    const restarted = createBackupCheck(options);
    cleanups.push(() => restarted.close());
    expect(await restarted.alertIfDue()).toBeNull();
    expect(pushed).toHaveLength(1);
    clock += 2 * 3_600_000;
    expect(await restarted.alertIfDue()).toEqual({ kind: 'unchecked', verifiedAt: null });
    expect(pushed).toHaveLength(2);
  });

  it('e-mails the owners when the backup is more than 5 minutes behind', async () => {
    const { dir, dataDir, dbPath, target, store } = await setUp({ replicating: true });
    const lead = makeLead();
    await store.insertLead(lead, []);
    await eventually(
      async () =>
        expect(await leadIdsInBackup(dbPath, target, path.join(dir, 'c'))).toContain(lead.id),
      60_000,
      250,
    );
    await store.addOwner('hemi@glass.example.nz', new Date().toISOString());
    const sent: string[] = [];
    const check = createBackupCheck({
      target,
      storeKind: 'sqlite',
      dataDir,
      store,
      logger: silentLogger(),
      sendAlert: async (to, problem) => {
        sent.push(`${to} ${problem.kind}`);
        return true;
      },
    });
    cleanups.push(() => check.close());
    expect(await check.measureLag()).toBeLessThanOrEqual(2);
    expect(await check.alertIfDue()).toBeNull();
    // The store written ten minutes after the backup last was (its copying stopped).
    const later = new Date(Date.now() + 10 * 60_000);
    utimesSync(`${dbPath}-wal`, later, later);
    expect(await check.measureLag()).toBeGreaterThan(300);
    expect(check.status().lagSeconds).toBeGreaterThan(300);
    expect(await check.alertIfDue()).toEqual(expect.objectContaining({ kind: 'behind' }));
    expect(await check.alertIfDue()).toBeNull();
    expect(sent).toEqual(['hemi@glass.example.nz behind']);
  }, 90_000);

  it('is in GET /healthz: verified soon after start', async () => {
    const { dir, dataDir, dbPath, target, store } = await setUp({ replicating: true });
    const lead = makeLead({ created_at: new Date(Date.now() - 60_000).toISOString() });
    await store.insertLead(lead, []);
    await eventually(
      async () =>
        expect(await leadIdsInBackup(dbPath, target, path.join(dir, 'c'))).toContain(lead.id),
      60_000,
      250,
    );
    const env = parseEnv({
      DATA_DIR: dataDir,
      BACKUP_URL: `file://${target.kind === 'file' ? target.path : ''}`,
    });
    const runtime = await createRuntime(env, silentLogger(), { backupCheck: { firstCheckMs: 0 } });
    cleanups.push(() => runtime.close());
    expect(((await runtime.health()) as LeadsHealth).backup).toEqual(
      expect.objectContaining({ state: 'on', verifiedAt: null }),
    );
    await eventually(
      async () => {
        const { backup } = (await runtime.health()) as LeadsHealth;
        expect(backup?.verifiedAt).not.toBeNull();
        expect(backup?.lagSeconds).toBeTypeOf('number');
      },
      30_000,
      100,
    );
    expect(runtime.ownerPages?.backup?.().verifiedAt).toEqual(
      ((await runtime.health()) as LeadsHealth).backup?.verifiedAt,
    );
    expect(existsSync(path.join(dataDir, BACKUP_CHECK_FILE))).toBe(true);
  }, 90_000);

  it('says plainly that it cannot check a PostgreSQL backup', async () => {
    const check = createBackupCheck({
      target: undefined,
      storeKind: 'postgres',
      dataDir: '/nowhere',
      store: { listLeads: async () => [], listOwners: async () => [] },
      logger: silentLogger(),
    });
    expect(check.status()).toEqual({ state: 'not-checked', verifiedAt: null, lagSeconds: null });
    expect(await check.verify()).toBe(false);
    expect(await check.alertIfDue()).toBeNull();
  });
});

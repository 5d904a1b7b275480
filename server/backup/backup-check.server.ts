import { mkdtemp, readFile, rm, writeFile, rename } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Logger } from 'pino';
import { SQLITE_FILE_NAME } from '../../app/db/store-sqlite.server.ts';
import type { AppStore } from '../../app/db/store.server.ts';
import type { BackupProblem } from '../../app/owner/backup-email.server.ts';
import {
  backupUpdatedAt,
  restoreBackup,
  storeUpdatedAt,
  type BackupTarget,
} from './litestream.server.ts';

/**
 * The daily proof that the backup restores (docs/operations.md, "Backups"):
 * soon after start and then once a day, the web server restores the newest
 * backup into a temporary folder and looks there for the newest lead the
 * store had committed; every minute it measures how far the backup is
 * behind the store. GET /healthz and /admin show both; while no restore
 * was verified for 26 hours, or the backup is more than 5 minutes behind,
 * every owner gets one e-mail a day until it is fixed, and every
 * subscribed device a push with the same words.
 *
 * With PostgreSQL the server cannot restore its backups (they are
 * PostgreSQL's own archive): the status says so, and nothing is e-mailed.
 */

/** No verified restore for this long: the owners are told. */
export const UNVERIFIED_ALERT_MS = 26 * 3_600_000;
/** The backup behind the store by more than this: the owners are told. */
export const LAG_ALERT_SECONDS = 5 * 60;
/** At most one e-mail to each owner in this time. */
export const ALERT_EVERY_MS = 24 * 3_600_000;
/** A lead committed this long ago is in the backup (Litestream copies every second). */
const REPLICATED_WITHIN_MS = 10_000;
/** The file in DATA_DIR that keeps the check's record across restarts. */
export const BACKUP_CHECK_FILE = 'backup-check.json';

export interface BackupStatus {
  /**
   * `on`: the embedded store is backed up and checked; `off`: no BACKUP_URL;
   * `not-checked`: PostgreSQL, whose backups this server cannot restore.
   */
  state: 'on' | 'off' | 'not-checked';
  /** When a restored backup last held the newest lead; null when never. */
  verifiedAt: string | null;
  /** How many seconds the backup is behind the store; null without a backup to measure. */
  lagSeconds: number | null;
}

interface CheckRecord {
  /** When the check first ran here: "26 hours without a verified restore" counts from it until one is verified. */
  watchingSince: string;
  verifiedAt: string | null;
  /** When the owners were last e-mailed; null while nothing is wrong. */
  alertedAt: string | null;
}

export interface BackupCheckOptions {
  target: BackupTarget | undefined;
  storeKind: 'sqlite' | 'postgres';
  dataDir: string;
  store: Pick<AppStore, 'listLeads' | 'listOwners'>;
  logger: Logger;
  /** E-mails one owner; false when it could not be sent. Unset: lead e-mail is not configured. */
  sendAlert?: ((to: string, problem: BackupProblem) => Promise<boolean>) | undefined;
  /**
   * Pushes the same warning to every subscribed device, when and as often
   * as the e-mail (once a day); false when no device took it. Unset: no push.
   */
  pushAlert?: ((problem: BackupProblem) => Promise<boolean>) | undefined;
  now?: () => Date;
  /** The first restore after start (default 2 minutes: Litestream's first copy is made by then). */
  firstCheckMs?: number;
  checkEveryMs?: number;
  lagEveryMs?: number;
}

export interface BackupCheck {
  status(): BackupStatus;
  /** Restores the newest backup into a temporary folder and looks for the newest lead there. */
  verify(): Promise<boolean>;
  /** How many seconds the backup is behind the store, measured now. */
  measureLag(): Promise<number>;
  /** E-mails every owner when something is wrong and they were not told in the last day. */
  alertIfDue(): Promise<BackupProblem | null>;
  start(): void;
  close(): Promise<void>;
}

export function createBackupCheck(options: BackupCheckOptions): BackupCheck {
  const { target, store, logger } = options;
  const now = options.now ?? (() => new Date());
  const log = logger.child({ component: 'backup-check' });
  const dbPath = path.resolve(options.dataDir, SQLITE_FILE_NAME);
  const recordFile = path.resolve(options.dataDir, BACKUP_CHECK_FILE);
  const state: BackupStatus['state'] =
    options.storeKind === 'postgres' ? 'not-checked' : target ? 'on' : 'off';
  let record: CheckRecord | undefined;
  let lagSeconds: number | null = null;
  const timers: NodeJS.Timeout[] = [];
  let running: Promise<unknown> = Promise.resolve();
  let closed = false;

  async function loadRecord(): Promise<CheckRecord> {
    if (record) return record;
    try {
      const saved = JSON.parse(await readFile(recordFile, 'utf8')) as Partial<CheckRecord>;
      record = {
        watchingSince: saved.watchingSince ?? now().toISOString(),
        verifiedAt: saved.verifiedAt ?? null,
        alertedAt: saved.alertedAt ?? null,
      };
    } catch {
      record = { watchingSince: now().toISOString(), verifiedAt: null, alertedAt: null };
      await saveRecord();
    }
    return record;
  }

  async function saveRecord(): Promise<void> {
    if (!record) return;
    const temporary = `${recordFile}.tmp`;
    await writeFile(temporary, JSON.stringify(record));
    await rename(temporary, recordFile);
  }

  /** The newest lead committed long enough ago to be in the backup; undefined when none. */
  async function newestReplicatedLead(at: Date): Promise<{ id: string } | undefined> {
    const recent = await store.listLeads({ limit: 20 });
    const settled = at.getTime() - REPLICATED_WITHIN_MS;
    return recent.find((lead) => Date.parse(lead.created_at) <= settled) ?? recent.at(-1);
  }

  async function verify(): Promise<boolean> {
    if (state !== 'on' || !target) return false;
    await loadRecord();
    const startedAt = now();
    const lead = await newestReplicatedLead(startedAt);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'glass-backup-check-'));
    try {
      const restored = path.join(dir, SQLITE_FILE_NAME);
      await restoreBackup(dbPath, target, restored, { timeoutMs: 10 * 60_000 });
      const db = new DatabaseSync(restored, { readOnly: true });
      let found: boolean;
      try {
        found = lead
          ? db.prepare('SELECT 1 AS found FROM leads WHERE id = ?').get(lead.id) !== undefined
          : db.prepare('SELECT COUNT(*) AS n FROM leads').get() !== undefined;
      } finally {
        db.close();
      }
      if (!found) {
        log.error({ lead: lead?.id }, 'the restored backup lacks the newest lead');
        return false;
      }
      record!.verifiedAt = now().toISOString();
      await saveRecord();
      log.info(
        { lead: lead?.id ?? null, ms: Date.now() - startedAt.getTime() },
        'backup restored and checked',
      );
      return true;
    } catch (error) {
      log.error({ err: error }, 'the backup could not be restored');
      return false;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async function measureLag(): Promise<number> {
    if (state !== 'on' || !target) return 0;
    const record = await loadRecord();
    const [written, copied] = await Promise.all([
      storeUpdatedAt(dbPath),
      backupUpdatedAt(dbPath, target).catch((error: unknown) => {
        log.error({ err: error }, 'cannot read the backup');
        return undefined;
      }),
    ]);
    const current = now().getTime();
    let lag: number;
    if (copied === undefined || copied === null) {
      // Nothing in the backup (or it cannot be read): behind since the check started watching.
      lag = (current - Date.parse(record.watchingSince)) / 1000;
    } else {
      lag = written ? (written.getTime() - copied.getTime()) / 1000 : 0;
    }
    lagSeconds = Math.max(0, Math.floor(lag));
    return lagSeconds;
  }

  async function alertIfDue(): Promise<BackupProblem | null> {
    if (state !== 'on') return null;
    const record = await loadRecord();
    const current = now().getTime();
    const since = Date.parse(record.verifiedAt ?? record.watchingSince);
    const problem: BackupProblem | null =
      current - since > UNVERIFIED_ALERT_MS
        ? { kind: 'unchecked', verifiedAt: record.verifiedAt }
        : lagSeconds !== null && lagSeconds > LAG_ALERT_SECONDS
          ? { kind: 'behind', lagSeconds }
          : null;
    if (!problem) {
      if (record.alertedAt) {
        record.alertedAt = null;
        await saveRecord();
      }
      return null;
    }
    if (record.alertedAt && current - Date.parse(record.alertedAt) < ALERT_EVERY_MS) return null;
    log.error({ problem }, 'the backup needs attention');
    if (!options.sendAlert && !options.pushAlert) return null;
    let sent = 0;
    if (options.sendAlert) {
      for (const owner of await store.listOwners()) {
        if (await options.sendAlert(owner.email, problem)) sent += 1;
      }
    }
    if (options.pushAlert && (await options.pushAlert(problem).catch(() => false))) sent += 1;
    if (sent > 0) {
      record.alertedAt = now().toISOString();
      await saveRecord();
    }
    return problem;
  }

  /** One piece of work at a time: a restore and a measurement never overlap. */
  function queue(work: () => Promise<unknown>): void {
    running = running
      .then(() => (closed ? undefined : work()))
      .catch((error: unknown) => log.error({ err: error }, 'backup check failed'));
  }

  return {
    status: () => ({
      state,
      verifiedAt: record?.verifiedAt ?? null,
      lagSeconds: state === 'on' ? (lagSeconds ?? 0) : null,
    }),
    verify,
    measureLag,
    alertIfDue,
    start() {
      if (state !== 'on') return;
      queue(loadRecord);
      const daily = async () => {
        await measureLag();
        await verify();
        await alertIfDue();
      };
      timers.push(setTimeout(() => queue(daily), options.firstCheckMs ?? 2 * 60_000));
      timers.push(setInterval(() => queue(daily), options.checkEveryMs ?? 24 * 3_600_000));
      timers.push(
        setInterval(
          () =>
            queue(async () => {
              await measureLag();
              await alertIfDue();
            }),
          options.lagEveryMs ?? 60_000,
        ),
      );
      for (const timer of timers) timer.unref();
    },
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      await running;
    },
  };
}

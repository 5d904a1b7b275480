import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { runActivityContract } from './activity/activity.contract.ts';
import { makeLead, runLeadsContract } from './leads/leads.contract.ts';
import { runLeadsInboxContract } from './leads/leads-inbox.contract.ts';
import { runLeadsSpamContract } from './leads/leads-spam.contract.ts';
import { runLeadsAlertsContract } from './leads/leads-alerts.contract.ts';
import { runLeadsFollowUpsContract } from './leads/leads-follow-ups.contract.ts';
import { runLeadsJobValueContract } from './leads/leads-job-value.contract.ts';
import { runOwnersContract } from './owners/owners.contract.ts';
import { runPushContract } from './push/push.contract.ts';
import { runProofsOfWorkContract } from './proofs-of-work/proofs-of-work.contract.ts';
import { runReviewsContract } from './reviews/reviews.contract.ts';
import { runRateLimitsContract } from './rate-limits/rate-limits.contract.ts';
import { runSecretsContract } from './secrets/secrets.contract.ts';
import { runSiteContentContract } from './site-content/site-content.contract.ts';
import type { LeadRecord } from './store.server.ts';
import { openSqliteStore, SQLITE_FILE_NAME } from './store-sqlite.server.ts';
import { openStore } from './open-store.server.ts';
import { sqliteHarness } from '../leads/testing/test-support.server.ts';

function tempDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'leads-sqlite-'));
}

for (const runContract of [
  runLeadsContract,
  runLeadsInboxContract,
  runLeadsSpamContract,
  runLeadsAlertsContract,
  runLeadsFollowUpsContract,
  runLeadsJobValueContract,
  runRateLimitsContract,
  runOwnersContract,
  runActivityContract,
  runSiteContentContract,
  runSecretsContract,
  runPushContract,
  runProofsOfWorkContract,
  runReviewsContract,
]) {
  runContract('SQLite', sqliteHarness);
}

/**
 * Runs `steps` (module code with `store` open on `dir`) in a child process
 * that then kills itself with SIGKILL: no close, no clean exit.
 */
function runThenSigkill(dir: string, steps: string): void {
  const storeModule = path.join(import.meta.dirname, 'store-sqlite.server.ts');
  const script = `
    const { openSqliteStore } = await import(${JSON.stringify(storeModule)});
    const store = await openSqliteStore({ dataDir: ${JSON.stringify(dir)} });
    ${steps}
    process.kill(process.pid, 'SIGKILL');
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  expect(child.signal).toBe('SIGKILL');
}

describe('SQLite store specifics', () => {
  it('openStore without DATABASE_URL creates DATA_DIR and the file', async () => {
    const root = tempDir();
    const dataDir = path.join(root, 'nested', 'data');
    try {
      const store = await openStore({ dataDir, databaseUrl: undefined });
      expect(store.kind).toBe('sqlite');
      await store.close();
      expect(existsSync(path.join(dataDir, SQLITE_FILE_NAME))).toBe(true);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('uses WAL with fsync on commit', async () => {
    const dir = tempDir();
    try {
      const store = await openSqliteStore({ dataDir: dir });
      await store.close();
      // journal_mode is persistent in the file; read it back from a fresh connection.
      const { DatabaseSync } = await import('node:sqlite');
      const db = new DatabaseSync(path.join(dir, SQLITE_FILE_NAME));
      expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fsyncs every lead commit, also after the outbox bookkeeping that skips it', async () => {
    const dir = tempDir();
    try {
      const store = await openSqliteStore({ dataDir: dir });
      const FULL = 2;
      expect(store.synchronous).toBe(FULL);
      const now = new Date().toISOString();
      const lead = makeLead({ created_at: now });
      await store.insertLead(lead, [
        { target: 'email', label: 'email', state: 'pending', next_attempt_at: now },
      ]);
      const claims = await store.claimDueDeliveries({
        owner: 'w',
        now,
        leaseUntil: new Date(Date.now() + 60_000).toISOString(),
        limit: 10,
        targets: ['email'],
      });
      expect(claims).toHaveLength(1);
      expect(store.synchronous).toBe(FULL);
      await store.recordDelivery(lead.id, 'w', {
        target: 'email',
        state: 'delivered',
        attempts: 1,
        next_attempt_at: null,
        last_error: null,
        delivered_at: now,
      });
      await store.expireReceived(now);
      await store.cancelDeliveriesExcept(['email']);
      expect(store.synchronous).toBe(FULL);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an attempt recorded without an fsync of its own survives SIGKILL right after', async () => {
    const dir = tempDir();
    try {
      runThenSigkill(
        dir,
        `
        const now = new Date().toISOString();
        await store.insertLead({
          id: '00000000-0000-4000-8000-000000000003', name: 'Recorded', email: 'r@example.com',
          phone: '021 000 0000', service: 'Windows', message: 'm', created_at: now,
          source: 'quote_form', status: 'accepted', idempotency_key: null,
        }, [{ target: 'email', label: 'email', state: 'pending', next_attempt_at: now }]);
        await store.claimDueDeliveries({ owner: 'w', now, leaseUntil: new Date(Date.now() + 60000).toISOString(), limit: 10, targets: ['email'] });
        await store.recordDelivery('00000000-0000-4000-8000-000000000003', 'w', {
          target: 'email', state: 'delivered', attempts: 1, next_attempt_at: null, last_error: null, delivered_at: now,
        });
      `,
      );
      const store = await openSqliteStore({ dataDir: dir });
      const lead = await store.getLead('00000000-0000-4000-8000-000000000003');
      await store.close();
      expect(lead?.deliveries).toEqual([
        expect.objectContaining({ state: 'delivered', attempts: 1, lease_owner: null }),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a committed lead survives SIGKILL of the process right after the commit', async () => {
    const dir = tempDir();
    try {
      // The child commits a lead and is killed right after.
      runThenSigkill(
        dir,
        `
        await store.insertLead({
          id: '00000000-0000-4000-8000-000000000001', name: 'Killed Process', email: 'k@example.com',
          phone: '021 000 0000', service: 'Windows', message: 'm', created_at: new Date().toISOString(),
          source: 'quote_form', status: 'accepted', idempotency_key: null,
        }, [{ target: 'webhook:0123456789abcdef', label: 'webhook 1 (127.0.0.1:9)', state: 'pending', next_attempt_at: new Date().toISOString() }]);
      `,
      );
      const store = await openSqliteStore({ dataDir: dir });
      const lead = await store.getLead('00000000-0000-4000-8000-000000000001');
      await store.close();
      expect(lead).toEqual(
        expect.objectContaining({
          name: 'Killed Process',
          deliveries: [expect.objectContaining({ state: 'pending' })],
        }),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a deleted or purged lead leaves none of its values, notes or photos in any file under DATA_DIR', async () => {
    const dir = tempDir();
    /** A lead whose every value holds a word found nowhere else; its delivery error too. */
    const marked = (label: string, overrides: Partial<LeadRecord> = {}) => {
      const word = `${label}${randomBytes(6).toString('hex')}`;
      const digits = String(randomBytes(4).readUInt32BE() % 10_000_000).padStart(7, '0');
      const lead = makeLead({
        name: `Name ${word}`,
        email: `${word}@example.co.nz`,
        phone: `021 ${digits}`,
        // Long enough to spill into an overflow page.
        message: `Message ${word} `.padEnd(1000, 'x'),
        idempotency_key: `key-${word}.digest`,
        ...overrides,
      });
      const error = `receiver answered: ${word} unknown`;
      // The owner's note, as first written and as changed later.
      const notes = [`Note ${word}`, `Later note ${word}`];
      const values = [lead.name, lead.email, lead.phone, `Message ${word}`, lead.idempotency_key!];
      // A photo's bytes: a recognisable run, large enough to fill several overflow pages.
      const photoMark = `Photo bytes ${word}`;
      const photos = [
        { data: new Uint8Array(Buffer.from(photoMark.padEnd(20_000, '#'))), width: 8, height: 6 },
      ];
      return { lead, error, notes, photos, values: [...values, error, ...notes, photoMark] };
    };
    const found = (value: string) => {
      const needle = Buffer.from(value, 'utf8');
      return readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .map((name) => path.join(dir, name))
        .filter((file) => {
          try {
            return readFileSync(file).includes(needle);
          } catch {
            return false; // a directory
          }
        });
    };
    const deleted = marked('deleted');
    const purged = marked('purged', { created_at: '2020-01-01T00:00:00.000Z' });
    const kept = marked('kept');
    // The server's connection stays open throughout, as in production.
    const server = await openSqliteStore({ dataDir: dir });
    try {
      const delivery = (at: string | null) => ({
        target: 'email',
        label: 'email',
        state: 'pending' as const,
        next_attempt_at: at,
      });
      for (let index = 0; index < 150; index++) {
        await server.insertLead(makeLead({ message: `Filler ${index} `.padEnd(900, 'y') }), [
          delivery(null),
        ]);
      }
      for (const { lead, photos } of [deleted, purged, kept]) {
        await server.insertLead(lead, [delivery(lead.created_at)], photos);
      }
      // Written into the file itself, as older leads are by SQLite's automatic checkpoints…
      const raw = new DatabaseSync(path.join(dir, SQLITE_FILE_NAME));
      raw.exec('PRAGMA wal_checkpoint(PASSIVE)');
      raw.close();
      // …then changed, so the write-ahead log holds them again, and the delivery error too.
      for (const { lead, error } of [deleted, purged, kept]) {
        await server.settleLead(lead.id, 'accepted', [
          {
            target: 'email',
            state: 'pending',
            attempts: 1,
            next_attempt_at: lead.created_at,
            last_error: error,
            delivered_at: null,
          },
        ]);
      }
      for (const { lead, notes } of [deleted, purged, kept]) {
        await server.saveLeadTracking(lead.id, 0, { stage: 'contacted', note: notes[0] });
      }
      const again = new DatabaseSync(path.join(dir, SQLITE_FILE_NAME));
      again.exec('PRAGMA wal_checkpoint(PASSIVE)');
      again.close();
      for (const { lead, notes } of [deleted, purged, kept]) {
        await server.saveLeadTracking(lead.id, 1, { stage: 'quoted', note: notes[1] });
      }
      for (const value of [...deleted.values, ...purged.values, ...kept.values]) {
        expect(found(value), value).not.toEqual([]);
      }

      // `npm run leads -- delete --email … --yes`: another process, while the server runs.
      const cli = await openSqliteStore({ dataDir: dir });
      const leads = await cli.findLeadsByEmail(deleted.lead.email);
      expect(await cli.deleteLeads(leads.map((lead) => lead.id))).toBe(1);
      await cli.close();
      // The server's daily retention purge.
      expect(await server.purgeCreatedBefore('2021-01-01T00:00:00.000Z')).toBe(1);

      for (const value of [...deleted.values, ...purged.values]) {
        expect(found(value), value).toEqual([]);
      }
      // The search does find what is still there.
      // (Not the kept lead's first note: secure_delete zeroed it when it was replaced.)
      for (const value of kept.values.filter((value) => value !== kept.notes[0])) {
        expect(found(value), value).not.toEqual([]);
      }
      expect(await server.getLead(kept.lead.id)).toEqual(
        expect.objectContaining({ note: kept.notes[1] }),
      );
      expect(await server.getLead(kept.lead.id)).toEqual(expect.objectContaining(kept.lead));
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('opening the SQLite store while another process holds its file', () => {
  it('waits for the lock, even for the connection settings, instead of failing at once', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'store-open-locked-'));
    try {
      // A file another process is writing to (a journal, not yet WAL, so
      // its lock stops a reader too), locked for a moment.
      const other = new DatabaseSync(path.join(dir, SQLITE_FILE_NAME));
      other.exec('CREATE TABLE busy (n INTEGER); BEGIN EXCLUSIVE; INSERT INTO busy VALUES (1);');
      const opening = openSqliteStore({ dataDir: dir });
      await new Promise((resolve) => setTimeout(resolve, 200));
      other.exec('COMMIT');
      other.close();
      const store = await opening;
      expect(await store.listLeads()).toEqual([]);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

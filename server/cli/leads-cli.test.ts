import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { defaultSiteContent } from '../../app/content/site-content.ts';
import { openPostgresStore } from '../../app/db/store-postgres.server.ts';
import { openSqliteStore } from '../../app/db/store-sqlite.server.ts';
import type { LeadRecord, AppStore, NewLeadPhoto } from '../../app/db/store.server.ts';
import { startSmtpServer } from '../../app/leads/testing/smtp-test-support.server.ts';
import { startReceiver, tempDataDir } from '../../app/leads/testing/test-support.server.ts';
import { csvCell, deliverySummary, main } from './leads-cli.ts';
import { NO_ATTRIBUTION } from '../../app/leads/intake/attribution.ts';
import { nzConversionTime } from '../../app/owner/google-ads.server.ts';

const CLI = path.join(import.meta.dirname, 'leads-cli.ts');

function run(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // A clean environment: only what the CLI should read.
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The CLI in this process (what the script runs), for speed on a busy
 * machine: each run of the script is a Node process that loads the stores.
 * The script itself (run above) is what a few tests use: its exit codes,
 * the environment it reads, and a table and a CSV file written to a pipe.
 */
async function cli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    env,
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

/** A small RFC 4180 reader, to check the CSV round-trips. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += char;
  }
  if (cell !== '' || row.length > 0) throw new Error('CSV does not end with CRLF');
  return rows;
}

/** What a terminal may run as a command: controls but tab and line breaks, DEL, C1, overrides. */
const TERMINAL_CONTROL =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const HOOK_A = 'webhook:1';
const HOOK_B = 'webhook:2';
const LABEL_A = 'webhook 1';
const LABEL_B = 'webhook 2';
const pendingTo = (target: string) => ({
  target,
  label: target === HOOK_A ? LABEL_A : LABEL_B,
  state: 'pending' as const,
  next_attempt_at: null,
});

function lead(overrides: Partial<LeadRecord>): LeadRecord {
  return {
    id: crypto.randomUUID(),
    name: 'Aroha Ngata',
    email: 'aroha@example.co.nz',
    phone: '021 555 0101',
    service: 'Windows',
    message: 'Cracked pane',
    created_at: '2025-03-01T00:00:00.000Z',
    source: 'contact_form',
    status: 'accepted',
    idempotency_key: null,
    urgent: false,
    attribution: NO_ATTRIBUTION,
    ...overrides,
  };
}

/** Where the pending lead came from: a Google ad, a campaign tag that reads as a formula. */
const PENDING_ATTRIBUTION = {
  landing: '/?utm_source=google&utm_medium=cpc&gclid=Cj0KCQ',
  referrer: 'www.google.com',
  utm_source: 'google',
  utm_medium: 'cpc',
  utm_campaign: '=HYPERLINK("http://evil.example")',
  utm_term: 'shower glass, frameless',
  utm_content: null,
  gclid: 'Cj0KCQ',
};

/** Starts like a formula, and runs over two lines. */
const PENDING_NOTE = '=Rang back Tue 3 pm,\nquote sent for "double glazing"';

describe('leads CLI', () => {
  let data: ReturnType<typeof tempDataDir>;
  let empty: ReturnType<typeof tempDataDir>;
  const leads = {
    delivered: lead({ created_at: '2025-03-01T09:00:00.000Z', name: 'Delivered Person' }),
    pending: lead({
      created_at: '2025-03-02T09:00:00.000Z',
      name: 'Pending Person',
      source: 'hero_form',
      service: 'Home Glass',
      message: 'Service type: Home Glass. Postal code: 3110',
      urgent: true,
      attribution: PENDING_ATTRIBUTION,
    }),
    hostile: lead({
      created_at: '2025-03-03T09:00:00.000Z',
      name: '=HYPERLINK("http://evil.example","Click")',
      email: '@evil.example.com',
      phone: '+64 21 555 0101',
      service: 'Doors',
      // Stored before the form refused control characters: ESC, then the
      // C1 controls CSI and OSC (a window title), DEL and an override.
      message:
        '-2+3, "quoted"\nsecond line\x1b[31m red\u009b32m green\u009d0;owned\u0007\u007f\u202e',
      source: 'quote_form',
    }),
    refused: lead({
      created_at: '2025-03-04T09:00:00.000Z',
      name: 'Mere Pōtae',
      message: 'Ranchslider in Pāpāmoa, another in Ōmokoroa',
    }),
  };

  beforeAll(async () => {
    data = tempDataDir('leads-cli-');
    empty = tempDataDir('leads-cli-empty-');
    const store = await openSqliteStore({ dataDir: data.dir });
    await store.insertLead(leads.delivered, [pendingTo(HOOK_A), pendingTo(HOOK_B)]);
    await store.settleLead(
      leads.delivered.id,
      'accepted',
      [HOOK_A, HOOK_B].map((target) => ({
        target,
        state: 'delivered' as const,
        attempts: 1,
        next_attempt_at: null,
        last_error: null,
        delivered_at: '2025-03-01T09:00:01.000Z',
      })),
    );
    await store.insertLead(leads.pending, [pendingTo(HOOK_A), pendingTo(HOOK_B)]);
    await store.settleLead(leads.pending.id, 'accepted', [
      {
        target: HOOK_A,
        state: 'delivered',
        attempts: 1,
        next_attempt_at: null,
        last_error: null,
        delivered_at: '2025-03-02T09:00:01.000Z',
      },
      {
        target: HOOK_B,
        state: 'pending',
        attempts: 3,
        next_attempt_at: '2025-03-02T09:01:00.000Z',
        last_error: 'HTTP 503 busy',
        delivered_at: null,
      },
    ]);
    // The owner's stage and note, as the owner's pages save them.
    await store.saveLeadTracking(
      leads.pending.id,
      0,
      { stage: 'contacted', note: PENDING_NOTE },
      '2025-03-02T09:04:00.000Z',
    );
    // "I'm on it", as the lead's page or the phone's notification says it.
    await store.acknowledgeLead(leads.pending.id, 'kasey@example.nz', '2025-03-02T09:05:00.000Z');
    await store.insertLead(leads.hostile, []);
    await store.insertLead(leads.refused, [pendingTo(HOOK_A)]);
    await store.settleLead(leads.refused.id, 'accepted', [
      {
        target: HOOK_A,
        state: 'failed',
        attempts: 1,
        next_attempt_at: null,
        last_error: 'refused: HTTP 401 Unauthorized: bad token',
        delivered_at: null,
      },
    ]);
    // A won job with the value the owner typed.
    await store.saveLeadTracking(leads.refused.id, 0, { stage: 'won', job_value_cents: 125050 });
    await store.close();
  });

  afterAll(() => {
    data.remove();
    empty.remove();
  });

  it('prints usage and exits 2 on bad arguments', async () => {
    // In process (main() is what the script runs), so a busy machine stays fast.
    for (const args of [
      [],
      ['frobnicate'],
      ['export', '--format', 'xml'],
      ['export', '--bogus'],
      ['list', '--limit', 'lots'],
      ['list', 'extra'],
      ['list', '--email', 'a@example.com'],
      ['delete'],
      ['delete', '--email', 'a@example.com', '--id', 'x'],
      ['delete', '--email', ''],
      ['purge', '--yes'],
      ['export', '--id', 'x'],
      ['export', '--google-ads', '--format', 'json'],
      ['export', '--google-ads', '--email', 'a@example.com'],
    ]) {
      let stdout = '';
      let stderr = '';
      const code = await main(args, {
        env: { DATA_DIR: data.dir },
        stdout: (text) => (stdout += text),
        stderr: (text) => (stderr += text),
      });
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toContain('Usage:');
      expect(stdout).toBe('');
    }
    // And the script itself exits with that code.
    const result = await run(['frobnicate'], { DATA_DIR: data.dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Unknown command: frobnicate');
  });

  it('--help prints usage and exits 0', async () => {
    const result = await run(['--help'], { DATA_DIR: data.dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('leads export [--format json|csv]');
    expect(result.stdout).toContain('leads delete --email ADDRESS [--yes]');
    expect(result.stdout).toContain('leads purge');
    expect(result.stdout).toContain('leads export --google-ads [--output FILE]');
    expect(result.stdout).toContain('ADS_CONVERSION_NAME');
  });

  it('export --google-ads: the won jobs from a Google ad in the offline conversion import layout', async () => {
    // The fixture's one won lead came from no ad click: the file has no row.
    const result = await cli(['export', '--google-ads'], {
      DATA_DIR: data.dir,
      ADS_CONVERSION_NAME: 'Job won',
    });
    expect(result).toEqual({
      code: 0,
      stdout:
        'Parameters:TimeZone=Pacific/Auckland\r\n' +
        'Google Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency\r\n',
      stderr: '',
    });
  });

  it('export --google-ads: a row for each won lead from a click at most 90 days old, to a private file', async () => {
    const own = tempDataDir('leads-cli-ads-');
    try {
      const store = await openSqliteStore({ dataDir: own.dir });
      const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
      const click = (gclid: string) => ({ ...NO_ATTRIBUTION, landing: `/?gclid=${gclid}`, gclid });
      const recent = lead({ created_at: ago(10), attribution: click('EAIaIQrecent') });
      const old = lead({ created_at: ago(91), attribution: click('EAIaIQold') });
      const quoted = lead({ created_at: ago(5), attribution: click('EAIaIQquoted') });
      for (const each of [recent, old, quoted]) await store.insertLead(each, []);
      await store.saveLeadTracking(recent.id, 0, { stage: 'won', job_value_cents: 98000 });
      await store.saveLeadTracking(old.id, 0, { stage: 'won' });
      await store.saveLeadTracking(quoted.id, 0, { stage: 'quoted' });
      const wonAt = (await store.getLead(recent.id))!.stage_changed_at;
      await store.close();

      const file = path.join(own.dir, 'ads.csv');
      const result = await cli(['export', '--google-ads', '--output', file], { DATA_DIR: own.dir });
      expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(file, 'utf8').split('\r\n')).toEqual([
        'Parameters:TimeZone=Pacific/Auckland',
        'Google Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency',
        `EAIaIQrecent,Won job,${nzConversionTime(wonAt)},980.00,NZD`,
        '',
      ]);
    } finally {
      own.remove();
    }
  });

  it('export: a spam lead says why it is spam, in the JSON and the CSV; others say nothing', async () => {
    const own = tempDataDir('leads-cli-spam-');
    try {
      const store = await openSqliteStore({ dataDir: own.dir });
      const pitch = lead({ created_at: '2025-03-05T09:00:00.000Z', name: 'Pitch' });
      const real = lead({ created_at: '2025-03-06T09:00:00.000Z', name: 'Real' });
      for (const each of [pitch, real]) await store.insertLead(each, []);
      await store.markSpam(pitch.id, '2025-03-05T10:00:00.000Z', 'link');
      await store.close();

      const json = await cli(['export', '--format', 'json'], { DATA_DIR: own.dir });
      const exported = JSON.parse(json.stdout) as Array<{ name: string; spam_reason: unknown }>;
      expect(exported.map((each) => [each.name, each.spam_reason])).toEqual([
        ['Pitch', 'link'],
        ['Real', null],
      ]);
      const csv = parseCsv(
        (await cli(['export', '--format', 'csv'], { DATA_DIR: own.dir })).stdout.slice(1),
      );
      const at = csv[0]!.indexOf('spam_reason');
      expect(csv.map((row) => [row[5], row[at]])).toEqual([
        ['name', 'spam_reason'],
        ['Pitch', 'link'],
        ['Real', ''],
      ]);
    } finally {
      own.remove();
    }
  });

  it('exits 2 with the variable named on a bad environment', async () => {
    const result = await run(['list'], { DATA_DIR: data.dir, DATABASE_URL: 'mysql://x' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('DATABASE_URL');
  });

  it('list: a readable table, newest first, with delivery state per lead', async () => {
    const result = await run(['list'], { DATA_DIR: data.dir });
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^created_at \(UTC\)\s+source\s+status\s+stage\s+name\s+email\s+phone\s+service\s+delivery$/,
    );
    // A refused webhook shows under its lead, with the receiver's answer.
    expect(lines[2]).toMatch(/2025-03-04 09:00:00.*Mere Pōtae.*failed 0\/1$/);
    expect(lines[3]).toBe(
      `    ${LABEL_A} failed attempts=1 last_error=refused: HTTP 401 Unauthorized: bad token`,
    );
    expect(lines[4]).toContain('2025-03-03 09:00:00');
    expect(lines[4]).toContain('no targets');
    expect(lines[4]).toMatch(/\s+accepted\s+new\s+/);
    expect(lines[5]).toMatch(
      /2025-03-02 09:00:00\s+hero_form\s+accepted\s+contacted\s+Pending Person/,
    );
    expect(lines[5]).toContain('pending 1/2');
    // The owner's note, on one line.
    expect(lines[6]).toBe('    note: =Rang back Tue 3 pm, quote sent for "double glazing"');
    expect(lines[7]).toBe(
      `    ${LABEL_B} pending attempts=3 next_attempt_at=2025-03-02T09:01:00.000Z last_error=HTTP 503 busy`,
    );
    expect(lines[8]).toMatch(/Delivered Person\s+aroha@example\.co\.nz\s+021 555 0101\s+Windows/);
    expect(lines[8]).toContain('delivered 2/2');
    expect(result.stdout).toContain('4 latest leads, newest first.');
    // Visitor text cannot send escape sequences to the operator's terminal.
    expect(result.stdout).not.toMatch(TERMINAL_CONTROL);
  });

  it('list --limit', async () => {
    const result = await cli(['list', '--limit', '1'], { DATA_DIR: data.dir });
    expect(result.stdout).toContain('1 latest lead,');
    expect(result.stdout).not.toContain('Delivered Person');
  });

  it('list on an empty store', async () => {
    const result = await cli(['list'], { DATA_DIR: empty.dir });
    expect(result).toEqual({ code: 0, stdout: 'No leads yet.\n', stderr: '' });
  });

  it('export --format json: every lead, oldest first, with the documented lead record fields', async () => {
    const result = await cli(['export', '--format', 'json'], { DATA_DIR: data.dir });
    expect(result.code).toBe(0);
    const exported = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    expect(exported.map((l) => l.id)).toEqual([
      leads.delivered.id,
      leads.pending.id,
      leads.hostile.id,
      leads.refused.id,
    ]);
    expect(Object.keys(exported[1]!)).toEqual([
      'id',
      'name',
      'email',
      'phone',
      'service',
      'message',
      'created_at',
      'source',
      'urgent',
      'status',
      'spam_reason',
      'stage',
      'note',
      'stage_changed_at',
      'acknowledged_at',
      'acknowledged_by',
      'job_value_nzd',
      'attribution',
      'deliveries',
      'photos',
    ]);
    expect(exported[0]).toEqual(
      expect.objectContaining({
        stage: 'new',
        note: '',
        urgent: false,
        stage_changed_at: leads.delivered.created_at,
        acknowledged_at: null,
        acknowledged_by: null,
        attribution: NO_ATTRIBUTION,
      }),
    );
    expect(exported[1]).toEqual({
      ...leads.pending,
      idempotency_key: undefined,
      spam_reason: null,
      stage: 'contacted',
      note: PENDING_NOTE,
      // When the stage last changed: for a won lead, when it was won (the Google Ads file's time).
      stage_changed_at: '2025-03-02T09:04:00.000Z',
      acknowledged_at: '2025-03-02T09:05:00.000Z',
      acknowledged_by: 'kasey@example.nz',
      job_value_nzd: null,
      deliveries: [
        {
          target: LABEL_A,
          state: 'delivered',
          attempts: 1,
          next_attempt_at: null,
          last_error: null,
          delivered_at: '2025-03-02T09:00:01.000Z',
        },
        {
          target: LABEL_B,
          state: 'pending',
          attempts: 3,
          next_attempt_at: '2025-03-02T09:01:00.000Z',
          last_error: 'HTTP 503 busy',
          delivered_at: null,
        },
      ],
      photos: [],
    });
    expect(exported[2]?.message).toBe(leads.hostile.message);
    // The value of a won job in dollars, exactly: a string, never a rounded number.
    expect(exported[3]).toEqual(
      expect.objectContaining({ stage: 'won', job_value_nzd: '1250.50' }),
    );
    // Safe to print: every control character escaped, none as it is.
    expect(result.stdout).not.toMatch(TERMINAL_CONTROL);
    expect(result.stdout).toContain('\\u009b32m green\\u009d0;owned\\u0007\\u007f\\u202e');
  });

  it('export --format json on an empty store is []', async () => {
    const result = await cli(['export', '--format', 'json'], { DATA_DIR: empty.dir });
    expect(JSON.parse(result.stdout)).toEqual([]);
  });

  it('export --format csv: RFC 4180, header row, safe against formula injection', async () => {
    const result = await run(['export', '--format', 'csv'], { DATA_DIR: data.dir });
    expect(result.code).toBe(0);
    // A byte order mark first, so a spreadsheet reads the macrons as UTF-8.
    expect(result.stdout.startsWith('\uFEFFid,created_at,')).toBe(true);
    const rows = parseCsv(result.stdout.slice(1));
    expect(rows[0]).toEqual([
      'id',
      'created_at',
      'source',
      'status',
      'urgent',
      'name',
      'email',
      'phone',
      'service',
      'message',
      'stage',
      'note',
      'acknowledged_at',
      'acknowledged_by',
      'delivery',
      'deliveries',
      'job_value_nzd',
      'landing',
      'referrer',
      'utm_source',
      'utm_medium',
      'utm_campaign',
      'utm_term',
      'utm_content',
      'gclid',
      'spam_reason',
    ]);
    expect(rows).toHaveLength(5);
    expect(rows.every((row) => row.length === 26)).toBe(true);
    expect(rows.map((row) => row[16])).toEqual(['job_value_nzd', '', '', '', '1250.50']);
    // Where each lead came from, in columns of the same names; empty when not known.
    expect(rows[2]?.slice(17, 25)).toEqual([
      '/?utm_source=google&utm_medium=cpc&gclid=Cj0KCQ',
      'www.google.com',
      'google',
      'cpc',
      `'=HYPERLINK("http://evil.example")`,
      'shower glass, frameless',
      '',
      'Cj0KCQ',
    ]);
    expect(rows[1]?.slice(17, 25)).toEqual(['', '', '', '', '', '', '', '']);
    expect(rows[4]?.[5]).toBe('Mere Pōtae');
    expect(rows[4]?.[9]).toBe('Ranchslider in Pāpāmoa, another in Ōmokoroa');
    const hostile = rows[3]!;
    expect(hostile[5]).toBe(`'${leads.hostile.name}`);
    expect(hostile[6]).toBe(`'${leads.hostile.email}`);
    expect(hostile[7]).toBe(`'${leads.hostile.phone}`);
    expect(hostile[9]).toBe(`'-2+3, "quoted"\nsecond line?[31m red?32m green?0;owned???`);
    expect(result.stdout).not.toMatch(TERMINAL_CONTROL);
    // No cell of the file starts a formula.
    for (const row of rows) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    const pending = rows[2]!;
    expect([rows[1]?.[4], pending[4]]).toEqual(['no', 'yes']);
    expect(pending[10]).toBe('contacted');
    // The note as the owner wrote it, its formula defused.
    expect(pending[11]).toBe(`'${PENDING_NOTE}`);
    expect(pending.slice(12, 14)).toEqual(['2025-03-02T09:05:00.000Z', 'kasey@example.nz']);
    expect(rows[1]?.slice(12, 14)).toEqual(['', '']);
    expect(rows[1]?.slice(10, 12)).toEqual(['new', '']);
    expect(pending[14]).toBe('pending 1/2');
    expect(pending[15]).toBe(
      `${LABEL_A} delivered attempts=1 delivered_at=2025-03-02T09:00:01.000Z\n` +
        `${LABEL_B} pending attempts=3 next_attempt_at=2025-03-02T09:01:00.000Z last_error=HTTP 503 busy`,
    );
  });

  it('export --output writes a private file', async () => {
    const file = path.join(empty.dir, 'out.csv');
    const result = await cli(['export', '--format', 'csv', '--output', file], {
      DATA_DIR: data.dir,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Wrote 4 leads');
    expect(readFileSync(file, 'utf8').split('\r\n')).toHaveLength(6);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('export --output makes an existing file private too, before writing leads to it', async () => {
    const file = path.join(empty.dir, 'shared.json');
    writeFileSync(file, 'an older export\n');
    chmodSync(file, 0o644);
    const result = await cli(['export', '--output', file], { DATA_DIR: data.dir });
    expect(result.code, result.stderr).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveLength(4);
  });
});

const testDatabaseUrl = process.env.TEST_DATABASE_URL?.trim() || undefined;

describe.skipIf(!testDatabaseUrl)('leads CLI on PostgreSQL (TEST_DATABASE_URL)', () => {
  it('reads DATABASE_URL and exports from the same store the server uses', async () => {
    const schema = `leads_cli_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: testDatabaseUrl });
    await admin.connect();
    try {
      await admin.query(`CREATE SCHEMA ${schema}`);
      const store = await openPostgresStore({ connectionString: testDatabaseUrl!, schema });
      const stored = lead({ name: 'Postgres Person' });
      await store.insertLead(stored, [pendingTo(HOOK_A)]);
      await store.close();
      const url = new URL(testDatabaseUrl!);
      url.searchParams.set('options', `-c search_path=${schema}`);
      const env = { DATA_DIR: '/nonexistent/never-created', DATABASE_URL: url.toString() };
      const exported = await run(['export', '--format', 'json'], env);
      expect(exported.code, exported.stderr).toBe(0);
      expect(JSON.parse(exported.stdout)).toEqual([
        expect.objectContaining({ id: stored.id, name: 'Postgres Person' }),
      ]);
      const listed = await cli(['list'], env);
      expect(listed.stdout).toContain('pending 0/1');
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
  });
});

// ---------------------------------------------------------------------------
// Privacy Act 2020 requests and retention, on both stores.

interface Backend {
  label: string;
  skip: boolean;
  /** A store with the given leads, and the environment the CLI reads it with. */
  seed(rows: LeadRecord[]): Promise<{
    env: Record<string, string>;
    /** The same store, opened again, to look at what the CLI left. */
    open(): Promise<AppStore>;
    cleanup(): Promise<void>;
  }>;
}

/** Photos seeded with a lead, by its id: a recognisable run of bytes standing for a JPEG. */
const PHOTOS_OF = new Map<string, NewLeadPhoto[]>();
const PHOTO_BYTES = new Uint8Array(Buffer.from('Photo bytes of Mere Pōtae'.padEnd(2000, '#')));

const BACKENDS: Backend[] = [
  {
    label: 'SQLite',
    skip: false,
    async seed(rows) {
      const dir = tempDataDir('leads-privacy-');
      const store = await openSqliteStore({ dataDir: dir.dir });
      for (const row of rows) {
        await store.insertLead(row, [pendingTo(HOOK_A)], PHOTOS_OF.get(row.id) ?? []);
      }
      await store.close();
      return {
        env: { DATA_DIR: dir.dir },
        open: () => openSqliteStore({ dataDir: dir.dir }),
        cleanup: async () => dir.remove(),
      };
    },
  },
  {
    label: 'PostgreSQL',
    skip: !testDatabaseUrl,
    async seed(rows) {
      const schema = `leads_cli_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: testDatabaseUrl });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      const store = await openPostgresStore({ connectionString: testDatabaseUrl!, schema });
      for (const row of rows) {
        await store.insertLead(row, [pendingTo(HOOK_A)], PHOTOS_OF.get(row.id) ?? []);
      }
      await store.close();
      const url = new URL(testDatabaseUrl!);
      url.searchParams.set('options', `-c search_path=${schema}`);
      return {
        env: { DATA_DIR: '/nonexistent/never-created', DATABASE_URL: url.toString() },
        open: () => openPostgresStore({ connectionString: testDatabaseUrl!, schema }),
        async cleanup() {
          await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
          await admin.end();
        },
      };
    },
  },
];

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip)(`Privacy Act requests and retention (${backend.label})`, () => {
    const day = 24 * 60 * 60 * 1000;
    const ago = (days: number) => new Date(Date.now() - days * day).toISOString();
    const person = (overrides: Partial<LeadRecord>) =>
      lead({ email: 'mere@example.co.nz', name: 'Mere Pōtae', ...overrides });
    let seeded: Awaited<ReturnType<Backend['seed']>>;
    let rows: Record<'first' | 'second' | 'other' | 'old', LeadRecord>;

    beforeEach(async () => {
      rows = {
        old: person({ created_at: ago(800), message: 'Old enquiry from Ōmokoroa' }),
        first: person({ created_at: ago(10), message: 'Ranchslider in Pāpāmoa' }),
        other: lead({ created_at: ago(5), email: 'someone@example.co.nz' }),
        second: person({
          created_at: ago(1),
          source: 'quote_form',
          phone: '027 555 0202',
          attribution: { ...NO_ATTRIBUTION, landing: '/quote', gclid: 'mere-click-1' },
        }),
      };
      PHOTOS_OF.set(rows.second.id, [{ data: PHOTO_BYTES, width: 4, height: 3 }]);
      seeded = await backend.seed(Object.values(rows));
    });
    afterEach(async () => {
      await seeded.cleanup();
    });

    it('export --email: everything held about one person, JSON by default', async () => {
      const result = await cli(['export', '--email', 'Mere@Example.co.nz'], seeded.env);
      expect(result.code, result.stderr).toBe(0);
      const exported = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
      expect(exported.map((row) => row.id)).toEqual([rows.old.id, rows.first.id, rows.second.id]);
      expect(exported[2]).toEqual(
        expect.objectContaining({
          name: 'Mere Pōtae',
          email: 'mere@example.co.nz',
          phone: '027 555 0202',
          source: 'quote_form',
          attribution: { ...NO_ATTRIBUTION, landing: '/quote', gclid: 'mere-click-1' },
          deliveries: [expect.objectContaining({ target: LABEL_A, state: 'pending' })],
          photos: [
            {
              position: 0,
              type: 'image/jpeg',
              width: 4,
              height: 3,
              byte_size: PHOTO_BYTES.byteLength,
              data_base64: Buffer.from(PHOTO_BYTES).toString('base64'),
            },
          ],
        }),
      );
      expect(exported[0]?.photos).toEqual([]);
      expect(exported[0]?.attribution).toEqual(NO_ATTRIBUTION);
      expect(result.stdout).not.toContain('someone@example.co.nz');
    });

    it('export --email --format csv: the same, as a spreadsheet with macrons intact', async () => {
      const result = await cli(
        ['export', '--email', 'mere@example.co.nz', '--format', 'csv'],
        seeded.env,
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.charCodeAt(0)).toBe(0xfeff);
      const csv = parseCsv(result.stdout.slice(1));
      expect(csv).toHaveLength(4);
      expect(csv.slice(1).map((row) => row[9])).toEqual([
        'Old enquiry from Ōmokoroa',
        'Ranchslider in Pāpāmoa',
        'Cracked pane',
      ]);
      expect(csv.slice(1).map((row) => [row[17], row[24]])).toEqual([
        ['', ''],
        ['', ''],
        ['/quote', 'mere-click-1'],
      ]);
    });

    it('export --email for an unknown address is an empty list', async () => {
      const result = await cli(['export', '--email', 'nobody@example.co.nz'], seeded.env);
      expect(JSON.parse(result.stdout)).toEqual([]);
    });

    it('delete --email without --yes only says what it would delete', async () => {
      const result = await cli(['delete', '--email', 'mere@example.co.nz'], seeded.env);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain(
        'Would delete 3 leads of mere@example.co.nz, with their deliveries.',
      );
      expect(result.stdout).toContain('Nothing deleted. Run the same command with --yes');
      const after = await cli(['export'], seeded.env);
      expect(JSON.parse(after.stdout)).toHaveLength(4);
    });

    it('delete --email --yes deletes that person’s leads and deliveries and prints the count', async () => {
      const result = await cli(['delete', '--email', 'MERE@example.co.nz', '--yes'], seeded.env);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('Deleted 3 leads of mere@example.co.nz, with their deliveries.\n');
      const left = JSON.parse((await cli(['export'], seeded.env)).stdout) as LeadRecord[];
      expect(left.map((row) => row.id)).toEqual([rows.other.id]);
      const store = await seeded.open();
      try {
        expect(await store.getLeadPhoto(rows.second.id, 0)).toBeNull();
        // Where they came from went with them.
        expect(JSON.stringify(await store.exportLeads())).not.toContain('mere-click-1');
      } finally {
        await store.close();
      }
      const again = await cli(['delete', '--email', 'mere@example.co.nz', '--yes'], seeded.env);
      expect(again.stdout).toBe('No leads of mere@example.co.nz. Deleted 0 leads.\n');
    });

    it('export --email and delete --yes are in the activity list as cli, with counts only', async () => {
      await cli(['export', '--email', 'mere@example.co.nz'], seeded.env);
      await cli(['delete', '--email', 'mere@example.co.nz'], seeded.env);
      await cli(['delete', '--email', 'mere@example.co.nz', '--yes'], seeded.env);
      const store = await seeded.open();
      try {
        const entries = await store.listActivity();
        expect(entries.map(({ actor, action, detail }) => [actor, action, detail])).toEqual([
          ['cli', 'person.deleted', 'count=3'],
          ['cli', 'person.exported', 'count=3'],
        ]);
        expect(JSON.stringify(entries)).not.toMatch(/mere|Pōtae|027/i);
      } finally {
        await store.close();
      }
    });

    it('delete --id removes one lead', async () => {
      const dry = await cli(['delete', '--id', rows.first.id], seeded.env);
      expect(dry.stdout).toContain(`Would delete 1 lead with id ${rows.first.id}`);
      const result = await cli(['delete', '--id', rows.first.id, '--yes'], seeded.env);
      expect(result.stdout).toBe(
        `Deleted 1 lead with id ${rows.first.id}, with their deliveries.\n`,
      );
      const left = JSON.parse((await cli(['export'], seeded.env)).stdout) as LeadRecord[];
      expect(left.map((row) => row.id)).not.toContain(rows.first.id);
      expect(left).toHaveLength(3);
      const unknown = await cli(['delete', '--id', 'no-such-id', '--yes'], seeded.env);
      expect(unknown.stdout).toBe('No leads with id no-such-id. Deleted 0 leads.\n');
    });

    it('delete --id --yes takes that customer’s published review off the site too', async () => {
      const store = await seeded.open();
      try {
        const review = {
          id: 30,
          name: 'Mere P.',
          role: 'Homeowner' as const,
          location: 'Pāpāmoa',
          rating: 5 as const,
          review: 'The new ranchslider glass went in on the day they said.',
          permission: true,
          leadId: rows.first.id,
        };
        const content = { ...defaultSiteContent, testimonials: [review] };
        const live = await store.createSiteContentVersion(content, null);
        await store.setSiteContentVersionState(live.version, 'live');
      } finally {
        await store.close();
      }
      const result = await cli(['delete', '--id', rows.first.id, '--yes'], seeded.env);
      expect(result.code, result.stderr).toBe(0);
      const after = await seeded.open();
      try {
        const [newest] = await after.listSiteContentVersions(1);
        expect(newest).toMatchObject({ version: 2, state: 'publishing' });
        expect(JSON.stringify(await after.listSiteContentVersions(10))).not.toContain(
          rows.first.id,
        );
        const entries = await after.listActivity();
        expect(entries.map(({ actor, action, detail }) => [actor, action, detail])).toEqual([
          ['cli', 'person.deleted', 'count=1'],
          ['cli', 'site.review.removed', 'count=1,version=2'],
        ]);
      } finally {
        await after.close();
      }
    });

    it('purge deletes leads older than LEAD_RETENTION_DAYS and prints the count', async () => {
      const result = await cli(['purge'], seeded.env);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(
        /^Deleted 1 lead created before \S+ \(LEAD_RETENTION_DAYS=730\)\.\n$/,
      );
      let left = JSON.parse((await cli(['export'], seeded.env)).stdout) as LeadRecord[];
      expect(left.map((row) => row.id)).toEqual([rows.first.id, rows.other.id, rows.second.id]);
      const shorter = await cli(['purge'], { ...seeded.env, LEAD_RETENTION_DAYS: '7' });
      expect(shorter.stdout).toMatch(/^Deleted 1 lead created before .* \(LEAD_RETENTION_DAYS=7\)/);
      left = JSON.parse((await cli(['export'], seeded.env)).stdout) as LeadRecord[];
      expect(left.map((row) => row.id)).toEqual([rows.other.id, rows.second.id]);
      const bad = await cli(['purge'], { ...seeded.env, LEAD_RETENTION_DAYS: 'forever' });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('LEAD_RETENTION_DAYS');
    });
  });
}

describe('test-delivery: one test enquiry to every target, nothing stored', () => {
  it('says in plain words that each target took it, and exits 0', async () => {
    const hook = await startReceiver('ok');
    const smtp = await startSmtpServer();
    const data = tempDataDir('leads-test-delivery-');
    try {
      const result = await cli(['test-delivery'], {
        DATA_DIR: data.dir,
        LEAD_WEBHOOK_URLS: `${hook.url}/t0ken-123`,
        LEAD_EMAIL_TO: 'office@glass.example.nz',
        SMTP_URL: smtp.url,
        LEAD_EMAIL_FROM: 'website@glass.example.nz',
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(
        'webhook 1: delivered (HTTP 200)\nemail: delivered to 1 address\n',
      );
      expect(hook.requests[0]?.json).toEqual(expect.objectContaining({ test: true }));
      expect(smtp.messages[0]?.parsed.subject).toMatch(/^\[TEST\] New enquiry: /);
      // Stored nothing.
      expect(JSON.parse((await cli(['export'], { DATA_DIR: data.dir })).stdout)).toEqual([]);
    } finally {
      await hook.close();
      await smtp.close();
      data.remove();
    }
  });

  it('names what went wrong and what to check, and exits 1', async () => {
    const hook = await startReceiver('fail');
    hook.failStatus = 401;
    const smtp = await startSmtpServer();
    try {
      const url = new URL(smtp.url);
      url.password = 'Wr0ng-pa55word';
      const result = await cli(['test-delivery'], {
        DATA_DIR: '/nonexistent/never-created',
        LEAD_WEBHOOK_URLS: `${hook.url}/t0ken-123`,
        LEAD_EMAIL_TO: 'office@glass.example.nz',
        SMTP_URL: url.href,
      });
      expect(result.code).toBe(1);
      expect(result.stdout.split('\n')).toEqual([
        "webhook 1: refused, 401 Unauthorized: check the address's token",
        'email: failed, login refused (535): check the user name and password in SMTP_URL',
        '',
      ]);
      expect(result.stdout + result.stderr).not.toMatch(/Wr0ng-pa55word|t0ken-123/);
    } finally {
      await hook.close();
      await smtp.close();
    }
  });

  it('names a webhook by its position only, never its host (it may be the token)', async () => {
    const hook = await startReceiver('fail');
    try {
      const host = `s3cr3t-sub.localhost:${hook.port}`;
      // Where *.localhost resolves, the receiver echoes the host; elsewhere the
      // lookup's error names it.
      hook.failBody = `no hook at ${host}`;
      const result = await cli(['test-delivery'], {
        DATA_DIR: '/nonexistent/never-created',
        LEAD_WEBHOOK_URLS: `http://${host}/hook`,
        LEAD_WEBHOOK_TIMEOUT_MS: '2000',
      });
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/^webhook 1: failed, /);
      expect(result.stdout + result.stderr).not.toContain('s3cr3t');
    } finally {
      await hook.close();
    }
  });

  it('with no target at all, says leads would only be kept on this server', async () => {
    const result = await cli(['test-delivery'], { DATA_DIR: '/nonexistent/never-created' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('No delivery target is configured');
  });
});

describe('CLI formatting helpers', () => {
  it('csvCell quotes, doubles quotes and defuses formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+64 21')).toBe("'+64 21");
    expect(csvCell('-5')).toBe("'-5");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe(`"'\rx"`);
    expect(csvCell('=a,"b"')).toBe(`"'=a,""b"""`);
    expect(csvCell(null)).toBe('');
    expect(csvCell(3)).toBe('3');
  });

  it('deliverySummary', () => {
    const created = lead({});
    const base = {
      ...created,
      stage: 'new' as const,
      stage_changed_at: created.created_at,
      note: '',
      revision: 0,
      seen_at: null,
      acknowledged_at: null,
      acknowledged_by: null,
      spam_reason: null,
      job_value_cents: null,
      photos: [],
    };
    const d = (state: 'pending' | 'delivered' | 'failed' | 'not_sent' | 'cancelled') => ({
      lead_id: base.id,
      target: HOOK_A,
      label: LABEL_A,
      state,
      attempts: 1,
      next_attempt_at: null,
      last_error: null,
      delivered_at: null,
      lease_owner: null,
      lease_expires_at: null,
    });
    expect(deliverySummary({ ...base, deliveries: [] })).toBe('no targets');
    expect(deliverySummary({ ...base, deliveries: [d('delivered'), d('cancelled')] })).toBe(
      'cancelled 1/2',
    );
    expect(deliverySummary({ ...base, deliveries: [d('delivered'), d('delivered')] })).toBe(
      'delivered 2/2',
    );
    expect(deliverySummary({ ...base, deliveries: [d('delivered'), d('pending')] })).toBe(
      'pending 1/2',
    );
    expect(deliverySummary({ ...base, deliveries: [d('failed'), d('pending')] })).toBe(
      'failed 0/2',
    );
    expect(deliverySummary({ ...base, deliveries: [d('not_sent'), d('not_sent')] })).toBe(
      'not_sent 0/2',
    );
  });
});

import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPostgresLeadStore } from '../app/leads/store-postgres.server.ts';
import { openSqliteLeadStore } from '../app/leads/store-sqlite.server.ts';
import type { LeadRecord } from '../app/leads/store.server.ts';
import { tempDataDir } from '../app/leads/test-support.server.ts';
import { csvCell, deliverySummary } from './leads-cli.ts';

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

const HOOK_A = 'http://127.0.0.1:9/a';
const HOOK_B = 'http://127.0.0.1:9/b';

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
    ...overrides,
  };
}

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
    }),
    hostile: lead({
      created_at: '2025-03-03T09:00:00.000Z',
      name: '=HYPERLINK("http://evil.example","Click")',
      email: '@evil.example.com',
      phone: '+64 21 555 0101',
      service: 'Doors',
      message: '-2+3, "quoted"\nsecond line\x1b[31m red',
      source: 'quote_form',
    }),
  };

  beforeAll(async () => {
    data = tempDataDir('leads-cli-');
    empty = tempDataDir('leads-cli-empty-');
    const store = await openSqliteLeadStore({ dataDir: data.dir });
    await store.insertLead(leads.delivered, [
      { url: HOOK_A, state: 'pending', next_attempt_at: null },
      { url: HOOK_B, state: 'pending', next_attempt_at: null },
    ]);
    await store.settleLead(
      leads.delivered.id,
      'accepted',
      [HOOK_A, HOOK_B].map((url) => ({
        url,
        state: 'delivered' as const,
        attempts: 1,
        next_attempt_at: null,
        last_error: null,
        delivered_at: '2025-03-01T09:00:01.000Z',
      })),
    );
    await store.insertLead(leads.pending, [
      { url: HOOK_A, state: 'pending', next_attempt_at: null },
      { url: HOOK_B, state: 'pending', next_attempt_at: null },
    ]);
    await store.settleLead(leads.pending.id, 'accepted', [
      {
        url: HOOK_A,
        state: 'delivered',
        attempts: 1,
        next_attempt_at: null,
        last_error: null,
        delivered_at: '2025-03-02T09:00:01.000Z',
      },
      {
        url: HOOK_B,
        state: 'pending',
        attempts: 3,
        next_attempt_at: '2025-03-02T09:01:00.000Z',
        last_error: 'HTTP 503 busy',
        delivered_at: null,
      },
    ]);
    await store.insertLead(leads.hostile, []);
    await store.close();
  });

  afterAll(() => {
    data.remove();
    empty.remove();
  });

  it('prints usage and exits 2 on bad arguments', async () => {
    for (const args of [
      [],
      ['frobnicate'],
      ['export', '--format', 'xml'],
      ['export', '--bogus'],
      ['list', '--limit', 'lots'],
      ['list', 'extra'],
    ]) {
      const result = await run(args, { DATA_DIR: data.dir });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain('Usage:');
      expect(result.stdout).toBe('');
    }
  });

  it('--help prints usage and exits 0', async () => {
    const result = await run(['--help'], { DATA_DIR: data.dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('leads export --format json|csv');
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
      /^created_at \(UTC\)\s+source\s+status\s+name\s+email\s+phone\s+service\s+delivery$/,
    );
    expect(lines[2]).toContain('2025-03-03 09:00:00');
    expect(lines[2]).toContain('no webhooks');
    expect(lines[3]).toMatch(/2025-03-02 09:00:00\s+hero_form\s+accepted\s+Pending Person/);
    expect(lines[3]).toContain('pending 1/2');
    expect(lines[4]).toMatch(/Delivered Person\s+aroha@example\.co\.nz\s+021 555 0101\s+Windows/);
    expect(lines[4]).toContain('delivered 2/2');
    expect(result.stdout).toContain('3 latest leads, newest first.');
    // Visitor text cannot send escape sequences to the operator's terminal.
    expect(result.stdout).not.toContain('\x1b');
  });

  it('list --limit', async () => {
    const result = await run(['list', '--limit', '1'], { DATA_DIR: data.dir });
    expect(result.stdout).toContain('1 latest lead,');
    expect(result.stdout).not.toContain('Delivered Person');
  });

  it('list on an empty store', async () => {
    const result = await run(['list'], { DATA_DIR: empty.dir });
    expect(result).toEqual({ code: 0, stdout: 'No leads yet.\n', stderr: '' });
  });

  it('export --format json: every lead, oldest first, with the CONTRACT fields', async () => {
    const result = await run(['export', '--format', 'json'], { DATA_DIR: data.dir });
    expect(result.code).toBe(0);
    const exported = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    expect(exported.map((l) => l.id)).toEqual([
      leads.delivered.id,
      leads.pending.id,
      leads.hostile.id,
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
      'status',
      'deliveries',
    ]);
    expect(exported[1]).toEqual({
      ...leads.pending,
      idempotency_key: undefined,
      deliveries: [
        {
          url: HOOK_A,
          state: 'delivered',
          attempts: 1,
          last_error: null,
          delivered_at: '2025-03-02T09:00:01.000Z',
        },
        {
          url: HOOK_B,
          state: 'pending',
          attempts: 3,
          last_error: 'HTTP 503 busy',
          delivered_at: null,
        },
      ],
    });
    expect(exported[2]?.message).toBe(leads.hostile.message);
  });

  it('export --format json on an empty store is []', async () => {
    const result = await run(['export', '--format', 'json'], { DATA_DIR: empty.dir });
    expect(JSON.parse(result.stdout)).toEqual([]);
  });

  it('export --format csv: RFC 4180, header row, safe against formula injection', async () => {
    const result = await run(['export', '--format', 'csv'], { DATA_DIR: data.dir });
    expect(result.code).toBe(0);
    const rows = parseCsv(result.stdout);
    expect(rows[0]).toEqual([
      'id',
      'created_at',
      'source',
      'status',
      'name',
      'email',
      'phone',
      'service',
      'message',
      'delivery',
      'deliveries',
    ]);
    expect(rows).toHaveLength(4);
    expect(rows.every((row) => row.length === 11)).toBe(true);
    const hostile = rows[3]!;
    expect(hostile[4]).toBe(`'${leads.hostile.name}`);
    expect(hostile[5]).toBe(`'${leads.hostile.email}`);
    expect(hostile[6]).toBe(`'${leads.hostile.phone}`);
    expect(hostile[8]).toBe(`'${leads.hostile.message}`);
    // No cell of the file starts a formula.
    for (const row of rows) for (const cell of row) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    const pending = rows[2]!;
    expect(pending[9]).toBe('pending 1/2');
    expect(pending[10]).toBe(
      `${HOOK_A} delivered attempts=1 delivered_at=2025-03-02T09:00:01.000Z\n${HOOK_B} pending attempts=3 last_error=HTTP 503 busy`,
    );
  });

  it('export --output writes a private file', async () => {
    const file = path.join(empty.dir, 'out.csv');
    const result = await run(['export', '--format', 'csv', '--output', file], {
      DATA_DIR: data.dir,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Wrote 3 leads');
    expect(readFileSync(file, 'utf8').split('\r\n')).toHaveLength(5);
    expect(statSync(file).mode & 0o777).toBe(0o600);
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
      const store = await openPostgresLeadStore({ connectionString: testDatabaseUrl!, schema });
      const stored = lead({ name: 'Postgres Person' });
      await store.insertLead(stored, [{ url: HOOK_A, state: 'pending', next_attempt_at: null }]);
      await store.close();
      const url = new URL(testDatabaseUrl!);
      url.searchParams.set('options', `-c search_path=${schema}`);
      const env = { DATA_DIR: '/nonexistent/never-created', DATABASE_URL: url.toString() };
      const exported = await run(['export', '--format', 'json'], env);
      expect(exported.code, exported.stderr).toBe(0);
      expect(JSON.parse(exported.stdout)).toEqual([
        expect.objectContaining({ id: stored.id, name: 'Postgres Person' }),
      ]);
      const listed = await run(['list'], env);
      expect(listed.stdout).toContain('pending 0/1');
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
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
    const base = lead({});
    const d = (state: 'pending' | 'delivered' | 'failed' | 'not_sent') => ({
      lead_id: base.id,
      url: HOOK_A,
      state,
      attempts: 1,
      next_attempt_at: null,
      last_error: null,
      delivered_at: null,
      lease_owner: null,
      lease_expires_at: null,
    });
    expect(deliverySummary({ ...base, deliveries: [] })).toBe('no webhooks');
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

import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { POSTGRES_MIGRATIONS } from './migrations.postgres.server.ts';
import { SQLITE_MIGRATIONS } from './migrations.sqlite.server.ts';
import { CLAIM_SQL } from './leads/leads.sqlite.server.ts';
import { SQLITE_FILE_NAME } from './store-sqlite.server.ts';
import type { DeliveryRecord, AppStore } from './store.server.ts';
import { NO_ATTRIBUTION } from '../leads/intake/attribution.ts';
import {
  POSTGRES_SKIP_MESSAGE,
  postgresHarness,
  sqliteHarness,
  TEST_DATABASE_URL,
  tempDataDir,
  type StoreHarness,
} from '../leads/testing/test-support.server.ts';

/**
 * The two stores keep their migrations in their own SQL dialects. These
 * tests hold them to one schema: the same tables,
 * columns, nullability, keys and allowed values, and the same upgrade of
 * delivery rows that named a webhook by its address.
 */

if (!TEST_DATABASE_URL) console.warn(POSTGRES_SKIP_MESSAGE);

interface TableShape {
  columns: Record<string, { notNull: boolean }>;
  primaryKey: string[];
  unique: string[][];
  /** column → the values a CHECK (column IN (…)) allows, sorted. */
  allowed: Record<string, string[]>;
}
type SchemaShape = Record<string, TableShape>;

const TABLES = [
  'leads',
  'lead_deliveries',
  'lead_rate_limits',
  'lead_store_heartbeat',
  'owners',
  'owner_passkeys',
  'owner_sessions',
  'owner_links',
  'owner_activity',
  'lead_photos',
  'lead_store_secrets',
  'push_subscriptions',
  'push_vapid_keys',
  'lead_alerts',
  'lead_spent_proofs',
  'owner_morning_emails',
];

/** Unique keys in one order, whatever order each database lists them in. */
const byColumns = (a: string[], b: string[]) => a.join(',').localeCompare(b.join(','));

function sqliteShape(db: DatabaseSync): SchemaShape {
  const shape: SchemaShape = {};
  for (const table of TABLES) {
    const info = db.prepare(`PRAGMA table_info(${table})`).all();
    const columns: TableShape['columns'] = {};
    for (const column of info) {
      // SQLite lets a PRIMARY KEY column hold NULL unless it says NOT NULL; the
      // id column is always given, so both read as required.
      columns[String(column.name)] = {
        notNull: Number(column.notnull) === 1 || Number(column.pk) > 0,
      };
    }
    const primaryKey = info
      .filter((column) => Number(column.pk) > 0)
      .sort((a, b) => Number(a.pk) - Number(b.pk))
      .map((column) => String(column.name));
    const unique = db
      .prepare(`PRAGMA index_list(${table})`)
      .all()
      .filter((index) => index.origin === 'u')
      .map((index) =>
        db
          .prepare(`PRAGMA index_info(${String(index.name)})`)
          .all()
          .map((column) => String(column.name)),
      )
      .sort(byColumns);
    const sql = String(
      db.prepare(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table)?.sql,
    );
    const allowed: TableShape['allowed'] = {};
    for (const match of sql.matchAll(/CHECK\s*\(\s*(\w+)\s+IN\s*\(([^)]*)\)\s*\)/gi)) {
      allowed[match[1] ?? ''] = [...(match[2] ?? '').matchAll(/'([^']*)'/g)]
        .map((value) => value[1] ?? '')
        .sort();
    }
    shape[table] = { columns, primaryKey, unique, allowed };
  }
  return shape;
}

async function postgresShape(client: pg.Client, schema: string): Promise<SchemaShape> {
  const shape: SchemaShape = {};
  for (const table of TABLES) {
    const columns: TableShape['columns'] = {};
    const columnRows = await client.query<{ column_name: string; is_nullable: string }>(
      `SELECT column_name, is_nullable FROM information_schema.columns
       WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`,
      [schema, table],
    );
    for (const row of columnRows.rows)
      columns[row.column_name] = { notNull: row.is_nullable === 'NO' };
    const constraints = await client.query<{ contype: string; columns: string[]; def: string }>(
      `SELECT c.contype,
              array(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(n, i)
                    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n
                    ORDER BY k.i)::text[] AS columns,
              pg_get_constraintdef(c.oid) AS def
       FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
       WHERE n.nspname = $1 AND t.relname = $2`,
      [schema, table],
    );
    const allowed: TableShape['allowed'] = {};
    for (const row of constraints.rows.filter((r) => r.contype === 'c')) {
      const values = [...row.def.matchAll(/'([^']*)'/g)].map((value) => value[1] ?? '').sort();
      // Only CHECK (column IN (…)), as for SQLite; a bound such as width > 0 names no values.
      if (values.length > 0) allowed[row.columns[0] ?? ''] = values;
    }
    shape[table] = {
      columns,
      primaryKey: constraints.rows.find((row) => row.contype === 'p')?.columns ?? [],
      unique: constraints.rows
        .filter((row) => row.contype === 'u')
        .map((row) => row.columns)
        .sort(byColumns),
      allowed,
    };
  }
  return shape;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function openAndClose(harness: StoreHarness): Promise<void> {
  const store = await harness.open();
  await store.close();
}

describe('the two stores', () => {
  it('have the same migrations, by version and name', () => {
    const list = (migrations: readonly { version: number; name: string }[]) =>
      migrations.map(({ version, name }) => ({ version, name }));
    expect(list(SQLITE_MIGRATIONS)).toEqual(list(POSTGRES_MIGRATIONS));
  });

  it.skipIf(!TEST_DATABASE_URL)(
    'end with the same tables, columns, keys and allowed values',
    async () => {
      const data = tempDataDir('leads-schema-');
      cleanups.push(async () => data.remove());
      const sqlite = await sqliteHarness();
      cleanups.push(() => sqlite.cleanup());
      const sqliteStore = await (
        await import('./store-sqlite.server.ts')
      ).openSqliteStore({
        dataDir: data.dir,
      });
      await sqliteStore.close();
      const db = new DatabaseSync(path.join(data.dir, SQLITE_FILE_NAME));
      const fromSqlite = sqliteShape(db);
      db.close();

      const postgres = await postgresHarness();
      cleanups.push(() => postgres.cleanup());
      await openAndClose(postgres);
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      const fromPostgres = await postgresShape(client, postgres.schema).finally(() => client.end());

      expect(fromPostgres).toEqual(fromSqlite);
      // And what the stores rely on is really there.
      expect(fromSqlite.lead_deliveries?.primaryKey).toEqual(['lead_id', 'target']);
      expect(fromSqlite.lead_deliveries?.allowed.state).toEqual([
        'cancelled',
        'delivered',
        'failed',
        'not_sent',
        'pending',
      ]);
      expect(fromSqlite.leads?.unique).toEqual([['idempotency_key']]);
      expect(fromSqlite.leads?.allowed.stage).toEqual([
        'contacted',
        'lost',
        'new',
        'quoted',
        'spam',
        'won',
      ]);
      expect(fromSqlite.owners?.unique).toEqual([['email'], ['webauthn_user_id']]);
      expect(fromSqlite.owner_links?.allowed.kind).toEqual(['setup', 'sign-in']);
      // Only the hash of a session's or link's secret is kept.
      expect(Object.keys(fromSqlite.owner_sessions?.columns ?? {})).toEqual([
        'id_hash',
        'owner_id',
        'created_at',
        'last_seen_at',
        'expires_at',
      ]);
      expect(fromSqlite.owner_links?.primaryKey).toEqual(['token_hash']);
    },
  );
});

// ---------------------------------------------------------------------------
// Upgrading a store made before delivery rows were named by target.

const SECRET_URL = 'https://hooks.example.com/catch/12345/s3cr3t-token?key=abcdef';
const LEAD_ID = '6f1c7f0e-8a51-4c1f-9a0e-2f3b0d9e1a11';
const V1_ROWS = [
  `INSERT INTO leads (id, name, email, phone, service, message, created_at, source, status)
   VALUES ('${LEAD_ID}', 'Aroha Ngata', 'aroha@example.co.nz', '021 555 0101', 'Windows', 'm',
           '2025-03-01T00:00:00.000Z', 'contact_form', 'accepted')`,
  `INSERT INTO lead_deliveries (lead_id, url, state, attempts, next_attempt_at, position)
   VALUES ('${LEAD_ID}', '${SECRET_URL}', 'pending', 2, '2025-03-01T00:00:30.000Z', 1)`,
];

function expectUpgraded(deliveries: Array<Record<string, unknown>>) {
  expect(deliveries).toEqual([
    expect.objectContaining({
      target: 'webhook:2',
      label: 'webhook 2',
      state: 'pending',
      attempts: 2,
    }),
  ]);
  expect(JSON.stringify(deliveries)).not.toMatch(/s3cr3t|catch\/12345|key=|hooks\.example/);
}

/** A SQLite store as version 1 left it, with V1_ROWS in it. */
function writeVersion1Store(dir: string): void {
  const db = new DatabaseSync(path.join(dir, SQLITE_FILE_NAME));
  db.exec(`CREATE TABLE lead_schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT`);
  db.exec(SQLITE_MIGRATIONS[0]?.sql ?? '');
  db.prepare(`INSERT INTO lead_schema_migrations VALUES (1, ?, ?)`).run(
    SQLITE_MIGRATIONS[0]?.name ?? '',
    new Date().toISOString(),
  );
  for (const sql of V1_ROWS) db.exec(sql);
  db.close();
}

describe('upgrading a store whose delivery rows held webhook addresses', () => {
  it('SQLite: the address becomes a key and a label, the retry state is kept', async () => {
    const data = tempDataDir('leads-upgrade-');
    cleanups.push(async () => data.remove());
    writeVersion1Store(data.dir);

    const { openSqliteStore } = await import('./store-sqlite.server.ts');
    const store = await openSqliteStore({ dataDir: data.dir });
    const lead = await store.getLead(LEAD_ID);
    await store.close();
    expectUpgraded((lead?.deliveries ?? []) as unknown as Array<Record<string, unknown>>);
  });

  it('SQLite: then a delivery is one B-tree entry, and the due index holds pending rows only', async () => {
    const data = tempDataDir('leads-v4-');
    cleanups.push(async () => data.remove());
    writeVersion1Store(data.dir);

    const { openSqliteStore } = await import('./store-sqlite.server.ts');
    const store = await openSqliteStore({ dataDir: data.dir });
    // The upgraded row is still due, and the claim finds it by its key.
    const claimed = await store.claimDueDeliveries({
      owner: 'schema-test',
      now: '2025-03-02T00:00:00.000Z',
      leaseUntil: '2025-03-02T00:01:00.000Z',
      limit: 10,
      targets: ['webhook:2'],
    });
    await store.close();
    expect(claimed.map((claim) => [claim.lead_id, claim.attempts])).toEqual([[LEAD_ID, 2]]);

    const upgraded = new DatabaseSync(path.join(data.dir, SQLITE_FILE_NAME));
    const sqlOf = (name: string) =>
      String(upgraded.prepare('SELECT sql FROM sqlite_master WHERE name = ?').get(name)?.sql);
    const table = sqlOf('lead_deliveries');
    const index = sqlOf('lead_deliveries_due');
    // The outbox's claim reads due rows in order from that index, whatever the
    // table's size: not every accepted lead, not a sort.
    for (let index = 0; index < 200; index += 1) {
      const id = randomUUID();
      upgraded
        .prepare(
          `INSERT INTO leads (id, name, email, phone, service, message, created_at, source, status)
           VALUES (?, 'n', 'e@example.com', '021 000 0000', 'Windows', 'm', ?, 'quote_form', 'accepted')`,
        )
        .run(id, '2025-03-01T00:00:00.000Z');
      upgraded
        .prepare(
          `INSERT INTO lead_deliveries (lead_id, target, label, state, next_attempt_at)
           VALUES (?, 'email', 'email', ?, '2025-03-01T00:00:00.000Z')`,
        )
        .run(id, index % 2 ? 'pending' : 'delivered');
    }
    const plan = upgraded
      .prepare(`EXPLAIN QUERY PLAN ${CLAIM_SQL}`)
      .all('o', 'l', 'n', 'n', '["email"]', 10)
      .map((row) => String(row.detail));
    upgraded.close();
    expect(table).toMatch(/WITHOUT ROWID/);
    expect(index).toMatch(/WHERE state = 'pending'/);
    expect(plan.join('\n')).toMatch(/SEARCH d USING (COVERING )?INDEX lead_deliveries_due/);
    expect(plan.join('\n')).not.toMatch(/SCAN (d|l)\b|TEMP B-TREE/);
  });

  it.skipIf(!TEST_DATABASE_URL)(
    'PostgreSQL: the address becomes the same key and label',
    async () => {
      const harness = await postgresHarness();
      cleanups.push(() => harness.cleanup());
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        await client.query(`SET search_path = ${harness.schema}`);
        await client.query(`CREATE TABLE lead_schema_migrations (
          version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
        await client.query(POSTGRES_MIGRATIONS[0]?.sql ?? '');
        await client.query(`INSERT INTO lead_schema_migrations (version, name) VALUES (1, $1)`, [
          POSTGRES_MIGRATIONS[0]?.name ?? '',
        ]);
        for (const sql of V1_ROWS) await client.query(sql);
      } finally {
        await client.end();
      }
      const store = await harness.open();
      const lead = await store.getLead(LEAD_ID);
      await store.close();
      expectUpgraded((lead?.deliveries ?? []) as unknown as Array<Record<string, unknown>>);
    },
  );

  it('a fresh store needs no upgrade and has no address column', async () => {
    const data = tempDataDir('leads-fresh-');
    cleanups.push(async () => data.remove());
    const { openSqliteStore } = await import('./store-sqlite.server.ts');
    const store = await openSqliteStore({ dataDir: data.dir });
    await store.insertLead(
      {
        id: randomUUID(),
        name: 'n',
        email: 'e@example.com',
        phone: '021 000 0000',
        service: 'Windows',
        message: 'm',
        created_at: new Date().toISOString(),
        source: 'quote_form',
        status: 'accepted',
        idempotency_key: null,
        urgent: false,
        attribution: NO_ATTRIBUTION,
      },
      [],
    );
    await store.close();
    const db = new DatabaseSync(path.join(data.dir, SQLITE_FILE_NAME));
    const columns = db
      .prepare('PRAGMA table_info(lead_deliveries)')
      .all()
      .map((c) => c.name);
    db.close();
    expect(columns).not.toContain('url');
  });
});

// ---------------------------------------------------------------------------
// Upgrading a store whose webhook rows were keyed by a hash of the address and
// labelled with its host ('webhook 2 (hooks.example.com)'): the host may be a
// token, and the key must be the position for pending rows to follow it.

const TOKEN_HOST = 's3cr3t-sub.hooks.example.com';
const V4_LEAD = '0b0d2e6a-3c1f-4e57-8f3a-5d6c7b8a9e10';
const V4_ROWS = [
  `INSERT INTO leads (id, name, email, phone, service, message, created_at, source, status)
   VALUES ('${V4_LEAD}', 'Aroha Ngata', 'aroha@example.co.nz', '021 555 0101', 'Windows', 'm',
           '2025-03-01T00:00:00.000Z', 'contact_form', 'accepted')`,
  `INSERT INTO lead_deliveries (lead_id, target, label, state, attempts, next_attempt_at, position)
   VALUES ('${V4_LEAD}', 'webhook:0123456789abcdef', 'webhook 1 (a.example.com)', 'delivered', 1,
           NULL, 0),
          ('${V4_LEAD}', 'webhook:fedcba9876543210', 'webhook 2 (${TOKEN_HOST})', 'pending', 3,
           '2025-03-01T00:05:00.000Z', 1),
          ('${V4_LEAD}', 'email', 'email', 'pending', 1, '2025-03-01T00:05:00.000Z', 2)`,
];

function expectByPosition(deliveries: readonly DeliveryRecord[]) {
  expect(deliveries.map((d) => [d.target, d.label, d.state, d.attempts])).toEqual([
    ['webhook:1', 'webhook 1', 'delivered', 1],
    ['webhook:2', 'webhook 2', 'pending', 3],
    ['email', 'email', 'pending', 1],
  ]);
}

describe('upgrading a store whose webhook labels carried the host', () => {
  it('SQLite: keys and labels become the position alone; pending rows are claimed by it', async () => {
    const data = tempDataDir('leads-v5-');
    cleanups.push(async () => data.remove());
    const db = new DatabaseSync(path.join(data.dir, SQLITE_FILE_NAME));
    db.exec(`CREATE TABLE lead_schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT`);
    // Versions 2 and 3 need no function for an empty table's rows.
    db.function('lead_webhook_key', (_url) => null);
    db.function('lead_webhook_label', (_url, _position) => null);
    for (const migration of SQLITE_MIGRATIONS.filter((m) => m.version <= 4)) {
      db.exec(migration.sql);
      db.prepare(`INSERT INTO lead_schema_migrations VALUES (?, ?, ?)`).run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
    }
    for (const sql of V4_ROWS) db.exec(sql);
    db.close();

    const { openSqliteStore } = await import('./store-sqlite.server.ts');
    const store = await openSqliteStore({ dataDir: data.dir });
    const lead = await store.getLead(V4_LEAD);
    const claimed = await store.claimDueDeliveries({
      owner: 'schema-test',
      now: '2025-03-02T00:00:00.000Z',
      leaseUntil: '2025-03-02T00:01:00.000Z',
      limit: 10,
      targets: ['webhook:2'],
    });
    await store.close();
    expectByPosition(lead?.deliveries ?? []);
    expect(claimed.map((claim) => [claim.target, claim.attempts])).toEqual([['webhook:2', 3]]);
    expect(JSON.stringify(lead)).not.toContain('s3cr3t');
  });

  it.skipIf(!TEST_DATABASE_URL)(
    'PostgreSQL: the same keys and labels, by position alone',
    async () => {
      const harness = await postgresHarness();
      cleanups.push(() => harness.cleanup());
      await writePostgresStoreAt(harness.schema, 4, V4_ROWS);
      const store = await harness.open();
      const lead = await store.getLead(V4_LEAD);
      await store.close();
      expectByPosition(lead?.deliveries ?? []);
      expect(JSON.stringify(lead)).not.toContain('s3cr3t');
    },
  );
});

// ---------------------------------------------------------------------------
// Upgrading a store made before the owner's pages: its leads are new, with
// no note, and the owner tables start empty.

const V6_LEAD = '3d5e7f90-1a2b-4c3d-8e9f-a0b1c2d3e4f5';
const V6_ROWS = [
  `INSERT INTO leads (id, name, email, phone, service, message, created_at, source, status)
   VALUES ('${V6_LEAD}', 'Aroha Ngata', 'aroha@example.co.nz', '021 555 0101', 'Windows', 'm',
           '2025-03-01T00:00:00.000Z', 'contact_form', 'accepted')`,
];

describe("upgrading a store made before the owner's pages", () => {
  it('SQLite: every lead is new with an empty note, and can be saved', async () => {
    const data = tempDataDir('leads-v6-');
    cleanups.push(async () => data.remove());
    const db = new DatabaseSync(path.join(data.dir, SQLITE_FILE_NAME));
    db.exec(`CREATE TABLE lead_schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT`);
    db.function('lead_webhook_key', (_url) => null);
    db.function('lead_webhook_label', (_url, _position) => null);
    for (const migration of SQLITE_MIGRATIONS.filter((m) => m.version <= 6)) {
      db.exec(migration.sql);
      db.prepare(`INSERT INTO lead_schema_migrations VALUES (?, ?, ?)`).run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
    }
    for (const sql of V6_ROWS) db.exec(sql);
    db.close();

    const { openSqliteStore } = await import('./store-sqlite.server.ts');
    const store = await openSqliteStore({ dataDir: data.dir });
    try {
      expect(await store.getLead(V6_LEAD)).toEqual(
        expect.objectContaining({ stage: 'new', note: '', revision: 0, name: 'Aroha Ngata' }),
      );
      expect(await store.saveLeadTracking(V6_LEAD, 0, { stage: 'won' })).toEqual(
        expect.objectContaining({ saved: true }),
      );
      expect(await store.listOwners()).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!TEST_DATABASE_URL)('PostgreSQL: the same', async () => {
    const harness = await postgresHarness();
    cleanups.push(() => harness.cleanup());
    await writePostgresStoreAt(harness.schema, 6, V6_ROWS);
    const store = await harness.open();
    try {
      expect(await store.getLead(V6_LEAD)).toEqual(
        expect.objectContaining({ stage: 'new', note: '', revision: 0, name: 'Aroha Ngata' }),
      );
      expect(await store.saveLeadTracking(V6_LEAD, 0, { stage: 'won' })).toEqual(
        expect.objectContaining({ saved: true }),
      );
      expect(await store.listOwners()).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

// ---------------------------------------------------------------------------
// Upgrading a store made before urgent enquiries: every lead in it is not
// urgent, and the store then keeps both kinds.

/** A SQLite file with the migrations up to `version` applied, and `rows` in it. */
function writeSqliteStoreAt(dir: string, version: number, rows: readonly string[]): void {
  const db = new DatabaseSync(path.join(dir, SQLITE_FILE_NAME));
  db.exec(`CREATE TABLE lead_schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT`);
  db.function('lead_webhook_key', (_url) => null);
  db.function('lead_webhook_label', (_url, _position) => null);
  for (const migration of SQLITE_MIGRATIONS.filter((m) => m.version <= version)) {
    db.exec(migration.sql);
    db.prepare(`INSERT INTO lead_schema_migrations VALUES (?, ?, ?)`).run(
      migration.version,
      migration.name,
      new Date().toISOString(),
    );
  }
  for (const sql of rows) db.exec(sql);
  db.close();
}

/** A PostgreSQL store in `schema` as migration `version` left it, holding `rows`. */
async function writePostgresStoreAt(
  schema: string,
  version: number,
  rows: readonly string[],
): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`SET search_path = ${schema}`);
    await client.query(`CREATE TABLE lead_schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    for (const migration of POSTGRES_MIGRATIONS.filter((m) => m.version <= version)) {
      await client.query(migration.sql);
      await client.query(`INSERT INTO lead_schema_migrations (version, name) VALUES ($1, $2)`, [
        migration.version,
        migration.name,
      ]);
    }
    for (const sql of rows) await client.query(sql);
  } finally {
    await client.end();
  }
}

const URGENT_LEAD = {
  id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  name: 'Hemi Walker',
  email: 'hemi@example.co.nz',
  phone: '021 555 0303',
  service: 'Windows',
  message: 'Smashed pane',
  created_at: '2025-03-02T00:00:00.000Z',
  source: 'contact_form',
  status: 'accepted',
  idempotency_key: null,
  urgent: true,
  attribution: NO_ATTRIBUTION,
} as const;

async function expectUpgradedToUrgent(store: AppStore) {
  expect(await store.getLead(V6_LEAD)).toEqual(
    expect.objectContaining({
      urgent: false,
      stage: 'new',
      name: 'Aroha Ngata',
      // Nothing is known of where an earlier lead came from.
      attribution: NO_ATTRIBUTION,
    }),
  );
  await store.insertLead({ ...URGENT_LEAD }, []);
  expect((await store.exportLeads()).map((lead) => [lead.id, lead.urgent])).toEqual([
    [V6_LEAD, false],
    [URGENT_LEAD.id, true],
  ]);
  expect((await store.searchLeads()).leads.map((lead) => lead.id)).toEqual([
    URGENT_LEAD.id,
    V6_LEAD,
  ]);
}

describe('upgrading a store made before urgent enquiries', () => {
  it('SQLite: earlier leads are not urgent; new ones may be', async () => {
    const data = tempDataDir('leads-v9-');
    cleanups.push(async () => data.remove());
    writeSqliteStoreAt(data.dir, 9, V6_ROWS);
    const { openSqliteStore } = await import('./store-sqlite.server.ts');
    const store = await openSqliteStore({ dataDir: data.dir });
    try {
      await expectUpgradedToUrgent(store);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!TEST_DATABASE_URL)('PostgreSQL: the same', async () => {
    const harness = await postgresHarness();
    cleanups.push(() => harness.cleanup());
    await writePostgresStoreAt(harness.schema, 9, V6_ROWS);
    const store = await harness.open();
    try {
      await expectUpgradedToUrgent(store);
    } finally {
      await store.close();
    }
  });
});

// ---------------------------------------------------------------------------
// Upgrading a store made before `superseded`: its versions are
// kept with their states and restores, and a version can then be superseded.

const CONTENT = '\'{"identity":{"name":"Kōwhai Glass"}}\'';
/** Versions 1 (live), 2 (restoring 1) and 3, numbered by the store as they are inserted. */
const V13_VERSIONS = [
  `INSERT INTO site_content_versions (content, created_at, state, live_at)
     VALUES (${CONTENT}, '2025-03-01T00:00:00.000Z', 'live', '2025-03-01T00:01:00.000Z')`,
  `INSERT INTO site_content_versions (content, created_at, restored_from, state)
     VALUES (${CONTENT}, '2025-03-02T00:00:00.000Z', 1, 'publishing')`,
  `INSERT INTO site_content_versions (content, created_at, state)
     VALUES (${CONTENT}, '2025-03-03T00:00:00.000Z', 'publishing')`,
];

async function expectUpgradedToSuperseded(store: AppStore) {
  expect(await store.siteContentVersion(2)).toMatchObject({
    restored_from: 1,
    state: 'publishing',
  });
  expect(await store.supersedeSiteContentVersions(3)).toEqual([2]);
  expect((await store.listSiteContentVersions(3)).map((row) => [row.version, row.state])).toEqual([
    [3, 'publishing'],
    [2, 'superseded'],
    [1, 'live'],
  ]);
  expect(await store.newestLiveSiteContent()).toMatchObject({
    version: 1,
    live_at: '2025-03-01T00:01:00.000Z',
  });
}

describe('upgrading a store made before superseded site versions', () => {
  it('SQLite: versions, states and restores are kept; one can be superseded', async () => {
    const data = tempDataDir('leads-v13-');
    cleanups.push(async () => data.remove());
    writeSqliteStoreAt(data.dir, 13, V13_VERSIONS);
    const { openSqliteStore } = await import('./store-sqlite.server.ts');
    const store = await openSqliteStore({ dataDir: data.dir });
    try {
      await expectUpgradedToSuperseded(store);
    } finally {
      await store.close();
    }
    // The restore still refers to a version the table holds.
    const db = new DatabaseSync(path.join(data.dir, SQLITE_FILE_NAME));
    try {
      expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
      expect(
        db.prepare(`SELECT sql FROM sqlite_schema WHERE name = 'site_content_versions'`).get()?.sql,
      ).toMatch(/restored_from INTEGER REFERENCES "?site_content_versions"? \(version\)/);
    } finally {
      db.close();
    }
  });

  it.skipIf(!TEST_DATABASE_URL)('PostgreSQL: the same', async () => {
    const harness = await postgresHarness();
    cleanups.push(() => harness.cleanup());
    await writePostgresStoreAt(harness.schema, 13, V13_VERSIONS);
    const store = await harness.open();
    try {
      await expectUpgradedToSuperseded(store);
    } finally {
      await store.close();
    }
  });
});

// ---------------------------------------------------------------------------
// Upgrading a store made before builds were kept per host: its
// versions keep their states, no host is named for them, and a host's
// failure never undoes a version live before the upgrade.

const V14_VERSIONS = [
  ...V13_VERSIONS.slice(0, 2),
  `UPDATE site_content_versions SET state = 'failed', error = 'astro: out of memory' WHERE version = 2`,
  `INSERT INTO site_content_versions (content, created_at, state)
     VALUES (${CONTENT}, '2025-03-03T00:00:00.000Z', 'superseded')`,
];

async function expectUpgradedToHostBuilds(store: AppStore) {
  expect((await store.listSiteContentVersions(3)).map((row) => [row.version, row.state])).toEqual([
    [3, 'superseded'],
    [2, 'failed'],
    [1, 'live'],
  ]);
  expect(await store.listSiteBuilds(1)).toEqual([]);
  expect(await store.siteHostsServing()).toEqual([]);
  // Live before the upgrade stays live whatever one host's rebuild does.
  expect(await store.recordSiteBuild(1, 'glass-web-a', 'failed', 'ENOSPC')).toBe(false);
  expect((await store.siteContentVersion(1))?.state).toBe('live');
  // A host that builds the failed version makes it live.
  expect(await store.recordSiteBuild(2, 'glass-web-b', 'live')).toBe(true);
  expect(await store.siteContentVersion(2)).toMatchObject({ state: 'live', error: null });
  expect(await store.siteHostsServing()).toEqual([
    { host: 'glass-web-b', version: 2, at: expect.any(String) },
  ]);
}

describe('upgrading a store made before site builds per host', () => {
  it('SQLite: versions keep their states; each host then records its own build', async () => {
    const data = tempDataDir('leads-v14-');
    cleanups.push(async () => data.remove());
    writeSqliteStoreAt(data.dir, 14, V14_VERSIONS);
    const { openSqliteStore } = await import('./store-sqlite.server.ts');
    const store = await openSqliteStore({ dataDir: data.dir });
    try {
      await expectUpgradedToHostBuilds(store);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!TEST_DATABASE_URL)('PostgreSQL: the same', async () => {
    const harness = await postgresHarness();
    cleanups.push(() => harness.cleanup());
    await writePostgresStoreAt(harness.schema, 14, V14_VERSIONS);
    const store = await harness.open();
    try {
      await expectUpgradedToHostBuilds(store);
    } finally {
      await store.close();
    }
  });
});

// ---------------------------------------------------------------------------
// Upgrading a store made when "new since you last looked" was kept per owner
// (the last "Mark all as seen"): the leads up to the latest mark, by any
// owner, are seen, at that mark; the later ones are still new.

const SEEN_LEADS = [
  '5a1b2c3d-4e5f-4a6b-8c7d-000000000001',
  '5a1b2c3d-4e5f-4a6b-8c7d-000000000002',
  '5a1b2c3d-4e5f-4a6b-8c7d-000000000003',
];
const V15_ROWS = [
  ...SEEN_LEADS.map(
    (id, index) =>
      `INSERT INTO leads (id, name, email, phone, service, message, created_at, source, status)
       VALUES ('${id}', 'Aroha Ngata', 'aroha@example.co.nz', '021 555 0101', 'Windows', 'm',
               '2025-03-0${index + 1}T00:00:00.000Z', 'contact_form', 'accepted')`,
  ),
  `INSERT INTO owners (id, email, webauthn_user_id, created_at, inbox_seen_at)
   VALUES ('6a1b2c3d-4e5f-4a6b-8c7d-000000000001', 'a@glass.example.com', 'u1',
           '2025-01-01T00:00:00.000Z', '2025-03-01T12:00:00.000Z'),
          ('6a1b2c3d-4e5f-4a6b-8c7d-000000000002', 'b@glass.example.com', 'u2',
           '2025-01-01T00:00:00.000Z', '2025-03-02T12:00:00.000Z'),
          ('6a1b2c3d-4e5f-4a6b-8c7d-000000000003', 'c@glass.example.com', 'u3',
           '2025-01-01T00:00:00.000Z', NULL)`,
];

async function expectUpgradedToSeenLeads(store: AppStore) {
  const seen = await Promise.all(SEEN_LEADS.map(async (id) => (await store.getLead(id))?.seen_at));
  expect(seen).toEqual(['2025-03-02T12:00:00.000Z', '2025-03-02T12:00:00.000Z', null]);
  expect(await store.countUnseenLeads()).toBe(1);
  expect(await store.getOwner('6a1b2c3d-4e5f-4a6b-8c7d-000000000001')).not.toHaveProperty(
    'inbox_seen_at',
  );
}

describe('upgrading a store made when owners marked the inbox seen', () => {
  it('SQLite: leads up to the latest mark are seen, later ones new', async () => {
    const data = tempDataDir('leads-v15-');
    cleanups.push(async () => data.remove());
    writeSqliteStoreAt(data.dir, 15, V15_ROWS);
    const { openSqliteStore } = await import('./store-sqlite.server.ts');
    const store = await openSqliteStore({ dataDir: data.dir });
    try {
      await expectUpgradedToSeenLeads(store);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!TEST_DATABASE_URL)('PostgreSQL: the same', async () => {
    const harness = await postgresHarness();
    cleanups.push(() => harness.cleanup());
    await writePostgresStoreAt(harness.schema, 15, V15_ROWS);
    const store = await harness.open();
    try {
      await expectUpgradedToSeenLeads(store);
    } finally {
      await store.close();
    }
  });
});

const V16_LEADS = {
  trap: '7b1b2c3d-4e5f-4a6b-8c7d-000000000001',
  ownerSpam: '7b1b2c3d-4e5f-4a6b-8c7d-000000000002',
  real: '7b1b2c3d-4e5f-4a6b-8c7d-000000000003',
};
const V16_ROWS = [
  ...Object.entries(V16_LEADS).map(
    ([kind, id], index) =>
      `INSERT INTO leads (id, name, email, phone, service, message, created_at, source, status, stage)
       VALUES ('${id}', 'Aroha Ngata', 'aroha@example.co.nz', '021 555 0101', 'Windows', 'm',
               '2025-03-0${index + 1}T00:00:00.000Z', 'contact_form',
               '${kind === 'trap' ? 'spam' : 'accepted'}', '${kind === 'ownerSpam' ? 'spam' : 'new'}')`,
  ),
  `INSERT INTO lead_deliveries (lead_id, target, label, state, attempts, next_attempt_at, position)
   VALUES ('${V16_LEADS.ownerSpam}', 'email', 'email', 'pending', 0, '2025-03-02T00:00:00.000Z', 0),
          ('${V16_LEADS.real}', 'email', 'email', 'pending', 0, '2025-03-03T00:00:00.000Z', 0)`,
];

async function expectUpgradedToSpamReasons(store: AppStore) {
  const read = async (id: string) => {
    const lead = await store.getLead(id);
    return [lead?.status, lead?.stage, lead?.spam_reason, lead?.deliveries.map((d) => d.state)];
  };
  expect(await read(V16_LEADS.trap)).toEqual(['spam', 'spam', 'trap', []]);
  expect(await read(V16_LEADS.ownerSpam)).toEqual(['spam', 'spam', 'owner', ['cancelled']]);
  expect(await read(V16_LEADS.real)).toEqual(['accepted', 'new', null, ['pending']]);
  expect(await store.countSpamLeads()).toBe(2);
  // The trap's lead was spam from its arrival; the owner's from the upgrade on.
  expect(await store.purgeSpamBefore('2025-04-01T00:00:00.000Z')).toBe(1);
}

describe('upgrading a store made before spam had reasons', () => {
  it("SQLite: the trap's leads are spam at the stage spam; an owner's spam stage is spam", async () => {
    const data = tempDataDir('leads-v16-');
    cleanups.push(async () => data.remove());
    writeSqliteStoreAt(data.dir, 16, V16_ROWS);
    const { openSqliteStore } = await import('./store-sqlite.server.ts');
    const store = await openSqliteStore({ dataDir: data.dir });
    try {
      await expectUpgradedToSpamReasons(store);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!TEST_DATABASE_URL)('PostgreSQL: the same', async () => {
    const harness = await postgresHarness();
    cleanups.push(() => harness.cleanup());
    await writePostgresStoreAt(harness.schema, 16, V16_ROWS);
    const store = await harness.open();
    try {
      await expectUpgradedToSpamReasons(store);
    } finally {
      await store.close();
    }
  });
});

const V21_LEADS = {
  untouched: '7b1b2c3d-4e5f-4a6b-8c7d-000000000011',
  quoted: '7b1b2c3d-4e5f-4a6b-8c7d-000000000012',
  wonAgain: '7b1b2c3d-4e5f-4a6b-8c7d-000000000013',
  ownerSpam: '7b1b2c3d-4e5f-4a6b-8c7d-000000000014',
  rescued: '7b1b2c3d-4e5f-4a6b-8c7d-000000000015',
  quotedUnknown: '7b1b2c3d-4e5f-4a6b-8c7d-000000000016',
  noteOnly: '7b1b2c3d-4e5f-4a6b-8c7d-000000000017',
};
const V21_STAGES: Record<keyof typeof V21_LEADS, string> = {
  untouched: 'new',
  quoted: 'quoted',
  wonAgain: 'won',
  ownerSpam: 'spam',
  rescued: 'new',
  quotedUnknown: 'quoted',
  noteOnly: 'new',
};
const at = (day: number) => `2025-04-${String(day).padStart(2, '0')}T00:00:00.000Z`;
const saved = (id: string, stage: string, day: number) =>
  `('${at(day)}', 'owner@example.co.nz', 'lead.saved', 'lead=${id},stage=${stage}')`;
const V21_ROWS = [
  ...Object.entries(V21_LEADS).map(([kind, id]) => {
    const stage = V21_STAGES[kind as keyof typeof V21_LEADS];
    const spam = stage === 'spam';
    return `INSERT INTO leads (id, name, email, phone, service, message, created_at, source,
         status, stage, spam_reason, spam_at)
       VALUES ('${id}', 'Aroha Ngata', 'aroha@example.co.nz', '021 555 0101', 'Windows', 'm',
               '${at(1)}', 'contact_form', '${spam ? 'spam' : 'accepted'}', '${stage}',
               ${spam ? `'owner', '${at(9)}'` : 'NULL, NULL'})`;
  }),
  `INSERT INTO owner_activity (at, actor, action, detail) VALUES
     ${saved(V21_LEADS.quoted, 'contacted', 2)}, ${saved(V21_LEADS.quoted, 'quoted', 3)},
     ${saved(V21_LEADS.quoted, 'quoted', 4)},
     ${saved(V21_LEADS.wonAgain, 'won', 2)}, ${saved(V21_LEADS.wonAgain, 'contacted', 3)},
     ${saved(V21_LEADS.wonAgain, 'won', 5)}, ${saved(V21_LEADS.wonAgain, 'won', 6)},
     ('${at(7)}', 'owner@example.co.nz', 'lead.not-spam', 'lead=${V21_LEADS.rescued},targets=1'),
     ${saved(V21_LEADS.rescued, 'new', 8)},
     ${saved(V21_LEADS.noteOnly, 'new', 4)},
     ('${at(5)}', 'owner@example.co.nz', 'owner.signed-in', '')`,
];

async function expectUpgradedToStageChanges(store: AppStore) {
  const read = async (id: string) => (await store.getLead(id))?.stage_changed_at;
  expect(await read(V21_LEADS.untouched)).toBe(at(1));
  // The save that made it quoted, not the later save of its note.
  expect(await read(V21_LEADS.quoted)).toBe(at(3));
  // Won, then contacted, then won again: the second time.
  expect(await read(V21_LEADS.wonAgain)).toBe(at(5));
  expect(await read(V21_LEADS.ownerSpam)).toBe(at(9));
  // Taken out of spam: new since then.
  expect(await read(V21_LEADS.rescued)).toBe(at(7));
  // Nothing in the activity list: the time it came in.
  expect(await read(V21_LEADS.quotedUnknown)).toBe(at(1));
  expect(await read(V21_LEADS.noteOnly)).toBe(at(1));
}

describe('upgrading a store made before leads kept when their stage changed', () => {
  it('SQLite: each lead keeps the save that gave it its stage, or when it came in', async () => {
    const data = tempDataDir('leads-v21-');
    cleanups.push(async () => data.remove());
    writeSqliteStoreAt(data.dir, 21, V21_ROWS);
    const { openSqliteStore } = await import('./store-sqlite.server.ts');
    const store = await openSqliteStore({ dataDir: data.dir });
    try {
      await expectUpgradedToStageChanges(store);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!TEST_DATABASE_URL)('PostgreSQL: the same', async () => {
    const harness = await postgresHarness();
    cleanups.push(() => harness.cleanup());
    await writePostgresStoreAt(harness.schema, 21, V21_ROWS);
    const store = await harness.open();
    try {
      await expectUpgradedToStageChanges(store);
    } finally {
      await store.close();
    }
  });
});

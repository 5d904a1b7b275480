import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSiteContent } from '../../app/content/site-content.ts';
import { startSmtpServer } from '../../app/leads/testing/smtp-test-support.server.ts';
import { openPostgresStore } from '../../app/db/store-postgres.server.ts';
import { openSqliteStore } from '../../app/db/store-sqlite.server.ts';
import type { AppStore } from '../../app/db/store.server.ts';
import { tempDataDir } from '../../app/leads/testing/test-support.server.ts';
import { ownerSessions, secretHash } from '../../app/owner/sessions.server.ts';
import { main } from './owner-cli.ts';

const CLI = path.join(import.meta.dirname, 'owner-cli.ts');
const SITE_URL = 'https://glass.example.nz';
const LINK = /^ {2}https:\/\/glass\.example\.nz\/admin\/setup\/([A-Za-z0-9_-]{43})$/m;

/** The CLI in this process (what the script runs). */
async function cli(args: string[], env: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    env,
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

function tokenOf(stdout: string): string {
  const token = LINK.exec(stdout)?.[1];
  if (!token) throw new Error(`no set-up link in: ${stdout}`);
  return token;
}

describe('owner CLI arguments', () => {
  it('prints usage and exits 2 on bad arguments', async () => {
    for (const args of [
      [],
      ['frobnicate'],
      ['add'],
      ['add', 'not-an-address'],
      ['add', 'a@example.com', 'b@example.com'],
      ['add', 'a\u001b[31m@example.com'],
      ['remove'],
      ['list', 'extra'],
      ['list', '--bogus'],
    ]) {
      const result = await cli(args, { DATA_DIR: '/nonexistent/never-created' });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain('Usage:');
      expect(result.stdout).toBe('');
    }
  });

  it('is the script `npm run owner` runs, with --help', async () => {
    const result = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, '--help'], {
        env: { PATH: process.env.PATH ?? '' },
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout }));
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('owner add EMAIL');
    expect(result.stdout).toContain('owner remove EMAIL');
  });
});

const testDatabaseUrl = process.env.TEST_DATABASE_URL?.trim() || undefined;

interface Backend {
  label: string;
  skip: boolean;
  /** An empty store: the environment the CLI reads it with, and a way to open it in the test. */
  make(): Promise<{
    env: Record<string, string>;
    open(): Promise<AppStore>;
    cleanup(): Promise<void>;
  }>;
}

const BACKENDS: Backend[] = [
  {
    label: 'SQLite',
    skip: false,
    async make() {
      const dir = tempDataDir('owner-cli-');
      return {
        env: { DATA_DIR: dir.dir, SITE_URL },
        open: () => openSqliteStore({ dataDir: dir.dir }),
        cleanup: async () => dir.remove(),
      };
    },
  },
  {
    label: 'PostgreSQL',
    skip: !testDatabaseUrl,
    async make() {
      const schema = `owner_cli_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: testDatabaseUrl });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      const url = new URL(testDatabaseUrl!);
      url.searchParams.set('options', `-c search_path=${schema}`);
      return {
        env: { DATA_DIR: '/nonexistent/never-created', DATABASE_URL: url.toString(), SITE_URL },
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
  describe.skipIf(backend.skip)(`owner CLI (${backend.label})`, () => {
    let made: Awaited<ReturnType<Backend['make']>>;
    beforeEach(async () => {
      made = await backend.make();
    });
    afterEach(async () => {
      await made.cleanup();
    });

    /** Runs `work` on the store the CLI uses, then closes it. */
    async function withStore<T>(work: (store: AppStore) => Promise<T>): Promise<T> {
      const store = await made.open();
      try {
        return await work(store);
      } finally {
        await store.close();
      }
    }

    it('add: adds the owner and prints a set-up link that works once; only its hash is stored', async () => {
      const result = await cli(['add', ' Ana@Glass.Example.NZ '], made.env);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^Added owner ana@glass\.example\.nz\.\n/);
      expect(result.stdout).toMatch(
        /Set-up link \(works once, until .* \(New Zealand time\)\):\n\n {2}https:/,
      );
      expect(result.stdout).toContain(
        'Not e-mailed: lead e-mail is not configured (LEAD_EMAIL_TO and SMTP_URL).',
      );
      const token = tokenOf(result.stdout);
      await withStore(async (store) => {
        const owner = await store.findOwnerByEmail('ana@glass.example.nz');
        expect(owner).not.toBeNull();
        const now = new Date().toISOString();
        // The token itself opens nothing: the store knows its hash only.
        expect(await store.consumeOwnerLink(token, 'setup', now)).toBeNull();
        expect(secretHash(token)).not.toBe(token);
        expect((await ownerSessions(store).consumeLink(token, 'setup'))?.id).toBe(owner?.id);
        expect(await ownerSessions(store).consumeLink(token, 'setup')).toBeNull();
        expect(await store.listActivity()).toEqual([
          expect.objectContaining({ actor: 'cli', action: 'owner.added', detail: owner?.id }),
        ]);
      });
    });

    it('add again: the same owner, a fresh link that replaces the earlier one', async () => {
      const first = tokenOf((await cli(['add', 'ana@glass.example.nz'], made.env)).stdout);
      const again = await cli(['add', 'ANA@glass.example.nz'], made.env);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(
        /^ana@glass\.example\.nz is already an owner: this set-up link replaces any earlier one\.\n/,
      );
      const second = tokenOf(again.stdout);
      await withStore(async (store) => {
        expect(await store.listOwners()).toHaveLength(1);
        const sessions = ownerSessions(store);
        expect(await sessions.consumeLink(first, 'setup')).toBeNull();
        expect((await sessions.consumeLink(second, 'setup'))?.email).toBe('ana@glass.example.nz');
        expect((await store.listActivity()).map((entry) => entry.action)).toEqual([
          'owner.setup-link',
          'owner.added',
        ]);
      });
    });

    it('list: each owner with their passkeys and last sign-in', async () => {
      expect(await cli(['list'], made.env)).toEqual({
        code: 0,
        stdout: 'No owners yet. Add one with: npm run owner -- add EMAIL\n',
        stderr: '',
      });
      await cli(['add', 'ana@glass.example.nz'], made.env);
      await cli(['add', 'rawiri@glass.example.nz'], made.env);
      await withStore(async (store) => {
        const ana = await store.findOwnerByEmail('ana@glass.example.nz');
        for (const [name, used] of [
          ['iPhone', '2025-06-03T02:05:00.000Z'],
          ['Office PC\u001b[2J', null],
        ] as const) {
          const id = randomBytes(16).toString('base64url');
          await store.addPasskey({
            id,
            owner_id: ana!.id,
            public_key: new Uint8Array(randomBytes(77)),
            counter: 0,
            transports: ['internal'],
            name,
            created_at: new Date().toISOString(),
          });
          if (used) await store.recordPasskeyUse(id, 1, used);
        }
        await ownerSessions(store, { now: () => Date.parse('2025-06-03T02:05:00.000Z') }).create(
          ana!.id,
        );
      });
      const result = await cli(['list'], made.env);
      expect(result.code, result.stderr).toBe(0);
      const lines = result.stdout.split('\n');
      expect(lines[0]).toBe('ana@glass.example.nz');
      expect(lines[1]).toMatch(/^ {4}added: {8}.* \(New Zealand time\)$/);
      expect(lines[2]).toBe('    last sign-in: Tuesday, 3 June 2025 at 2:05 pm (New Zealand time)');
      expect(lines[3]).toBe(
        '    passkeys:     iPhone (last used Tuesday, 3 June 2025 at 2:05 pm (New Zealand time))',
      );
      // A name cannot send escape sequences to the terminal.
      expect(lines[4]).toBe('                  Office PC?[2J (not used yet)');
      expect(lines.slice(6, 10)).toEqual([
        'rawiri@glass.example.nz',
        expect.stringMatching(/^ {4}added: /),
        '    last sign-in: never',
        '    passkeys:     none yet (the set-up link was not used)',
      ]);
      expect(result.stdout).toMatch(/\n\n2 owners\.\n$/);
    });

    it('remove: the owner goes and their sessions end at once', async () => {
      const token = tokenOf((await cli(['add', 'ana@glass.example.nz'], made.env)).stdout);
      await cli(['add', 'rawiri@glass.example.nz'], made.env);
      const cookies = await withStore(async (store) => {
        const sessions = ownerSessions(store);
        const ana = await sessions.consumeLink(token, 'setup');
        const rawiri = await store.findOwnerByEmail('rawiri@glass.example.nz');
        return { ana: await sessions.create(ana!.id), rawiri: await sessions.create(rawiri!.id) };
      });
      const result = await cli(['remove', 'Ana@glass.example.nz'], made.env);
      expect(result).toEqual({
        code: 0,
        stdout:
          'Removed owner ana@glass.example.nz: signed out everywhere, passkeys and links deleted.\n',
        stderr: '',
      });
      await withStore(async (store) => {
        const sessions = ownerSessions(store);
        expect(await sessions.resolve(cookies.ana!)).toBeNull();
        expect((await sessions.resolve(cookies.rawiri!))?.owner.email).toBe(
          'rawiri@glass.example.nz',
        );
        expect((await store.listActivity())[0]).toEqual(
          expect.objectContaining({ actor: 'cli', action: 'owner.removed' }),
        );
      });
      expect((await cli(['list'], made.env)).stdout).not.toContain('ana@');
      expect((await cli(['remove', 'ana@glass.example.nz'], made.env)).stdout).toBe(
        'No owner ana@glass.example.nz: nothing removed.\n',
      );
    });
  });
}

describe('owner add e-mails the link to the owner when lead e-mail is configured', () => {
  it('one message to the owner, not to LEAD_EMAIL_TO, with the same link', async () => {
    const smtp = await startSmtpServer();
    const data = tempDataDir('owner-cli-email-');
    try {
      const result = await cli(['add', 'ana@glass.example.nz'], {
        DATA_DIR: data.dir,
        SITE_URL,
        LEAD_EMAIL_TO: 'office@glass.example.nz',
        SMTP_URL: smtp.url,
        LEAD_EMAIL_FROM: 'website@glass.example.nz',
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/E-mailed to ana@glass\.example\.nz\.\n$/);
      const token = tokenOf(result.stdout);
      await smtp.waitForMessages(1);
      expect(smtp.messages).toHaveLength(1);
      const [mail] = smtp.messages;
      expect(mail?.envelope.to).toEqual(['ana@glass.example.nz']);
      expect(mail?.parsed.subject).toMatch(/^Set up your sign-in to the .* website$/);
      expect(mail?.parsed.text).toContain(`${SITE_URL}/admin/setup/${token}`);
      expect(mail?.parsed.html).toContain(`href="${SITE_URL}/admin/setup/${token}"`);
    } finally {
      await smtp.close();
      data.remove();
    }
  });

  it('names the business as published, from its published e-mail when LEAD_EMAIL_FROM is unset', async () => {
    const smtp = await startSmtpServer();
    const data = tempDataDir('owner-cli-email-');
    try {
      const store = await openSqliteStore({ dataDir: data.dir });
      try {
        const identity = {
          ...defaultSiteContent.identity,
          name: 'Kōwhai Glass Repairs',
          email: 'kia.ora@kowhai-glass.example.nz',
        };
        const { version } = await store.createSiteContentVersion(
          { ...defaultSiteContent, identity },
          null,
        );
        await store.setSiteContentVersionState(version, 'live');
      } finally {
        await store.close();
      }
      const result = await cli(['add', 'ana@glass.example.nz'], {
        DATA_DIR: data.dir,
        SITE_URL,
        LEAD_EMAIL_TO: 'office@glass.example.nz',
        SMTP_URL: smtp.url,
      });
      expect(result.code, result.stderr).toBe(0);
      await smtp.waitForMessages(1);
      const [mail] = smtp.messages;
      expect(mail?.parsed.subject).toBe('Set up your sign-in to the Kōwhai Glass Repairs website');
      expect(mail?.parsed.from?.value).toEqual([
        { name: 'Kōwhai Glass Repairs website', address: 'kia.ora@kowhai-glass.example.nz' },
      ]);
    } finally {
      await smtp.close();
      data.remove();
    }
  });

  it('a refused e-mail: the link is still printed, the failure named, exit 1, no password', async () => {
    const smtp = await startSmtpServer();
    smtp.mode = 'reject';
    const data = tempDataDir('owner-cli-email-');
    try {
      const result = await cli(['add', 'ana@glass.example.nz'], {
        DATA_DIR: data.dir,
        SITE_URL,
        LEAD_EMAIL_TO: 'office@glass.example.nz',
        SMTP_URL: smtp.url,
      });
      expect(result.code).toBe(1);
      expect(tokenOf(result.stdout)).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(result.stderr).toMatch(/^Could not e-mail the link to ana@glass\.example\.nz: /);
      expect(result.stdout + result.stderr).not.toContain(smtp.password);
    } finally {
      await smtp.close();
      data.remove();
    }
  });
});

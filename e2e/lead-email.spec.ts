import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import {
  makeTestCertificate,
  startSmtpServer,
  type TestCertificate,
  type TestSmtpServer,
} from '../app/leads/testing/smtp-test-support.server.ts';
import { eventually, startReceiver } from '../app/leads/testing/test-support.server.ts';
import {
  attachServerLogsOnFailure,
  exportLeads,
  startSiteServer,
  tempDataDir,
  type SiteServer,
} from './support/lead-server.ts';
import {
  createPrivatePostgres,
  postgresBinDir,
  POSTGRES_BINARIES_SKIP_MESSAGE,
} from './support/postgres-server.ts';

/**
 * Every lead in the owner's inbox (docs/operations.md#lead-e-mail): a real SMTP server on loopback
 * (STARTTLS with a certificate the test makes, authentication), real server
 * processes, the quote form in Chromium with and without JavaScript, and the
 * faults a mail server brings: down while leads arrive, a crash in between,
 * two processes on one database, and settings that must stop the server.
 */

test.describe.configure({ timeout: 150_000 });
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

let certificate: TestCertificate;
test.beforeAll(() => {
  certificate = makeTestCertificate();
});
test.afterAll(() => certificate?.remove());

const cleanups: Array<() => Promise<void> | void> = [];
test.afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function smtpServer(): Promise<TestSmtpServer> {
  const smtp = await startSmtpServer({ certificate });
  cleanups.push(() => smtp.close());
  return smtp;
}

/** A site e-mailing its leads to the business through `smtp`, trusting the test's certificate. */
async function site(smtp: TestSmtpServer, env: Record<string, string> = {}): Promise<SiteServer> {
  const started = await startSiteServer({
    LEAD_EMAIL_TO: 'office@glass.example.nz',
    LEAD_EMAIL_FROM: 'website@glass.example.nz',
    SMTP_URL: smtp.url,
    NODE_EXTRA_CA_CERTS: certificate.certFile,
    ...env,
  });
  cleanups.push(() => started.stop());
  return started;
}

function lead(tag: string) {
  return {
    name: `Mail ${tag}`,
    email: `mail.${tag}@example.nz`,
    phone: '027 555 0199',
    service: 'Windows',
    message: `Mail test ${tag}`,
    source: 'quote_form',
    idempotency_key: `mail-${tag}`,
  };
}

async function post(url: string, body: unknown) {
  const response = await fetch(`${url}/api/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as { id?: string } };
}

/** How many messages the SMTP server took for each lead id (X-Lead-Id). */
function sentPerLead(smtp: TestSmtpServer): Map<string, number> {
  const counts = new Map<string, number>();
  for (const mail of smtp.messages) {
    const id = String(mail.parsed.headers.get('x-lead-id') ?? '');
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

async function fillQuoteForm(page: Page, tag: string) {
  const form = page.locator('form[data-quote-form]');
  await form.getByLabel('Name', { exact: true }).fill(`Rāwiri ${tag}`);
  await form.getByLabel('Email', { exact: true }).fill(`Rawiri.${tag}@Example.nz`);
  await form.getByLabel('Phone', { exact: true }).fill('027 555 0199');
  await form.getByLabel('Service').selectOption('Balustrades');
  await form.getByLabel('Message', { exact: true }).fill(`New balustrade for the deck, ${tag}.`);
  await form.getByRole('button', { name: 'Request My Free Quote' }).click();
  await expect(page).toHaveURL(/\/thank-you$/);
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`the quote form ${javaScriptEnabled ? 'with' : 'without'} JavaScript`, () => {
    test.use({ javaScriptEnabled });

    test('the enquiry arrives by e-mail, answering to the visitor', async ({ page }) => {
      const smtp = await smtpServer();
      const data = tempDataDir();
      cleanups.push(() => data.remove());
      const server = await site(smtp, { DATA_DIR: data.dir });
      const tag = randomUUID().slice(0, 8);
      await page.goto(`${server.url}/quote`);
      if (javaScriptEnabled) {
        // The form's code is running: its idempotency key is set.
        await expect(page.locator('input[name="idempotency_key"]')).not.toHaveValue('');
      }
      await fillQuoteForm(page, tag);
      await smtp.waitForMessages(1);
      const [mail] = smtp.messages;
      expect(mail?.envelope.to).toEqual(['office@glass.example.nz']);
      expect(mail?.parsed.replyTo?.value).toEqual([
        { name: `Rāwiri ${tag}`, address: `rawiri.${tag}@example.nz` },
      ]);
      expect(mail?.parsed.subject).toBe(`New enquiry: Balustrades, from Rāwiri ${tag}`);
      expect(mail?.parsed.text).toContain(`New balustrade for the deck, ${tag}.`);
      expect(mail?.parsed.text).toContain('the quote page form');
      expect(smtp.secureSessions[0]).toBe(true);
      const [stored] = await exportLeads({ DATA_DIR: data.dir });
      // The e-mail's row; the push to the owners' phones has its own.
      expect(stored?.deliveries.filter((delivery) => delivery.target !== 'push')).toEqual([
        expect.objectContaining({ target: 'email', state: 'delivered' }),
      ]);
    });
  });
}

test('mail server refusing connections while 20 leads arrive, the site killed and restarted: each e-mail arrives once', async () => {
  const smtp = await smtpServer();
  await smtp.stop();
  const data = tempDataDir();
  cleanups.push(() => data.remove());
  const env = { DATA_DIR: data.dir, LEAD_ACCEPT: 'stored' };
  const first = await site(smtp, env);
  const ids: string[] = [];
  for (let index = 0; index < 20; index++) {
    const result = await post(first.url, lead(`crash-${index}-${randomUUID().slice(0, 6)}`));
    expect(result.status).toBe(201);
    ids.push(String(result.json.id));
  }
  // Every lead's first attempt has failed and been recorded.
  await eventually(async () => {
    const leads = await exportLeads({ DATA_DIR: data.dir });
    expect(leads).toHaveLength(20);
    for (const entry of leads) {
      expect(entry.deliveries[0]).toEqual(
        expect.objectContaining({ target: 'email', state: 'pending' }),
      );
      expect(entry.deliveries[0]?.attempts).toBeGreaterThanOrEqual(1);
    }
  }, 60_000);

  await first.kill();
  await smtp.start();
  await site(smtp, env);
  await eventually(async () => {
    const leads = await exportLeads({ DATA_DIR: data.dir });
    expect(leads.map((entry) => entry.deliveries[0]?.state)).toEqual(ids.map(() => 'delivered'));
  }, 90_000);
  const counts = sentPerLead(smtp);
  expect([...counts.keys()].sort()).toEqual([...ids].sort());
  expect([...counts.values()].every((count) => count === 1)).toBe(true);
});

test('two server processes on one PostgreSQL send each e-mail once', async () => {
  test.skip(!postgresBinDir(), POSTGRES_BINARIES_SKIP_MESSAGE);
  const postgres = await createPrivatePostgres();
  cleanups.push(() => postgres.remove());
  await postgres.start();
  const smtp = await smtpServer();
  smtp.mode = 'defer';
  const env = { DATABASE_URL: postgres.url, LEAD_ACCEPT: 'stored' };
  const [a, b] = [await site(smtp, env), await site(smtp, env)];
  const ids: string[] = [];
  for (let index = 0; index < 12; index++) {
    const result = await post(
      (index % 2 ? a : b).url,
      lead(`two-${index}-${randomUUID().slice(0, 6)}`),
    );
    expect(result.status).toBe(201);
    ids.push(String(result.json.id));
  }
  // 451 for a while: both outboxes retry, then the server takes the mail.
  await eventually(async () => {
    const leads = await exportLeads({ DATABASE_URL: postgres.url });
    expect(leads.every((entry) => (entry.deliveries[0]?.attempts ?? 0) >= 1)).toBe(true);
  }, 60_000);
  smtp.mode = 'ok';
  await eventually(async () => {
    const leads = await exportLeads({ DATABASE_URL: postgres.url });
    expect(leads.map((entry) => entry.deliveries[0]?.state)).toEqual(ids.map(() => 'delivered'));
  }, 90_000);
  const counts = sentPerLead(smtp);
  expect([...counts.keys()].sort()).toEqual([...ids].sort());
  expect([...counts.values()].every((count) => count === 1)).toBe(true);
});

test('a webhook that refuses a lead for good: logged once, the owner told by one e-mail, counted in /healthz', async () => {
  const smtp = await smtpServer();
  const hook = await startReceiver('fail');
  hook.failStatus = 410;
  cleanups.push(() => hook.close());
  const data = tempDataDir();
  cleanups.push(() => data.remove());
  const server = await site(smtp, {
    DATA_DIR: data.dir,
    LEAD_ACCEPT: 'stored',
    LEAD_WEBHOOK_URLS: `${hook.url}/t0ken-410`,
  });
  const result = await post(server.url, lead(`gone-${randomUUID().slice(0, 6)}`));
  expect(result.status).toBe(201);
  // The lead's own e-mail, and one about the webhook that gave up on it.
  await smtp.waitForMessages(2, 60_000);
  const subjects = smtp.messages.map((mail) => mail.parsed.subject).sort();
  expect(subjects).toEqual([
    expect.stringMatching(/^New enquiry: Windows, from Mail gone-/),
    expect.stringMatching(/^Not delivered to webhook 1: New enquiry/),
  ]);
  const health = (await (await fetch(`${server.url}/healthz`)).json()) as Record<string, unknown>;
  expect(health).toEqual(expect.objectContaining({ ok: true, targets: 2, failedDeliveries: 1 }));
  const errors = server
    .output()
    .split('\n')
    .filter((line) => line.includes('"level":50'));
  expect(errors).toHaveLength(1);
  expect(errors[0]).toContain('refused for good');
  expect(server.output()).not.toContain('t0ken-410');
  expect(hook.requests).toHaveLength(1);
});

test('settings that would half-work or leak stop the server, naming the variable', async () => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ LEAD_EMAIL_TO: 'office@glass.example.nz' }, 'SMTP_URL'],
    [{ LEAD_EMAIL_TO: 'the office', SMTP_URL: 'smtps://u:p@mail.example.nz' }, 'LEAD_EMAIL_TO'],
    [
      {
        LEAD_EMAIL_TO: 'office@glass.example.nz',
        SMTP_URL: 'smtp://user:Hunter2-secret@mail.example.nz:587?ignoreTLS=true',
      },
      'SMTP_URL',
    ],
  ];
  for (const [env, variable] of cases) {
    const failure = await startSiteServer(env).then(
      async (started) => {
        await started.stop();
        return 'started';
      },
      (error: unknown) => String(error),
    );
    expect(failure, variable).toMatch(new RegExp(`exited \\(1\\)[\\s\\S]*${variable}:`));
    expect(failure).not.toContain('Hunter2-secret');
  }
});

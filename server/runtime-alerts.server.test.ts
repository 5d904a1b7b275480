import { afterEach, describe, expect, it } from 'vitest';
import { makeLead } from '../app/db/leads/leads.contract.ts';
import { openSqliteStore } from '../app/db/store-sqlite.server.ts';
import { startPushService } from '../app/leads/testing/push-service.ts';
import { startSmtpServer } from '../app/leads/testing/smtp-test-support.server.ts';
import { eventually, silentLogger, tempDataDir } from '../app/leads/testing/test-support.server.ts';
import { parseEnv } from './env.server.ts';
import { createRuntime } from './runtime.server.ts';

/**
 * The server as start.ts assembles it escalates an urgent lead nobody took
 * after URGENT_ESCALATE_MINUTES: pushed to the owner's device through the
 * push service stand-in and e-mailed through the SMTP stand-in, once.
 */

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('the server escalates', () => {
  it('an urgent lead nobody took within URGENT_ESCALATE_MINUTES, by push and e-mail, once', async () => {
    const data = tempDataDir('runtime-alerts-');
    cleanups.push(() => data.remove());
    const mail = await startSmtpServer();
    cleanups.push(() => mail.close());
    const service = await startPushService();
    cleanups.push(() => service.close());
    const store = await openSqliteStore({ dataDir: data.dir });
    cleanups.push(() => store.close());
    const owner = (await store.addOwner('kasey@glass.example.nz', new Date().toISOString())).owner;
    const browser = service.subscribe();
    await store.addPushSubscription({
      owner_id: owner.id,
      endpoint: browser.endpoint,
      p256dh: browser.keys.p256dh,
      auth: browser.keys.auth,
      notify: 'urgent',
      device: 'iPhone, Safari',
      created_at: new Date().toISOString(),
    });
    // Came in 61 seconds ago; nobody said "I'm on it".
    const lead = makeLead({
      urgent: true,
      name: 'Hemi Walker',
      created_at: new Date(Date.now() - 61_000).toISOString(),
    });
    await store.insertLead(lead, []);

    const env = parseEnv({
      DATA_DIR: data.dir,
      SMTP_URL: mail.url,
      LEAD_EMAIL_TO: 'office@glass.example.nz',
      LEAD_ACCEPT: 'stored',
      URGENT_ESCALATE_MINUTES: '1',
    });
    const runtime = await createRuntime(env, silentLogger(), { escalationPollMs: 50 });
    cleanups.push(() => runtime.close());

    await service.waitForPushes(1, { timeoutMs: 20_000 });
    expect(service.received[0]?.json).toEqual(
      expect.objectContaining({ type: 'lead', id: lead.id, urgent: true, escalated: true }),
    );
    await mail.waitForMessages(1, 20_000);
    expect(mail.messages[0]?.envelope.to).toEqual(['kasey@glass.example.nz']);
    expect(mail.messages[0]?.parsed.subject).toContain('Still unanswered');
    // Marked and noted once sent; the rounds after it send nothing more.
    await eventually(async () =>
      expect((await store.listActivity({ limit: 5 })).map((entry) => entry.action)).toEqual([
        'lead.escalated',
      ]),
    );
    expect(service.received).toHaveLength(1);
    expect(mail.messages).toHaveLength(1);
  });
});

describe('the server e-mails each owner in the morning', () => {
  it('at 7:30 New Zealand time, through the lead e-mail’s mail server, what waits', async () => {
    const data = tempDataDir('runtime-morning-');
    cleanups.push(() => data.remove());
    const mail = await startSmtpServer();
    cleanups.push(() => mail.close());
    const store = await openSqliteStore({ dataDir: data.dir });
    cleanups.push(() => store.close());
    await store.addOwner('kasey@glass.example.nz', '2026-06-01T00:00:00.000Z');
    await store.insertLead(
      makeLead({ name: 'Aroha Ngata', created_at: '2026-06-07T00:00:00.000Z' }),
      [],
    );

    const env = parseEnv({
      DATA_DIR: data.dir,
      SMTP_URL: mail.url,
      LEAD_EMAIL_TO: 'office@glass.example.nz',
      LEAD_ACCEPT: 'stored',
    });
    // 7:31 am on Wednesday 10 June 2026 in Tauranga.
    const runtime = await createRuntime(env, silentLogger(), {
      morningEmail: { pollMs: 50, now: () => Date.parse('2026-06-09T19:31:00.000Z') },
    });
    cleanups.push(() => runtime.close());

    await mail.waitForMessages(1, 20_000);
    expect(mail.messages[0]?.envelope.to).toEqual(['kasey@glass.example.nz']);
    expect(mail.messages[0]?.parsed.subject).toBe('This morning: 1 to follow up');
    expect(mail.messages[0]?.parsed.text).toContain('- Aroha Ngata, Windows. New for 2 days.');
    // Once that day, however many looks.
    await eventually(async () =>
      expect(
        await store.claimMorningEmail({
          ownerId: (await store.listOwners())[0]!.id,
          day: '2026-06-10',
          now: '2026-06-09T19:40:00.000Z',
          leaseUntil: '2026-06-09T19:45:00.000Z',
        }),
      ).toBe('done'),
    );
    expect(mail.messages).toHaveLength(1);
  });
});

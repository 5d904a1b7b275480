import { afterEach, describe, expect, it } from 'vitest';
import { makeLead } from '../../db/leads/leads.contract.ts';
import type { AppStore, LeadRecord } from '../../db/store.server.ts';
import { sendEscalationEmail } from '../../owner/escalation-email.server.ts';
import { parseSmtpUrl } from '../delivery/lead-email.server.ts';
import { startSmtpServer, type TestSmtpServer } from '../testing/smtp-test-support.server.ts';
import {
  POSTGRES_SKIP_MESSAGE,
  silentLogger,
  STORE_BACKENDS,
  TEST_DATABASE_URL,
  type StoreHarness,
} from '../testing/test-support.server.ts';
import { createEscalation, type Escalation } from './escalation.server.ts';
import type { OwnerPushPayload } from './owner-push.server.ts';

/**
 * Escalation with a short URGENT_ESCALATE_MINUTES and a clock of the test's
 * own, on each store: two processes (two stores on one database, each
 * with its escalation) and a restart between, a real SMTP stand-in for
 * the owners' e-mails, and the pushes recorded.
 */

if (!TEST_DATABASE_URL) console.warn(POSTGRES_SKIP_MESSAGE);

const MINUTE = 60_000;
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

for (const backend of STORE_BACKENDS) {
  describe.skipIf(backend.skip)(`escalation: ${backend.label}`, () => {
    let harness: StoreHarness;
    let mail: TestSmtpServer;
    let clock: number;
    const pushes: OwnerPushPayload[] = [];

    async function open(): Promise<AppStore> {
      const store = await harness.open();
      cleanups.push(() => store.close());
      return store;
    }

    /** One server process's escalation, on a store of its own. */
    async function serverProcess(): Promise<{ store: AppStore; escalation: Escalation }> {
      const store = await open();
      const smtp = parseSmtpUrl(mail.url);
      if (!smtp.ok) throw new Error(smtp.error);
      const escalation = createEscalation({
        store,
        logger: silentLogger(),
        minutes: 2,
        now: () => clock,
        push: async (payload) => {
          pushes.push(payload);
          return { sent: 1, failed: 0 };
        },
        emailOwner: async (to: string, lead: LeadRecord) =>
          (
            await sendEscalationEmail(
              smtp.smtp,
              {
                to,
                lead,
                minutes: 2,
                siteUrl: 'https://glass.example.nz',
                siteName: 'Tauranga Glass',
                from: 'website@glass.example.nz',
              },
              { timeoutMs: 5000 },
            )
          ).ok,
      });
      cleanups.push(() => escalation.stop());
      return { store, escalation };
    }

    async function setUp() {
      harness = await backend.harness();
      cleanups.push(() => harness.cleanup());
      mail = await startSmtpServer();
      cleanups.push(() => mail.close());
      pushes.length = 0;
    }

    it('pushes and e-mails an urgent lead nobody took once, across processes and a restart; never an acknowledged one', async () => {
      await setUp();
      const a = await serverProcess();
      const b = await serverProcess();
      const created = Date.parse('2026-03-05T01:00:00.000Z');
      clock = created;
      const at = new Date(created).toISOString();
      const urgent = makeLead({ urgent: true, created_at: at, name: 'Aroha Ngata' });
      const taken = makeLead({ urgent: true, created_at: at });
      const calm = makeLead({ created_at: at });
      const spam = makeLead({ urgent: true, created_at: at, status: 'spam' });
      for (const lead of [urgent, taken, calm, spam]) await a.store.insertLead(lead, []);
      await a.store.addOwner('kasey@glass.example.nz', at);
      await a.store.addOwner('mere@glass.example.nz', at);
      // "I'm on it" before the minutes are up: never escalated.
      await b.store.acknowledgeLead(taken.id, 'kasey@glass.example.nz', at);

      clock = created + 2 * MINUTE - 1;
      expect(await a.escalation.runOnce()).toBe(0);
      expect(await b.escalation.runOnce()).toBe(0);

      clock = created + 2 * MINUTE;
      const counts = await Promise.all([a.escalation.runOnce(), b.escalation.runOnce()]);
      expect(counts.reduce((sum, n) => sum + n, 0)).toBe(1);
      expect(pushes).toEqual([
        {
          type: 'lead',
          id: urgent.id,
          name: 'Aroha Ngata',
          service: urgent.service,
          urgent: true,
          url: `/admin/leads/${urgent.id}`,
          escalated: true,
        },
      ]);
      await mail.waitForMessages(2);
      expect(
        mail.messages
          .map((message) => message.envelope.to)
          .flat()
          .sort(),
      ).toEqual(['kasey@glass.example.nz', 'mere@glass.example.nz']);
      for (const message of mail.messages) {
        expect(message.parsed.subject).toBe(
          `Still unanswered: URGENT enquiry from Aroha Ngata (${urgent.service})`,
        );
        expect(message.parsed.text).toContain(`https://glass.example.nz/admin/leads/${urgent.id}`);
      }

      // Later rounds, and a restarted process, send nothing more.
      clock = created + 30 * MINUTE;
      expect(await a.escalation.runOnce()).toBe(0);
      const restarted = await serverProcess();
      expect(await restarted.escalation.runOnce()).toBe(0);
      expect(pushes).toHaveLength(1);
      expect(mail.messages).toHaveLength(2);
      const activity = await restarted.store.listActivity({ limit: 10 });
      expect(activity.map((entry) => [entry.actor, entry.action, entry.detail])).toEqual([
        ['server', 'lead.escalated', `lead=${urgent.id},minutes=2`],
      ]);
    });

    it('tries again when nothing got through, and not after it did', async () => {
      await setUp();
      const a = await serverProcess();
      const created = Date.parse('2026-03-05T02:00:00.000Z');
      const urgent = makeLead({ urgent: true, created_at: new Date(created).toISOString() });
      await a.store.insertLead(urgent, []);
      await a.store.addOwner('kasey@glass.example.nz', urgent.created_at);
      mail.mode = 'reject';
      const failing = createEscalation({
        store: a.store,
        logger: silentLogger(),
        minutes: 2,
        now: () => clock,
        leaseMs: MINUTE,
        push: async () => ({ sent: 0, failed: 1 }),
        emailOwner: async () => false,
      });
      clock = created + 2 * MINUTE;
      expect(await failing.runOnce()).toBe(0);
      // Its claim holds a minute; then it is tried again, and this time gets through.
      clock = created + 2 * MINUTE + 30_000;
      expect(await a.escalation.runOnce()).toBe(0);
      clock = created + 3 * MINUTE;
      mail.mode = 'ok';
      expect(await a.escalation.runOnce()).toBe(1);
      expect(pushes).toHaveLength(1);
      clock = created + 10 * MINUTE;
      expect(await a.escalation.runOnce()).toBe(0);
    });

    it('with no device and no mail server, marks it without noting that anyone was told', async () => {
      await setUp();
      const store = await open();
      const created = Date.parse('2026-03-05T03:00:00.000Z');
      const urgent = makeLead({ urgent: true, created_at: new Date(created).toISOString() });
      await store.insertLead(urgent, []);
      const quiet = createEscalation({
        store,
        logger: silentLogger(),
        minutes: 2,
        now: () => clock,
        push: async () => ({ sent: 0, failed: 0 }),
      });
      clock = created + 2 * MINUTE;
      expect(await quiet.runOnce()).toBe(0);
      expect(await store.listActivity({ limit: 5 })).toEqual([]);
      clock = created + 5 * MINUTE;
      expect(
        await store.claimEscalations({
          dueBefore: new Date(clock).toISOString(),
          now: new Date(clock).toISOString(),
          leaseUntil: new Date(clock + MINUTE).toISOString(),
          limit: 5,
        }),
      ).toEqual([]);
    });
  });
}

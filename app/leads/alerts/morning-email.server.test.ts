import { afterEach, describe, expect, it } from 'vitest';
import { makeLead } from '../../db/leads/leads.contract.ts';
import type { AppStore } from '../../db/store.server.ts';
import { sendMorningEmail, type MorningLists } from '../../owner/morning-email.server.ts';
import { parseSmtpUrl } from '../delivery/lead-email.server.ts';
import { startSmtpServer, type TestSmtpServer } from '../testing/smtp-test-support.server.ts';
import {
  POSTGRES_SKIP_MESSAGE,
  silentLogger,
  STORE_BACKENDS,
  TEST_DATABASE_URL,
  type StoreHarness,
} from '../testing/test-support.server.ts';
import { createMorningEmail, nzLocalTime, type MorningEmailLoop } from './morning-email.server.ts';

/**
 * The owners' morning e-mail at 7:30 New Zealand time
 * (docs/operations.md#follow-ups), with a clock of the test's own moved
 * five minutes at a time across both daylight-saving changes of 2026 (it
 * ends on Sunday 5 April at 3 am NZDT, starts on Sunday 27 September at
 * 2 am NZST), on each store: two server processes on one database, a
 * restart, and a process down all day. The instants below are 7:30 in
 * Tauranga, written out in UTC: 18:30 the day before while daylight saving
 * is on (UTC+13), 19:30 while it is off (UTC+12).
 */

if (!TEST_DATABASE_URL) console.warn(POSTGRES_SKIP_MESSAGE);

const MINUTE = 60_000;
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const APRIL = {
  // 1 am on Saturday 4 April to 10 pm on Monday 6 April.
  from: Date.parse('2026-04-03T12:00:00.000Z'),
  to: Date.parse('2026-04-06T10:00:00.000Z'),
  sent: [
    '2026-04-03T18:30:00.000Z', // Saturday 4 April, NZDT
    '2026-04-04T19:30:00.000Z', // Sunday 5 April, the change, NZST
    '2026-04-05T19:30:00.000Z', // Monday 6 April, NZST
  ],
};
const SEPTEMBER = {
  // Midnight on Saturday 26 September to 11 pm on Monday 28 September.
  from: Date.parse('2026-09-25T12:00:00.000Z'),
  to: Date.parse('2026-09-28T10:00:00.000Z'),
  sent: [
    '2026-09-25T19:30:00.000Z', // Saturday 26 September, NZST
    '2026-09-26T18:30:00.000Z', // Sunday 27 September, the change, NZDT
    '2026-09-27T18:30:00.000Z', // Monday 28 September, NZDT
  ],
};

describe('New Zealand time from the platform', () => {
  it('gives the day and the minutes since midnight there, daylight saving honoured', () => {
    expect(nzLocalTime(new Date('2026-04-03T18:30:00.000Z'))).toEqual({
      day: '2026-04-04',
      minutes: 450,
    });
    expect(nzLocalTime(new Date('2026-04-04T19:30:00.000Z'))).toEqual({
      day: '2026-04-05',
      minutes: 450,
    });
    // The hour repeated when daylight saving ends: 2:30 am twice.
    expect(nzLocalTime(new Date('2026-04-04T13:30:00.000Z')).minutes).toBe(150);
    expect(nzLocalTime(new Date('2026-04-04T14:30:00.000Z')).minutes).toBe(150);
    // The hour skipped when it starts: 1:59 am, then 3:00 am.
    expect(nzLocalTime(new Date('2026-09-26T13:59:00.000Z')).minutes).toBe(119);
    expect(nzLocalTime(new Date('2026-09-26T14:00:00.000Z')).minutes).toBe(180);
    expect(nzLocalTime(new Date('2026-12-31T11:00:00.000Z'))).toEqual({
      day: '2027-01-01',
      minutes: 0,
    });
  });
});

for (const backend of STORE_BACKENDS) {
  describe.skipIf(backend.skip)(`the morning e-mail: ${backend.label}`, () => {
    let harness: StoreHarness;
    let clock: number;
    const sent: Array<{ to: string; at: string; lists: MorningLists }> = [];

    async function setUp() {
      harness = await backend.harness();
      cleanups.push(() => harness.cleanup());
      sent.length = 0;
    }

    /** One server process's morning e-mail, on a store of its own. */
    async function serverProcess(
      send: (to: string, lists: MorningLists, now: Date) => Promise<boolean> = async (
        to,
        lists,
      ) => {
        sent.push({ to, at: new Date(clock).toISOString(), lists });
        return true;
      },
    ): Promise<{ store: AppStore; loop: MorningEmailLoop }> {
      const store = await harness.open();
      cleanups.push(() => store.close());
      const loop = createMorningEmail({
        store,
        logger: silentLogger(),
        quotedDays: 3,
        now: () => clock,
        emailOwner: send,
      });
      cleanups.push(() => loop.stop());
      return { store, loop };
    }

    /** Both processes look every five minutes from `from` to `to`. */
    async function run(loops: MorningEmailLoop[], from: number, to: number) {
      for (clock = from; clock <= to; clock += 5 * MINUTE) {
        for (const loop of loops) await loop.runOnce();
      }
    }

    for (const change of [APRIL, SEPTEMBER]) {
      it(`goes at 7:30 each day around the change of ${change.sent[1]!.slice(0, 7)}, once per owner, from two processes`, async () => {
        await setUp();
        const a = await serverProcess();
        const b = await serverProcess();
        await a.store.addOwner('kasey@glass.example.nz', new Date(change.from).toISOString());
        await a.store.addOwner('mere@glass.example.nz', new Date(change.from).toISOString());
        // Waiting since long before: on every day's list.
        await a.store.insertLead(
          makeLead({ name: 'Aroha Ngata', created_at: '2026-01-05T00:00:00.000Z' }),
          [],
        );

        await run([a.loop, b.loop], change.from, change.to);
        const expected = change.sent.flatMap((at) => [
          { to: 'kasey@glass.example.nz', at },
          { to: 'mere@glass.example.nz', at },
        ]);
        expect(
          sent
            .map(({ to, at }) => ({ to, at }))
            .sort((x, y) => x.at.localeCompare(y.at) || x.to.localeCompare(y.to)),
        ).toEqual(expected);
        expect(sent[0]!.lists.waiting.leads.map((lead) => lead.name)).toEqual(['Aroha Ngata']);
      });
    }

    it('sends nothing when nothing waits', async () => {
      await setUp();
      const a = await serverProcess();
      await a.store.addOwner('kasey@glass.example.nz', new Date(APRIL.from).toISOString());
      // Came in an hour before 7:30: not a day old yet; and not urgent.
      await a.store.insertLead(makeLead({ created_at: '2026-04-03T17:30:00.000Z' }), []);
      await run([a.loop], APRIL.from, Date.parse('2026-04-03T21:00:00.000Z'));
      expect(sent).toEqual([]);
      // An urgent one nobody is on is listed the next morning.
      await a.store.insertLead(
        makeLead({ urgent: true, name: 'Tama Rewi', created_at: '2026-04-04T18:00:00.000Z' }),
        [],
      );
      await run(
        [a.loop],
        Date.parse('2026-04-04T19:00:00.000Z'),
        Date.parse('2026-04-04T20:00:00.000Z'),
      );
      expect(sent.map((each) => each.at)).toEqual(['2026-04-04T19:30:00.000Z']);
      expect(sent[0]!.lists.urgent.leads.map((lead) => lead.name)).toEqual(['Tama Rewi']);
      // The hour-old lead of the day before is a day old now.
      expect(sent[0]!.lists.waiting.total).toBe(1);
    });

    it('after a restart past 7:30 the day’s e-mail still goes, once; a process down all day sends no old one', async () => {
      await setUp();
      const first = await serverProcess();
      await first.store.addOwner('kasey@glass.example.nz', new Date(APRIL.from).toISOString());
      await first.store.insertLead(makeLead({ created_at: '2026-03-01T00:00:00.000Z' }), []);
      // Up until 7 am on Saturday 4 April (18:00 UTC on the 3rd), then down.
      await run([first.loop], APRIL.from, Date.parse('2026-04-03T18:00:00.000Z'));
      await first.loop.stop();
      expect(sent).toEqual([]);

      // Back at 10:12 am: the day's e-mail goes at its first look.
      const second = await serverProcess();
      clock = Date.parse('2026-04-03T21:12:00.000Z');
      await second.loop.runOnce();
      expect(sent.map((each) => each.at)).toEqual(['2026-04-03T21:12:00.000Z']);
      // Restarted again the same day: nothing more.
      const third = await serverProcess();
      await run(
        [third.loop],
        Date.parse('2026-04-03T22:00:00.000Z'),
        Date.parse('2026-04-04T10:00:00.000Z'),
      );
      expect(sent).toHaveLength(1);

      // Down all of Sunday; up again at 6 am on Monday: nothing for Sunday, Monday's at 7:30.
      const fourth = await serverProcess();
      await run(
        [fourth.loop],
        Date.parse('2026-04-05T18:00:00.000Z'),
        Date.parse('2026-04-05T20:00:00.000Z'),
      );
      expect(sent.map((each) => each.at)).toEqual([
        '2026-04-03T21:12:00.000Z',
        '2026-04-05T19:30:00.000Z',
      ]);
    });

    it('an owner added after 7:30 gets the day’s e-mail at the next look', async () => {
      await setUp();
      const a = await serverProcess();
      await a.store.addOwner('kasey@glass.example.nz', new Date(APRIL.from).toISOString());
      await a.store.insertLead(makeLead({ created_at: '2026-03-01T00:00:00.000Z' }), []);
      await run(
        [a.loop],
        Date.parse('2026-04-03T18:00:00.000Z'),
        Date.parse('2026-04-03T19:00:00.000Z'),
      );
      await a.store.addOwner('mere@glass.example.nz', '2026-04-03T19:02:00.000Z');
      await run(
        [a.loop],
        Date.parse('2026-04-03T19:05:00.000Z'),
        Date.parse('2026-04-03T20:00:00.000Z'),
      );
      expect(sent.map(({ to, at }) => ({ to, at }))).toEqual([
        { to: 'kasey@glass.example.nz', at: '2026-04-03T18:30:00.000Z' },
        { to: 'mere@glass.example.nz', at: '2026-04-03T19:05:00.000Z' },
      ]);
    });

    it('tries again while an e-mail could not be sent, and a process that died with the claim leaves it to another', async () => {
      await setUp();
      let up = false;
      const a = await serverProcess(async (to, lists) => {
        if (!up) return false;
        sent.push({ to, at: new Date(clock).toISOString(), lists });
        return true;
      });
      await a.store.addOwner('kasey@glass.example.nz', new Date(APRIL.from).toISOString());
      await a.store.insertLead(makeLead({ created_at: '2026-03-01T00:00:00.000Z' }), []);
      await run(
        [a.loop],
        Date.parse('2026-04-03T18:30:00.000Z'),
        Date.parse('2026-04-03T18:40:00.000Z'),
      );
      expect(sent).toEqual([]);
      up = true;
      await run(
        [a.loop],
        Date.parse('2026-04-03T18:45:00.000Z'),
        Date.parse('2026-04-03T19:30:00.000Z'),
      );
      expect(sent.map((each) => each.at)).toEqual(['2026-04-03T18:45:00.000Z']);

      // Monday: a process claims the e-mail and hangs before sending it.
      let release: (ok: boolean) => void = () => undefined;
      let claimed: () => void = () => undefined;
      const claimedNow = new Promise<void>((resolve) => (claimed = resolve));
      const dying = await serverProcess(() => {
        claimed();
        return new Promise<boolean>((resolve) => (release = resolve));
      });
      clock = Date.parse('2026-04-05T19:30:00.000Z');
      void dying.loop.runOnce();
      await claimedNow;
      const other = await serverProcess();
      await run([other.loop], clock, Date.parse('2026-04-05T19:45:00.000Z'));
      // Its claim held five minutes; then the other process sent it.
      expect(sent.map((each) => each.at)).toEqual([
        '2026-04-03T18:45:00.000Z',
        '2026-04-05T19:35:00.000Z',
      ]);
      release(false);
    });

    it('goes through the SMTP stand-in with the day’s lists', async () => {
      await setUp();
      const mail: TestSmtpServer = await startSmtpServer();
      cleanups.push(() => mail.close());
      const smtp = parseSmtpUrl(mail.url);
      if (!smtp.ok) throw new Error(smtp.error);
      const a = await serverProcess(
        async (to, lists, now) =>
          (
            await sendMorningEmail(
              smtp.smtp,
              {
                to,
                lists,
                now,
                siteUrl: 'https://glass.example.nz',
                siteName: 'Tauranga Glass',
                from: 'website@glass.example.nz',
              },
              { timeoutMs: 5000 },
            )
          ).ok,
      );
      await a.store.addOwner('kasey@glass.example.nz', new Date(APRIL.from).toISOString());
      const quoted = makeLead({
        name: 'Mere Kahu',
        service: 'Shower screens',
        created_at: '2026-03-20T00:00:00.000Z',
      });
      await a.store.insertLead(quoted, []);
      await a.store.saveLeadTracking(quoted.id, 0, { stage: 'quoted' }, '2026-03-30T18:00:00.000Z');
      clock = Date.parse('2026-04-03T18:30:00.000Z');
      await a.loop.runOnce();
      await mail.waitForMessages(1, 10_000);
      const message = mail.messages[0]!;
      expect(message.envelope.to).toEqual(['kasey@glass.example.nz']);
      expect(message.parsed.subject).toBe('This morning: 1 quote to chase');
      expect(message.parsed.text).toContain(
        `- Mere Kahu, Shower screens. Quoted 4 days ago.\n  https://glass.example.nz/admin/leads/${quoted.id}`,
      );
    });
  });
}

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeLead } from '../db/leads/leads.contract.ts';
import { openSqliteStore } from '../db/store-sqlite.server.ts';
import type { LeadRecord, AppStore } from '../db/store.server.ts';
import { tempDataDir } from '../leads/testing/test-support.server.ts';
import {
  handleLeadPost,
  inboxHref,
  inboxPage,
  leadCard,
  leadSummary,
  acknowledgeLead,
  onItSentence,
  deliverySentence,
  deliveryWay,
  markAllSeen,
  newSinceSeen,
  nzShortTime,
  openLead,
  opensLead,
  parseInboxQuery,
  spamCount,
  type LeadDeliveryControl,
} from './inbox.server.ts';

const owner = { id: '', email: 'owner@glass.example.com' };
let store: AppStore;
let dir: ReturnType<typeof tempDataDir>;

beforeEach(async () => {
  dir = tempDataDir('owner-inbox-');
  store = await openSqliteStore({ dataDir: dir.dir });
  owner.id = (await store.addOwner(owner.email, new Date().toISOString())).owner.id;
});
afterEach(async () => {
  await store.close();
  dir.remove();
});

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

async function stored(overrides: Partial<LeadRecord> = {}) {
  const lead = makeLead(overrides);
  await store.insertLead(lead, [
    { target: 'webhook:1', label: 'webhook 1', state: 'pending', next_attempt_at: null },
    { target: 'email', label: 'email', state: 'pending', next_attempt_at: null },
  ]);
  return lead;
}

describe('the inbox query', () => {
  it('reads stage, search and page from the URL, ignoring what it does not know', () => {
    expect(parseInboxQuery(new URL('https://x/admin?stage=won&q=%20021%20&page=3'))).toEqual({
      stage: 'won',
      query: '021',
      page: 3,
    });
    expect(parseInboxQuery(new URL('https://x/admin?stage=archived&page=-2'))).toEqual({
      stage: undefined,
      query: '',
      page: 1,
    });
    expect(parseInboxQuery(new URL('https://x/admin?page=1e400'))).toMatchObject({ page: 1 });
  });

  it('links to a page with the same filter and search', () => {
    expect(inboxHref({ stage: undefined, query: '', page: 1 })).toBe('/admin');
    expect(inboxHref({ stage: 'quoted', query: 'Aroha & co', page: 2 })).toBe(
      '/admin?stage=quoted&q=Aroha+%26+co&page=2',
    );
  });

  it('shows times in New Zealand time, daylight saving included', () => {
    // 01:05 UTC on 5 March 2025 is 2:05 pm NZDT; on 5 July, 1:05 pm NZST.
    expect(nzShortTime('2025-03-05T01:05:00.000Z')).toMatch(/5 Mar 2025.*2:05\s?pm/);
    expect(nzShortTime('2025-07-05T01:05:00.000Z')).toMatch(/5 Jul 2025.*1:05\s?pm/);
  });
});

describe('a page of the inbox', () => {
  it('pages 55 leads 50 at a time, newest first, with links either side', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 55; index++) ids.push((await stored()).id);
    const first = await inboxPage(store, { stage: undefined, query: '', page: 1 });
    expect(first.leads).toHaveLength(50);
    expect(first.leads[0]?.id).toBe(ids[54]);
    expect(first).toMatchObject({
      total: 55,
      newer: null,
      older: '/admin?page=2',
      range: 'Showing 1–50 of 55',
    });
    const second = await inboxPage(store, { stage: undefined, query: '', page: 2 });
    expect(second.leads.map((lead) => lead.id)).toEqual(ids.slice(0, 5).reverse());
    expect(second).toMatchObject({ newer: '/admin', older: null, range: 'Showing 51–55 of 55' });
  });

  it('filters by stage and searches by name, e-mail or phone', async () => {
    const aroha = await stored({ name: 'Aroha Ngata', phone: '021 555 0101' });
    const tama = await stored({
      name: 'Tama Walker',
      email: 'tama@example.com',
      phone: '09 555 7777',
    });
    await store.saveLeadTracking(tama.id, 0, { stage: 'won' });
    const page = (query: Parameters<typeof inboxPage>[1]) =>
      inboxPage(store, query).then((result) => result.leads.map((lead) => lead.name));
    expect(await page({ stage: 'won', query: '', page: 1 })).toEqual(['Tama Walker']);
    expect(await page({ stage: undefined, query: '0215550101', page: 1 })).toEqual([aroha.name]);
    expect(await page({ stage: undefined, query: 'TAMA@', page: 1 })).toEqual([tama.name]);
    expect(await page({ stage: 'won', query: 'aroha', page: 1 })).toEqual([]);
  });

  it('puts an urgent enquiry on top of the first page until the owner moves its stage', async () => {
    const urgent = await stored({ name: 'Hemi Urgent', urgent: true });
    for (let index = 0; index < 55; index++) await stored();
    const first = () => inboxPage(store, { stage: undefined, query: '', page: 1 });
    expect((await first()).leads[0]?.id).toBe(urgent.id);
    expect((await first()).leads.filter((lead) => lead.urgent)).toHaveLength(1);
    // Handled: back in time order, the oldest of the 56, on the second page.
    const saved = await handleLeadPost(
      store,
      owner,
      (await store.getLead(urgent.id))!,
      form({ action: 'save', stage: 'contacted', note: '', revision: '0' }),
    );
    expect(saved).toEqual({ kind: 'saved' });
    expect((await first()).leads.map((lead) => lead.id)).not.toContain(urgent.id);
    const second = await inboxPage(store, { stage: undefined, query: '', page: 2 });
    expect(second.leads.at(-1)?.id).toBe(urgent.id);
  });

  it('counts the enquiries no owner has seen; only opening one or "Mark all as seen" changes it', async () => {
    const first = await stored();
    await stored();
    expect(await newSinceSeen(store)).toBe(2);
    // Looking at the inbox changes nothing.
    await inboxPage(store, { stage: undefined, query: '', page: 1 });
    expect(await newSinceSeen(store)).toBe(2);

    // A HEAD, a browser's prefetch or a link preview is not the owner opening it.
    const page = `https://glass.example.com/admin/leads/${first.id}`;
    for (const request of [
      new Request(page, { method: 'HEAD' }),
      new Request(page, { headers: { 'sec-purpose': 'prefetch' } }),
      new Request(page, { headers: { 'sec-purpose': 'prefetch;prerender' } }),
      new Request(page, { headers: { purpose: 'prefetch' } }),
      new Request(page, { headers: { 'x-moz': 'prefetch' } }),
      new Request(page, { headers: { 'x-purpose': 'preview' } }),
      new Request(page, { method: 'POST', body: 'action=save' }),
    ]) {
      expect(opensLead(request), `${request.method} ${[...request.headers].join()}`).toBe(false);
      await openLead(store, (await store.getLead(first.id))!, request);
    }
    expect(await newSinceSeen(store)).toBe(2);
    expect(opensLead(new Request(page))).toBe(true);
    const at = new Date('2026-03-05T01:05:00.000Z');
    await openLead(store, (await store.getLead(first.id))!, new Request(page), at);
    expect((await store.getLead(first.id))?.seen_at).toBe(at.toISOString());
    expect(await newSinceSeen(store)).toBe(1);
    // Opened again: the first time stays.
    await openLead(store, (await store.getLead(first.id))!, new Request(page));
    expect((await store.getLead(first.id))?.seen_at).toBe(at.toISOString());

    // Marked from a page counted before a third came in: that one stays new.
    const counted = Date.now();
    const late = await stored({ created_at: new Date(counted + 1000).toISOString() });
    await markAllSeen(store, new Date(counted).toISOString(), new Date(counted + 2000));
    expect(await newSinceSeen(store)).toBe(1);
    expect((await store.getLead(late.id))?.seen_at).toBeNull();
    // A time from the future is taken as now; one that is not a time, too.
    await markAllSeen(store, new Date(counted + 3_600_000).toISOString(), new Date(counted + 1500));
    expect(await newSinceSeen(store)).toBe(0);
    await stored({ created_at: new Date(counted + 3000).toISOString() });
    await markAllSeen(store, 'soon', new Date(counted + 4000));
    expect(await newSinceSeen(store)).toBe(0);
  });
});

describe('a card of the inbox', () => {
  it("gives the customer's phone as a call link, the postcode when given and the message's first line", async () => {
    const contact = await stored({
      phone: ' 021 555 0101 ',
      message:
        '\n  A cracked pane in the lounge window, about 1.2 m by 900 mm. Can you come and measure it this week?  \nGate code 1234.',
    });
    expect(leadCard((await store.getLead(contact.id))!)).toEqual({
      tel: 'tel:0215550101',
      phone: '021 555 0101',
      place: null,
      firstLine: 'A cracked pane in the lounge window, about 1.2 m by 900 mm. Can you come and…',
      unseen: true,
      onIt: null,
    });
    const short = await stored({ message: 'Kitchen splashback\r\nthanks' });
    expect(leadCard((await store.getLead(short.id))!).firstLine).toBe('Kitchen splashback');
    const empty = await stored({ message: '  \n ', phone: 'none' });
    expect(leadCard((await store.getLead(empty.id))!)).toMatchObject({
      tel: null,
      firstLine: null,
    });

    // The call-back form sends its service type and postcode as its message.
    const callback = await stored({
      source: 'hero_form',
      service: 'Home Glass',
      message: 'Service type: Home Glass. Postal code: 3118',
    });
    await store.markLeadSeen(callback.id, new Date().toISOString());
    expect(leadCard((await store.getLead(callback.id))!)).toMatchObject({
      place: 'Postcode 3118',
      firstLine: null,
      unseen: false,
    });
  });
});

describe("I'm on it", () => {
  it('keeps the first owner on a lead, notes it once, and says so in words', async () => {
    const lead = await stored({ urgent: true });
    // 9:14 am on Thursday 5 March 2026 in Tauranga (NZDT, UTC+13).
    const at = new Date('2026-03-04T20:14:00.000Z');
    const first = await acknowledgeLead(
      store,
      { id: owner.id, email: 'kasey@glass.example.com' },
      lead.id,
      at,
    );
    expect(first).toEqual({
      first: true,
      acknowledged_at: at.toISOString(),
      acknowledged_by: 'kasey@glass.example.com',
    });
    const again = await acknowledgeLead(store, owner, lead.id, new Date(at.getTime() + 60_000));
    expect(again).toEqual({ ...first, first: false });
    expect(await acknowledgeLead(store, owner, makeLead().id, at)).toBeNull();
    const activity = await store.listActivity({ limit: 10 });
    expect(activity.map((entry) => [entry.action, entry.detail])).toEqual([
      ['lead.acknowledged', `lead=${lead.id}`],
    ]);
    const read = (await store.getLead(lead.id))!;
    expect(onItSentence(read, new Date('2026-03-04T22:00:00.000Z'))).toBe(
      'Kasey is on it since 9:14 am',
    );
    expect(onItSentence(read, new Date('2026-03-06T22:00:00.000Z'))).toBe(
      'Kasey is on it since 9:14 am on Thu, 5 Mar',
    );
    expect(leadCard(read, new Date('2026-03-04T22:00:00.000Z')).onIt).toBe(
      'Kasey is on it since 9:14 am',
    );
    expect(onItSentence((await store.getLead((await stored()).id))!)).toBeNull();
  });
});

describe("a lead's page in words", () => {
  it('says what happened to the enquiry, with no state names', async () => {
    const lead = await stored();
    const read = async () => (await store.getLead(lead.id))!;
    await store.settleLead(lead.id, 'accepted', [
      {
        target: 'email',
        state: 'delivered',
        attempts: 1,
        next_attempt_at: null,
        last_error: null,
        delivered_at: '2026-03-04T20:14:00.000Z',
      },
    ]);
    // 20:14 UTC on 4 March is 9:14 am NZDT on Thursday 5 March.
    expect(leadSummary(await read())).toMatch(
      /^Still to be sent to your connected app 1\. Sent to you by e-mail at 9:14\s?am on Thu,? 5 Mar\.$/,
    );
    await store.settleLead(lead.id, 'accepted', [
      {
        target: 'webhook:1',
        state: 'failed',
        attempts: 3,
        next_attempt_at: null,
        last_error: 'refused: HTTP 410',
        delivered_at: null,
      },
    ]);
    expect(leadSummary(await read())).toMatch(
      /^Could not be sent to your connected app 1\. Sent to you by e-mail at 9:14/,
    );
    await store.settleLead(lead.id, 'spam', []);
    expect(leadSummary(await read())).toBe('Caught as spam, so it was not sent on to you.');
    await store.settleLead(lead.id, 'accepted', []);
    await store.markSpam(lead.id, new Date().toISOString(), 'owner');
    expect(leadSummary(await read())).toBe('Moved to spam, so nothing more is sent on to you.');
    await store.settleLead(lead.id, 'not_accepted', []);
    expect(leadSummary(await read())).toBe(
      'It did not go through: the customer was asked to try again or to call.',
    );
    await store.settleLead(lead.id, 'received', []);
    expect(leadSummary(await read())).toBe('Just arrived: it is being sent to you now.');
  });

  it('names the push to the owners’ phones in words', () => {
    const push = { target: 'push', label: 'push' };
    expect(deliveryWay(push)).toBe('to your phone');
    const record = {
      ...push,
      lead_id: '00000000-0000-4000-8000-000000000001',
      attempts: 1,
      next_attempt_at: null,
      last_error: null,
      delivered_at: null,
      lease_owner: null,
      lease_expires_at: null,
    };
    expect(deliverySentence({ ...record, state: 'not_sent' as const })).toBe(
      'Not sent to your phone.',
    );
    expect(deliverySentence({ ...record, state: 'failed' as const })).toBe(
      'Could not be sent to your phone.',
    );
  });
});

describe("a post to a lead's page", () => {
  it('keeps the time of the post as when the stage changed, by Save, Spam and Not spam', async () => {
    const lead = await stored();
    const read = async () => (await store.getLead(lead.id))!;
    const at = (iso: string) => new Date(iso);
    await handleLeadPost(
      store,
      owner,
      await read(),
      form({ action: 'save', revision: '0', stage: 'quoted', note: '' }),
      at('2026-06-01T01:00:00.000Z'),
    );
    expect((await read()).stage_changed_at).toBe('2026-06-01T01:00:00.000Z');
    await handleLeadPost(
      store,
      owner,
      await read(),
      form({ action: 'spam' }),
      at('2026-06-02T01:00:00.000Z'),
    );
    expect((await read()).stage_changed_at).toBe('2026-06-02T01:00:00.000Z');
    await handleLeadPost(
      store,
      owner,
      await read(),
      form({ action: 'not-spam' }),
      at('2026-06-03T01:00:00.000Z'),
    );
    expect((await read()).stage_changed_at).toBe('2026-06-03T01:00:00.000Z');
  });

  it('saves stage and note on the revision seen, and shows a save made meanwhile', async () => {
    const lead = await stored();
    const read = async () => (await store.getLead(lead.id))!;
    expect(
      await handleLeadPost(
        store,
        owner,
        await read(),
        form({ action: 'save', revision: '0', stage: 'contacted', note: 'Rang back\r\nQuote Fri' }),
      ),
    ).toEqual({ kind: 'saved' });
    expect(await read()).toMatchObject({
      stage: 'contacted',
      note: 'Rang back\nQuote Fri',
      revision: 1,
    });

    const stale = await handleLeadPost(
      store,
      owner,
      await read(),
      form({ action: 'save', revision: '0', stage: 'lost', note: 'mine' }),
    );
    expect(stale).toEqual({
      kind: 'conflict',
      current: { stage: 'contacted', note: 'Rang back\nQuote Fri', revision: 1 },
      mine: { stage: 'lost', note: 'mine', job_value: '' },
    });
    expect(await read()).toMatchObject({ stage: 'contacted', revision: 1 });
    expect(
      await handleLeadPost(
        store,
        owner,
        await read(),
        form({ action: 'save', revision: '1', stage: 'archived' }),
      ),
    ).toMatchObject({ kind: 'invalid' });
  });

  it('keeps the value typed when marking a job won, refuses one it cannot read, clears it after', async () => {
    const lead = await stored();
    const read = async () => (await store.getLead(lead.id))!;
    const save = async (revision: number, stage: string, jobValue: string) =>
      handleLeadPost(
        store,
        owner,
        await read(),
        form({ action: 'save', revision: String(revision), stage, note: 'n', job_value: jobValue }),
      );

    expect(await save(0, 'won', '$1,250.50')).toEqual({ kind: 'saved' });
    expect(await read()).toMatchObject({ stage: 'won', job_value_cents: 125050, revision: 1 });

    // Refused beside the field, with what was typed kept for the form; nothing saved.
    expect(await save(1, 'won', '1250 dollars')).toEqual({
      kind: 'invalid-value',
      message: "Type the job's value in dollars, like 1250 or $1,250.50.",
      mine: { stage: 'won', note: 'n', job_value: '1250 dollars' },
    });
    expect(await read()).toMatchObject({ job_value_cents: 125050, revision: 1 });

    // Emptied while won: no value.
    expect(await save(1, 'won', ' ')).toEqual({ kind: 'saved' });
    expect(await read()).toMatchObject({ job_value_cents: null, revision: 2 });
    expect(await save(2, 'won', '980')).toEqual({ kind: 'saved' });
    expect((await read()).job_value_cents).toBe(98000);

    // Moved away from won, the value goes; one typed at another stage is not kept
    // (nor refused: the field is only read for a won job).
    expect(await save(3, 'quoted', '980')).toEqual({ kind: 'saved' });
    expect(await read()).toMatchObject({ stage: 'quoted', job_value_cents: null, revision: 4 });
    expect(await save(4, 'lost', 'not a number')).toEqual({ kind: 'saved' });
    expect((await read()).job_value_cents).toBeNull();
  });

  it('delivers a failed delivery again, once', async () => {
    const lead = await stored();
    await store.settleLead(lead.id, 'accepted', [
      {
        target: 'webhook:1',
        state: 'failed',
        attempts: 1,
        next_attempt_at: null,
        last_error: 'refused: HTTP 410',
        delivered_at: null,
      },
    ]);
    const post = async () =>
      handleLeadPost(
        store,
        owner,
        (await store.getLead(lead.id))!,
        form({ action: 'retry', target: 'webhook:1' }),
      );
    expect(await post()).toEqual({ kind: 'retried', label: 'to your connected app 1' });
    expect(await post()).toEqual({ kind: 'not-retried', label: 'to your connected app 1' });
    expect((await store.getLead(lead.id))?.deliveries[0]).toMatchObject({ state: 'pending' });
  });

  it('"Spam" moves an enquiry to spam, cancels what was not sent yet, and notes it', async () => {
    const lead = await stored();
    await store.settleLead(lead.id, 'accepted', [
      {
        target: 'email',
        state: 'delivered',
        attempts: 1,
        next_attempt_at: null,
        last_error: null,
        delivered_at: new Date().toISOString(),
      },
    ]);
    const read = async () => (await store.getLead(lead.id))!;
    expect(await handleLeadPost(store, owner, await read(), form({ action: 'spam' }))).toEqual({
      kind: 'spam',
      cancelled: 1,
    });
    const after = await read();
    expect([after.status, after.stage, after.spam_reason]).toEqual(['spam', 'spam', 'owner']);
    expect(after.deliveries.map((d) => [d.target, d.state])).toEqual([
      ['webhook:1', 'cancelled'],
      ['email', 'delivered'],
    ]);
    expect(leadSummary(after)).toBe('Moved to spam, so nothing more is sent on to you.');
    expect(await spamCount(store)).toBe(1);
    expect((await inboxPage(store, parseInboxQuery(new URL('http://x/admin')))).total).toBe(0);
    expect(await handleLeadPost(store, owner, after, form({ action: 'spam' }))).toEqual(
      expect.objectContaining({ kind: 'invalid' }),
    );
    const [entry] = await store.listActivity({ limit: 5 });
    expect(entry).toEqual(
      expect.objectContaining({ action: 'lead.spam', detail: `lead=${lead.id},cancelled=1` }),
    );
  });

  it('"Not spam" sends a spam enquiry to every target configured now and makes it new', async () => {
    const lead = makeLead({
      status: 'spam',
      spam_reason: 'link',
      urgent: true,
      created_at: new Date(Date.now() - 60 * 60_000).toISOString(),
    });
    await store.insertLead(lead, []);
    const read = async () => (await store.getLead(lead.id))!;
    expect(leadSummary(await read())).toBe(
      'Caught as spam (contains a link), so it was not sent on to you.',
    );
    let kicks = 0;
    const delivery: LeadDeliveryControl = {
      targets: () => [
        { key: 'email', label: 'email' },
        { key: 'push', label: 'push' },
      ],
      kick: () => {
        kicks += 1;
      },
      escalateAfterMinutes: 10,
    };
    const now = new Date();
    expect(
      await handleLeadPost(store, owner, await read(), form({ action: 'not-spam' }), now, delivery),
    ).toEqual({ kind: 'not-spam', targets: 2 });
    const after = await read();
    expect([after.status, after.stage, after.spam_reason]).toEqual(['accepted', 'new', null]);
    expect(after.deliveries.map((d) => [d.target, d.state, d.next_attempt_at])).toEqual([
      ['email', 'pending', now.toISOString()],
      ['push', 'pending', now.toISOString()],
    ]);
    expect(kicks).toBe(1);
    // As if just received: an urgent one is escalated 10 minutes after
    // "Not spam", not at once for having come in long ago.
    const escalate = (at: number) =>
      store.claimEscalations({
        dueBefore: new Date(at - 10 * 60_000).toISOString(),
        now: new Date(at).toISOString(),
        leaseUntil: new Date(at + 60_000).toISOString(),
        limit: 10,
      });
    expect(await escalate(now.getTime() + 9 * 60_000)).toEqual([]);
    expect((await escalate(now.getTime() + 10 * 60_000)).map((l) => l.id)).toEqual([lead.id]);
    expect(await spamCount(store)).toBe(0);
    const [entry] = await store.listActivity({ limit: 5 });
    expect(entry).toEqual(
      expect.objectContaining({ action: 'lead.not-spam', detail: `lead=${lead.id},targets=2` }),
    );
    // Twice: nothing more.
    expect(
      await handleLeadPost(store, owner, after, form({ action: 'not-spam' }), now, delivery),
    ).toEqual(expect.objectContaining({ kind: 'invalid' }));
    expect(kicks).toBe(1);
  });

  it('moves nothing into or out of spam through the stage form', async () => {
    const lead = await stored();
    const read = async () => (await store.getLead(lead.id))!;
    const save = async (stage: string) =>
      handleLeadPost(
        store,
        owner,
        await read(),
        form({ action: 'save', stage, note: '', revision: '0' }),
      );
    expect(await save('spam')).toEqual(expect.objectContaining({ kind: 'invalid' }));
    expect((await read()).stage).toBe('new');
    await handleLeadPost(store, owner, await read(), form({ action: 'spam' }));
    const spam = await read();
    expect(
      await handleLeadPost(
        store,
        owner,
        spam,
        form({ action: 'save', stage: 'won', note: '', revision: String(spam.revision) }),
      ),
    ).toEqual(expect.objectContaining({ kind: 'invalid' }));
    // A note on a spam enquiry is kept.
    expect(
      await handleLeadPost(
        store,
        owner,
        spam,
        form({ action: 'save', stage: 'spam', note: 'Bot', revision: String(spam.revision) }),
      ),
    ).toEqual({ kind: 'saved' });
  });

  it("asks before deleting a person's enquiries, then deletes them all and notes a count only", async () => {
    const first = await stored({ name: 'Mere Pōtae', email: 'mere@example.co.nz' });
    await stored({ name: 'Mere Pōtae', email: 'mere@example.co.nz' });
    const other = await stored({ email: 'someone@example.co.nz' });
    const lead = (await store.getLead(first.id))!;
    expect(await handleLeadPost(store, owner, lead, form({ action: 'delete' }))).toEqual({
      kind: 'confirm-delete',
      count: 2,
    });
    expect(await store.findLeadsByEmail('mere@example.co.nz')).toHaveLength(2);
    expect(await handleLeadPost(store, owner, lead, form({ action: 'delete-confirm' }))).toEqual({
      kind: 'deleted',
      count: 2,
    });
    expect(await store.findLeadsByEmail('mere@example.co.nz')).toEqual([]);
    expect(await store.getLead(other.id)).not.toBeNull();
    const entries = await store.listActivity();
    expect(entries.map((entry) => [entry.actor, entry.action, entry.detail])).toEqual([
      [owner.email, 'person.deleted', 'count=2'],
    ]);
    expect(JSON.stringify(entries)).not.toMatch(/mere|Pōtae|555/i);
  });
});

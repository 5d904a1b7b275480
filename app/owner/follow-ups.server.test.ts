import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeLead } from '../db/leads/leads.contract.ts';
import { openSqliteStore } from '../db/store-sqlite.server.ts';
import type { AppStore, LeadRecord } from '../db/store.server.ts';
import { tempDataDir } from '../leads/testing/test-support.server.ts';
import { followUpReason, inboxFollowUps } from './follow-ups.server.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = new Date('2026-06-10T00:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

let store: AppStore;
let dir: ReturnType<typeof tempDataDir>;

beforeEach(async () => {
  dir = tempDataDir('owner-follow-ups-');
  store = await openSqliteStore({ dataDir: dir.dir });
});
afterEach(async () => {
  await store.close();
  dir.remove();
});

async function stored(overrides: Partial<LeadRecord>) {
  const lead = makeLead(overrides);
  await store.insertLead(lead, []);
  return lead;
}

describe('why a lead is to follow up, in plain words', () => {
  const lead = (stage: 'new' | 'quoted', created: number, changed: number) => ({
    stage,
    created_at: ago(created),
    stage_changed_at: ago(changed),
  });

  it('counts whole days since it came in, or since it was quoted', () => {
    expect(followUpReason(lead('new', 25 * HOUR, 25 * HOUR), now)).toBe('New for 1 day');
    expect(followUpReason(lead('new', 2 * DAY + HOUR, 2 * DAY), now)).toBe('New for 2 days');
    expect(followUpReason(lead('quoted', 9 * DAY, 4 * DAY + HOUR), now)).toBe('Quoted 4 days ago');
    expect(followUpReason(lead('quoted', 9 * DAY, DAY), now)).toBe('Quoted 1 day ago');
  });
});

describe('the inbox’s Follow up', () => {
  it('lists leads new for a day, then quotes older than the days set; each opens its lead', async () => {
    const callback = await stored({
      name: 'Aroha Ngata',
      source: 'hero_form',
      service: 'Home Glass',
      message: 'Service type: Home Glass\nPostal code: 3110',
      created_at: ago(2 * DAY),
    });
    const contact = await stored({
      name: 'Tama Rewi',
      service: 'Shower screens',
      created_at: ago(30 * HOUR),
    });
    await stored({ name: 'Too Soon', created_at: ago(23 * HOUR) });
    await stored({ name: 'Caught', status: 'spam', spam_reason: 'link', created_at: ago(5 * DAY) });
    const quoted = await stored({
      name: 'Mere Kahu',
      service: 'Windows',
      created_at: ago(9 * DAY),
    });
    await store.saveLeadTracking(quoted.id, 0, { stage: 'quoted' }, ago(4 * DAY));
    const lately = await stored({ name: 'Quoted Lately', created_at: ago(9 * DAY) });
    await store.saveLeadTracking(lately.id, 0, { stage: 'quoted' }, ago(2 * DAY));

    const followUps = await inboxFollowUps(store, { now, quotedDays: 3 });
    expect(followUps.items).toEqual([
      {
        href: `/admin/leads/${callback.id}`,
        name: 'Aroha Ngata',
        what: 'Home Glass',
        where: 'Postcode 3110',
        why: 'New for 2 days',
        urgent: false,
      },
      {
        href: `/admin/leads/${contact.id}`,
        name: 'Tama Rewi',
        what: 'Shower screens',
        where: null,
        why: 'New for 1 day',
        urgent: false,
      },
      {
        href: `/admin/leads/${quoted.id}`,
        name: 'Mere Kahu',
        what: 'Windows',
        where: null,
        why: 'Quoted 4 days ago',
        urgent: false,
      },
    ]);
    expect(followUps.more).toEqual([]);

    // Two days: the later quote is one to chase too.
    const sooner = await inboxFollowUps(store, { now, quotedDays: 2 });
    expect(sooner.items.map((item) => item.name)).toContain('Quoted Lately');
  });

  it('is empty when nothing waits', async () => {
    await stored({ created_at: ago(HOUR) });
    expect(await inboxFollowUps(store, { now, quotedDays: 3 })).toEqual({ items: [], more: [] });
  });

  it('shows ten of each at most, and links to the rest', async () => {
    for (let index = 0; index < 12; index += 1) {
      await stored({ created_at: ago(2 * DAY + index * HOUR) });
    }
    const followUps = await inboxFollowUps(store, { now, quotedDays: 3 });
    expect(followUps.items).toHaveLength(10);
    expect(followUps.more).toEqual([{ href: '/admin?stage=new', text: 'And 2 more still new' }]);
  });
});

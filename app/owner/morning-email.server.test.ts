import { afterEach, describe, expect, it } from 'vitest';
import type { FollowUpLead, FollowUps } from '../db/store.server.ts';
import { parseSmtpUrl } from '../leads/delivery/lead-email.server.ts';
import { startSmtpServer } from '../leads/testing/smtp-test-support.server.ts';
import { composeMorningEmail, morningLists, sendMorningEmail } from './morning-email.server.ts';

/**
 * The owners' morning e-mail (docs/operations.md#follow-ups): its words,
 * and the message as the SMTP stand-in receives it.
 */

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// 7:30 am on Wednesday 10 June 2026 in Tauranga (NZST, UTC+12).
const now = new Date('2026-06-09T19:30:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

function lead(overrides: Partial<FollowUpLead>): FollowUpLead {
  return {
    id: '5b1b2c3d-4e5f-4a6b-8c7d-000000000001',
    name: 'Someone',
    phone: '021 555 0100',
    service: 'Windows',
    message: 'A cracked pane',
    source: 'contact_form',
    created_at: ago(2 * DAY),
    urgent: false,
    stage: 'new',
    stage_changed_at: ago(2 * DAY),
    acknowledged_at: null,
    ...overrides,
  };
}

const urgent = lead({
  id: '5b1b2c3d-4e5f-4a6b-8c7d-000000000002',
  name: 'Tama Rewi',
  urgent: true,
  created_at: ago(10 * HOUR),
});
const oldUrgent = lead({
  id: '5b1b2c3d-4e5f-4a6b-8c7d-000000000003',
  name: 'Hemi Walker',
  urgent: true,
  created_at: ago(3 * DAY),
});
const waiting = lead({
  id: '5b1b2c3d-4e5f-4a6b-8c7d-000000000004',
  name: 'Aroha Ngata',
  source: 'hero_form',
  service: 'Home Glass',
  message: 'Service type: Home Glass\nPostal code: 3110',
});
const quoted = lead({
  id: '5b1b2c3d-4e5f-4a6b-8c7d-000000000005',
  name: 'Mere Kahu',
  service: 'Shower screens',
  stage: 'quoted',
  created_at: ago(9 * DAY),
  stage_changed_at: ago(4 * DAY),
});

const list = (...leads: FollowUpLead[]) => ({ leads, total: leads.length });
const lists: FollowUps = {
  urgent: list(oldUrgent, urgent),
  // The urgent one a day old is in both lists: the e-mail names it once.
  waiting: list(oldUrgent, waiting),
  quoted: list(quoted),
};
const email = {
  to: 'kasey@glass.example.nz',
  now,
  siteUrl: 'https://glass.example.nz',
  siteName: 'Tauranga Glass',
  from: 'website@glass.example.nz',
};

describe('the morning e-mail', () => {
  it('lists urgent leads nobody is on, leads to follow up and quotes to chase, each with its link', () => {
    const message = composeMorningEmail({ ...email, lists: morningLists(lists) });
    expect(message.to).toBe('kasey@glass.example.nz');
    expect(message.from).toEqual({
      name: 'Tauranga Glass website',
      address: 'website@glass.example.nz',
    });
    expect(message.subject).toBe('This morning: 2 urgent, 1 to follow up, 1 quote to chase');
    expect(message.headers).toEqual({ 'Auto-Submitted': 'auto-generated' });
    expect(message.text).toBe(
      [
        'Good morning. Here is what is waiting for you on the website.',
        '',
        'Urgent, and nobody has said “I’m on it”:',
        '- Hemi Walker, Windows. New for 3 days.',
        '  https://glass.example.nz/admin/leads/5b1b2c3d-4e5f-4a6b-8c7d-000000000003',
        '- Tama Rewi, Windows. Came in 10 hours ago.',
        '  https://glass.example.nz/admin/leads/5b1b2c3d-4e5f-4a6b-8c7d-000000000002',
        '',
        'To follow up:',
        '- Aroha Ngata, Home Glass, Postcode 3110. New for 2 days.',
        '  https://glass.example.nz/admin/leads/5b1b2c3d-4e5f-4a6b-8c7d-000000000004',
        '',
        'Quotes to chase:',
        '- Mere Kahu, Shower screens. Quoted 4 days ago.',
        '  https://glass.example.nz/admin/leads/5b1b2c3d-4e5f-4a6b-8c7d-000000000005',
        '',
        'All your enquiries: https://glass.example.nz/admin',
        'This e-mail comes at 7:30 each morning when something is waiting.',
        '',
      ].join('\n'),
    );
    // Nothing more of the customer than the lead e-mail carries, and less: no phone, no message.
    expect(message.text).not.toContain('021 555 0100');
    expect(message.text).not.toContain('cracked');
    expect(message.html).toContain(
      '<a href="https://glass.example.nz/admin/leads/5b1b2c3d-4e5f-4a6b-8c7d-000000000005">Mere Kahu, Shower screens</a>. Quoted 4 days ago.',
    );
  });

  it('says how many more there are beyond the ones it lists, and leaves out an empty list', () => {
    const many: FollowUps = {
      urgent: list(),
      waiting: { leads: [waiting], total: 23 },
      quoted: list(),
    };
    const message = composeMorningEmail({ ...email, lists: morningLists(many) });
    expect(message.subject).toBe('This morning: 23 to follow up');
    expect(message.text).toContain(
      'And 22 more still new: https://glass.example.nz/admin?stage=new',
    );
    expect(message.text).not.toContain('Urgent');
    expect(message.text).not.toContain('Quotes to chase');
  });

  it('counts nothing when every list is empty', () => {
    expect(morningLists({ urgent: list(), waiting: list(), quoted: list() }).count).toBe(0);
    expect(
      morningLists({ urgent: list(oldUrgent), waiting: list(oldUrgent), quoted: list() }).count,
    ).toBe(1);
  });

  it('goes through the SMTP settings of the lead e-mail to the owner’s own address', async () => {
    const mail = await startSmtpServer();
    cleanups.push(() => mail.close());
    const smtp = parseSmtpUrl(mail.url);
    if (!smtp.ok) throw new Error(smtp.error);
    const sent = await sendMorningEmail(
      smtp.smtp,
      { ...email, lists: morningLists(lists) },
      { timeoutMs: 5000 },
    );
    expect(sent).toEqual({ ok: true });
    await mail.waitForMessages(1, 10_000);
    const received = mail.messages[0]!;
    expect(received.envelope.to).toEqual(['kasey@glass.example.nz']);
    expect(received.parsed.subject).toBe(
      'This morning: 2 urgent, 1 to follow up, 1 quote to chase',
    );
    expect(received.parsed.text).toContain('- Mere Kahu, Shower screens. Quoted 4 days ago.');
    expect(received.parsed.html).toContain('href="https://glass.example.nz/admin/leads/');
  });
});

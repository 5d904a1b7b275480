import { randomUUID } from 'node:crypto';
import escapeHtml from 'escape-html';
import type { SendMailOptions } from 'nodemailer';
import type { FollowUpLead, FollowUpList, FollowUps } from '../db/store.server.ts';
import type { SmtpSettings } from '../leads/delivery/lead-email.server.ts';
import { followUpPlace, followUpReason } from './follow-ups.server.ts';
import { inboxHref } from './inbox.server.ts';
import { sendOwnerEmail, type OwnerEmailOptions } from './sign-in-email.server.ts';

/**
 * The e-mail each owner gets at 7:30 in the morning, New Zealand time,
 * when something waits (docs/operations.md#follow-ups): the urgent
 * enquiries nobody said "I'm on it" to, the enquiries still new a day on,
 * and the quotes to chase, each with a link to its page. Sent to the
 * owner's own address through the owners' one sender (sendOwnerEmail,
 * SMTP_URL). Of the customer it carries less than the lead e-mail does:
 * the name, the service and the call-back form's postcode, no phone, no
 * address, no message. The loop that sends it is
 * app/leads/alerts/morning-email.server.ts.
 */

/** The most leads of each list the e-mail names; a link leads to the rest. */
export const MORNING_EMAIL_LISTED = 20;

export interface MorningLists {
  urgent: FollowUpList;
  /** Without the urgent ones, named once, among the urgent. */
  waiting: FollowUpList;
  quoted: FollowUpList;
  /** How many leads the e-mail is about: 0, and there is no e-mail. */
  count: number;
}

/** The store's lists as the e-mail names them: an urgent lead a day old once, among the urgent. */
export function morningLists(lists: FollowUps): MorningLists {
  const urgentIds = new Set(lists.urgent.leads.map((lead) => lead.id));
  const waitingLeads = lists.waiting.leads.filter((lead) => !urgentIds.has(lead.id));
  const waiting = {
    leads: waitingLeads,
    total: lists.waiting.total - (lists.waiting.leads.length - waitingLeads.length),
  };
  return {
    urgent: lists.urgent,
    waiting,
    quoted: lists.quoted,
    count: lists.urgent.total + waiting.total + lists.quoted.total,
  };
}

export interface MorningEmail {
  to: string;
  lists: MorningLists;
  now: Date;
  siteUrl: string;
  siteName: string;
  from: string;
}

const HOUR_MS = 3_600_000;

/** 'Came in 10 hours ago' for an urgent lead less than a day old; 'New for 2 days' after. */
function urgentReason(lead: FollowUpLead, now: Date): string {
  const ms = now.getTime() - Date.parse(lead.created_at);
  if (ms >= 24 * HOUR_MS) return followUpReason(lead, now);
  const hours = Math.floor(ms / HOUR_MS);
  if (hours >= 1) return `Came in ${hours} ${hours === 1 ? 'hour' : 'hours'} ago`;
  const minutes = Math.max(1, Math.floor(ms / 60_000));
  return `Came in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} ago`;
}

interface Section {
  title: string;
  rows: Array<{ label: string; why: string; link: string }>;
  more: { text: string; link: string } | null;
}

function section(
  title: string,
  list: FollowUpList,
  why: (lead: FollowUpLead) => string,
  more: { words: string; href: string },
  siteUrl: string,
): Section | null {
  if (list.total === 0) return null;
  const shown = list.leads.slice(0, MORNING_EMAIL_LISTED);
  const rest = list.total - shown.length;
  return {
    title,
    rows: shown.map((lead) => {
      const place = followUpPlace(lead);
      return {
        label: [lead.name, lead.service, place].filter(Boolean).join(', '),
        why: why(lead),
        link: `${siteUrl}/admin/leads/${encodeURIComponent(lead.id)}`,
      };
    }),
    more:
      rest > 0 ? { text: `And ${rest} more ${more.words}`, link: `${siteUrl}${more.href}` } : null,
  };
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

export function composeMorningEmail(email: MorningEmail): SendMailOptions {
  const { lists, now, siteUrl } = email;
  const inbox = (stage: 'new' | 'quoted') => inboxHref({ stage, query: '', page: 1 });
  const sections = [
    section(
      'Urgent, and nobody has said “I’m on it”:',
      lists.urgent,
      (lead) => urgentReason(lead, now),
      { words: 'urgent', href: inbox('new') },
      siteUrl,
    ),
    section(
      'To follow up:',
      lists.waiting,
      (lead) => followUpReason(lead, now),
      { words: 'still new', href: inbox('new') },
      siteUrl,
    ),
    section(
      'Quotes to chase:',
      lists.quoted,
      (lead) => followUpReason(lead, now),
      { words: 'quotes to chase', href: inbox('quoted') },
      siteUrl,
    ),
  ].filter((part): part is Section => part !== null);
  const counts = [
    lists.urgent.total > 0 ? `${lists.urgent.total} urgent` : '',
    lists.waiting.total > 0 ? `${lists.waiting.total} to follow up` : '',
    lists.quoted.total > 0 ? plural(lists.quoted.total, 'quote', 'quotes') + ' to chase' : '',
  ].filter(Boolean);
  const opening = 'Good morning. Here is what is waiting for you on the website.';
  const closing = [
    `All your enquiries: ${siteUrl}/admin`,
    'This e-mail comes at 7:30 each morning when something is waiting.',
  ];
  const text = [
    opening,
    '',
    ...sections.flatMap((part) => [
      part.title,
      ...part.rows.flatMap((row) => [`- ${row.label}. ${row.why}.`, `  ${row.link}`]),
      ...(part.more ? [`${part.more.text}: ${part.more.link}`] : []),
      '',
    ]),
    ...closing,
    '',
  ].join('\n');
  const link = (href: string, words: string) =>
    `<a href="${escapeHtml(href)}">${escapeHtml(words)}</a>`;
  const html = [
    `<p>${escapeHtml(opening)}</p>`,
    ...sections.map((part) =>
      [
        `<p><strong>${escapeHtml(part.title)}</strong></p>`,
        '<ul>',
        ...part.rows.map((row) => `<li>${link(row.link, row.label)}. ${escapeHtml(row.why)}.</li>`),
        '</ul>',
        ...(part.more ? [`<p>${link(part.more.link, part.more.text)}</p>`] : []),
      ].join('\n'),
    ),
    `<p>${link(`${siteUrl}/admin`, 'All your enquiries')}</p>`,
    `<p>${escapeHtml(closing[1]!)}</p>`,
  ].join('\n');
  return {
    from: { name: `${email.siteName} website`, address: email.from },
    to: email.to,
    subject: `This morning: ${counts.join(', ')}`,
    messageId: `<owner-morning-${randomUUID()}@${email.from.split('@')[1] ?? 'localhost'}>`,
    headers: { 'Auto-Submitted': 'auto-generated' },
    text,
    html: `${html}\n`,
  };
}

/** Sends it; resolves with an error safe to print (never the SMTP password) when it fails. */
export function sendMorningEmail(
  smtp: SmtpSettings,
  email: MorningEmail,
  options: OwnerEmailOptions,
): Promise<{ ok: true } | { ok: false; error: string }> {
  return sendOwnerEmail(smtp, composeMorningEmail(email), options);
}

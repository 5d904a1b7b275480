import escapeHtml from 'escape-html';
import type { SendMailOptions } from 'nodemailer';
import { nzDateTime, telLink, type SmtpSettings } from '../leads/delivery/lead-email.server.ts';
import { sendOwnerEmail, type OwnerEmailOptions } from './sign-in-email.server.ts';
import type { LeadRecord } from '../db/store.server.ts';

/**
 * The e-mail every owner gets, once, about an urgent enquiry nobody said
 * "I'm on it" to within URGENT_ESCALATE_MINUTES (docs/operations.md, "I'm
 * on it" and escalation): sent to each owner's own address, through the
 * owners' one sender (sendOwnerEmail), so it reaches them even when the
 * lead e-mail's inbox is the one not being read.
 */

export interface EscalationEmail {
  to: string;
  lead: Pick<LeadRecord, 'id' | 'name' | 'phone' | 'service' | 'created_at'>;
  minutes: number;
  siteUrl: string;
  siteName: string;
  from: string;
}

export function composeEscalationEmail(email: EscalationEmail): SendMailOptions {
  const { lead } = email;
  const link = `${email.siteUrl}/admin/leads/${encodeURIComponent(lead.id)}`;
  const tel = telLink(lead.phone);
  const paragraphs = [
    `URGENT: glass broken now. ${lead.name} asked for ${lead.service} at ${nzDateTime(lead.created_at)}, and nobody has said “I’m on it” for ${email.minutes} minutes.`,
    `Call them on ${lead.phone}.`,
    `Open the enquiry and tap “I’m on it” so the others know: ${link}`,
  ];
  const html = [
    `<p><strong>URGENT: glass broken now.</strong> ${escapeHtml(paragraphs[0]!.slice('URGENT: glass broken now. '.length))}</p>`,
    `<p>Call them on ${tel ? `<a href="${escapeHtml(tel)}">${escapeHtml(lead.phone)}</a>` : escapeHtml(lead.phone)}.</p>`,
    `<p>Open the enquiry and tap “I’m on it” so the others know: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
  ];
  return {
    from: { name: `${email.siteName} website`, address: email.from },
    to: email.to,
    subject: `Still unanswered: URGENT enquiry from ${lead.name} (${lead.service})`,
    // The same for every owner and every retry: a mail program shows it once.
    messageId: `<lead-${lead.id}-escalated@${email.from.split('@')[1] ?? 'localhost'}>`,
    headers: { 'Auto-Submitted': 'auto-generated', Importance: 'high', 'X-Priority': '1' },
    text: `${paragraphs.join('\n\n')}\n`,
    html: `${html.join('\n')}\n`,
  };
}

/** Sends it; resolves with an error safe to print (never the SMTP password) when it fails. */
export function sendEscalationEmail(
  smtp: SmtpSettings,
  email: EscalationEmail,
  options: OwnerEmailOptions,
): Promise<{ ok: true } | { ok: false; error: string }> {
  return sendOwnerEmail(smtp, composeEscalationEmail(email), options);
}

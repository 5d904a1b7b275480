import { randomUUID } from 'node:crypto';
import escapeHtml from 'escape-html';
import type { SendMailOptions } from 'nodemailer';
import {
  nzDateTime,
  smtpTransport,
  withoutSmtpPassword,
  type SmtpSettings,
} from '../leads/delivery/lead-email.server.ts';
import type { OwnerLinkKind } from '../db/store.server.ts';

/**
 * The e-mail that carries a one-time link to an owner: sent to the owner's
 * own address (never to LEAD_EMAIL_TO, which may be a shared inbox), through
 * the same SMTP_URL and encryption rules as the lead e-mail.
 */

export interface OwnerLinkEmail {
  to: string;
  url: string;
  kind: OwnerLinkKind;
  expiresAt: string;
  siteName: string;
  from: string;
}

export function composeOwnerLinkEmail(email: OwnerLinkEmail): SendMailOptions {
  const setup = email.kind === 'setup';
  const subject = setup
    ? `Set up your sign-in to the ${email.siteName} website`
    : `Your sign-in link for the ${email.siteName} website`;
  const what = setup
    ? "Open this link on the phone or computer you will use, and it will help you create a passkey for signing in to the website's owner pages:"
    : "Open this link to sign in to the website's owner pages:";
  const until = `It works once, until ${nzDateTime(email.expiresAt)}. If you did not ask for it, ignore this e-mail.`;
  return {
    from: { name: `${email.siteName} website`, address: email.from },
    to: email.to,
    subject,
    messageId: `<owner-${email.kind}-${randomUUID()}@${email.from.split('@')[1] ?? 'localhost'}>`,
    headers: { 'Auto-Submitted': 'auto-generated' },
    text: `${what}\n\n${email.url}\n\n${until}\n`,
    html: `<p>${escapeHtml(what)}</p>\n<p><a href="${escapeHtml(email.url)}">${escapeHtml(email.url)}</a></p>\n<p>${escapeHtml(until)}</p>\n`,
  };
}

/** Sends it; resolves with an error safe to print (never the SMTP password) when it fails. */
export function sendOwnerLinkEmail(
  smtp: SmtpSettings,
  email: OwnerLinkEmail,
  options: OwnerEmailOptions,
): Promise<{ ok: true } | { ok: false; error: string }> {
  return sendOwnerEmail(smtp, composeOwnerLinkEmail(email), options);
}

export interface OwnerEmailOptions {
  timeoutMs: number;
  tls?: { ca?: string | Buffer } | undefined;
}

/**
 * Sends one e-mail to the owners (a sign-in link, a backup alert) on a
 * connection of its own; resolves with an error safe to print (never the
 * SMTP password) when it fails.
 */
export async function sendOwnerEmail(
  smtp: SmtpSettings,
  message: SendMailOptions,
  options: OwnerEmailOptions,
): Promise<{ ok: true } | { ok: false; error: string }> {
  const transporter = smtpTransport(smtp, { ...options, pool: false });
  try {
    const info = (await transporter.sendMail(message)) as { accepted: unknown[] };
    if (info.accepted.length === 0) return { ok: false, error: 'the mail server refused it' };
    return { ok: true };
  } catch (caught) {
    return { ok: false, error: withoutSmtpPassword(smtp, (caught as Error).message) };
  } finally {
    transporter.close();
  }
}

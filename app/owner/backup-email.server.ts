import { randomUUID } from 'node:crypto';
import escapeHtml from 'escape-html';
import type { SendMailOptions } from 'nodemailer';
import { nzDateTime, type SmtpSettings } from '../leads/delivery/lead-email.server.ts';
import { sendOwnerEmail, type OwnerEmailOptions } from './sign-in-email.server.ts';
import type { AlertPush } from '../leads/alerts/owner-push.server.ts';

/**
 * The e-mail an owner gets, at most once a day, while the backup of the
 * enquiries cannot be trusted (docs/operations.md, "Backups"): no backup
 * restored and checked for 26 hours, or the backup running more than five
 * minutes behind. Plain words: the owner forwards it to whoever runs the
 * server.
 */

export type BackupProblem =
  { kind: 'unchecked'; verifiedAt: string | null } | { kind: 'behind'; lagSeconds: number };

export interface BackupAlertEmail {
  to: string;
  problem: BackupProblem;
  siteName: string;
  from: string;
}

export function backupProblemText(problem: BackupProblem): string {
  if (problem.kind === 'behind') {
    const minutes = Math.floor(problem.lagSeconds / 60);
    return `The backup of your website's enquiries is running behind: the newest changes have not been saved to it for ${minutes} minutes.`;
  }
  return problem.verifiedAt
    ? `The website has not been able to check its backup of your enquiries since ${nzDateTime(problem.verifiedAt)}.`
    : 'The website has not been able to check its backup of your enquiries yet.';
}

/** The same warning as a push to the owners' devices (docs/operations.md, "I'm on it" and escalation). */
export function backupAlertPush(problem: BackupProblem): AlertPush {
  return {
    type: 'notice',
    title: 'The website’s backup needs attention',
    body: backupProblemText(problem),
    url: '/admin',
    tag: 'backup',
  };
}

export function composeBackupAlertEmail(email: BackupAlertEmail): SendMailOptions {
  const paragraphs = [
    backupProblemText(email.problem),
    'If the server’s disk failed now, recent enquiries could be lost. Please forward this e-mail to whoever looks after your website’s server.',
    'You will get this e-mail once a day until it is fixed.',
  ];
  return {
    from: { name: `${email.siteName} website`, address: email.from },
    to: email.to,
    subject: `The ${email.siteName} website’s backup needs attention`,
    messageId: `<owner-backup-${randomUUID()}@${email.from.split('@')[1] ?? 'localhost'}>`,
    headers: { 'Auto-Submitted': 'auto-generated' },
    text: `${paragraphs.join('\n\n')}\n`,
    html: paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join('\n') + '\n',
  };
}

/** Sends it; resolves with an error safe to print (never the SMTP password) when it fails. */
export function sendBackupAlertEmail(
  smtp: SmtpSettings,
  email: BackupAlertEmail,
  options: OwnerEmailOptions,
): Promise<{ ok: true } | { ok: false; error: string }> {
  return sendOwnerEmail(smtp, composeBackupAlertEmail(email), options);
}

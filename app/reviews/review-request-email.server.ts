import { randomUUID } from 'node:crypto';
import escapeHtml from 'escape-html';
import type { SendMailOptions } from 'nodemailer';
import { nzLongDate } from './review-dates.ts';

/**
 * The e-mail asking a won customer for a review (docs/operations.md,
 * "Reviews"): from the business, to the address the customer gave, with
 * their personal link. Short and plain; it asks every customer the same
 * way, whatever the job was like. Replies go to the business's address.
 */

export interface ReviewRequestEmail {
  to: string;
  /** The customer's name as they gave it; the e-mail greets them by its first word. */
  customerName: string;
  url: string;
  expiresAt: string;
  siteName: string;
  /** The business's phone as it is shown. */
  phone: string;
  from: string;
  /** The business's own address, for a reply. */
  replyTo: string;
}

export function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] ?? '';
}

export function composeReviewRequestEmail(email: ReviewRequestEmail): SendMailOptions {
  const first = firstName(email.customerName);
  const paragraphs = [
    first ? `Kia ora ${first},` : 'Kia ora,',
    `Thanks for choosing ${email.siteName}. We hope the new glass is doing its job.`,
    'Would you tell other people what it was like to deal with us? A few words and a star rating is plenty, good or not so good. It takes about two minutes:',
    email.url,
    `The link is just for you and works until ${nzLongDate(email.expiresAt)}. We publish a review only with your say-so, under the name you choose.`,
    `If something is not right with the job, reply to this e-mail or call us on ${email.phone} and we will sort it out.`,
    `Ngā mihi,\n${email.siteName}`,
  ];
  const html = paragraphs.map((paragraph) =>
    paragraph === email.url
      ? `<p><a href="${escapeHtml(email.url)}">Write your review</a></p>`
      : `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`,
  );
  return {
    from: { name: email.siteName, address: email.from },
    to: email.to,
    replyTo: email.replyTo,
    subject: `How did we do? A quick review for ${email.siteName}`,
    messageId: `<review-${randomUUID()}@${email.from.split('@')[1] ?? 'localhost'}>`,
    headers: { 'Auto-Submitted': 'auto-generated' },
    text: `${paragraphs.join('\n\n')}\n`,
    html: `${html.join('\n')}\n`,
  };
}

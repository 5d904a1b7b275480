import { randomUUID } from 'node:crypto';
import escapeHtml from 'escape-html';
import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { GivenUpHandler, RemovedTargetHandler, RemovedTargetReport } from './outbox.server.ts';
import { fitJpeg } from '../../images/safe-photo.server.ts';
import type { LeadRecord } from '../../db/store.server.ts';
import {
  photosToSend,
  type DeliverOptions,
  type DeliveryOutcome,
  type DeliveryTarget,
  type LeadPhotoSource,
  type PhotoToSend,
} from './targets.server.ts';
import { isLoopbackHost } from './webhooks.server.ts';

/**
 * The lead e-mail (docs/operations.md#lead-e-mail): every lead as one message to the
 * business's inbox (LEAD_EMAIL_TO), sent through SMTP_URL with nodemailer.
 * It is a delivery target like a webhook (targets.server.ts): the same first
 * attempt, outbox, retries and guarantees, labelled `email`.
 *
 * Never sent to the address a visitor typed: the visitor is only the
 * Reply-To, so the owner answers with one tap. The SMTP password appears in
 * no log, row, export or error message.
 */

export const EMAIL_TARGET_KEY = 'email';
export const EMAIL_TARGET_LABEL = 'email';

/** SMTP_URL, parsed: where and how to send. */
export interface SmtpSettings {
  host: string;
  port: number;
  /** smtps://: TLS from the first byte (port 465). */
  secure: boolean;
  /** smtp:// to another machine: STARTTLS required before anything is sent. */
  requireTLS: boolean;
  user?: string | undefined;
  pass?: string | undefined;
}

/**
 * `smtps://USER:PASSWORD@HOST:465` or `smtp://USER:PASSWORD@HOST:587`
 * (STARTTLS required unless HOST is a loopback address). A value that would
 * send a lead unencrypted across a network is refused. Errors never repeat
 * the value.
 */
export function parseSmtpUrl(
  value: string,
): { ok: true; smtp: SmtpSettings } | { ok: false; error: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, error: 'is not a URL: use smtps://USER:PASSWORD@HOST:465 or smtp://…:587' };
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    return { ok: false, error: 'must start with smtps:// or smtp://' };
  }
  if (!url.hostname) return { ok: false, error: 'needs a host' };
  const secure = url.protocol === 'smtps:';
  const loopback = isLoopbackHost(url.hostname);
  // nodemailer reads options from the query; none may turn encryption off.
  const weakening = ['ignoreTLS', 'requireTLS', 'secure', 'tls'].filter((name) =>
    url.searchParams.has(name),
  );
  if (weakening.length > 0) {
    return {
      ok: false,
      error: `takes no ${weakening.join(', ')} option: smtps:// is encrypted, smtp:// uses STARTTLS`,
    };
  }
  const decode = (part: string) => (part ? decodeURIComponent(part) : undefined);
  return {
    ok: true,
    smtp: {
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port ? Number(url.port) : secure ? 465 : 587,
      secure,
      requireTLS: !secure && !loopback,
      user: decode(url.username),
      pass: decode(url.password),
    },
  };
}

// ---------------------------------------------------------------------------
// The message

const SOURCE_NAMES: Record<LeadRecord['source'], string> = {
  hero_form: 'the home page call-back form',
  contact_form: 'the contact page form',
  quote_form: 'the quote page form',
};

const nzTime = new Intl.DateTimeFormat('en-NZ', {
  timeZone: 'Pacific/Auckland',
  dateStyle: 'full',
  timeStyle: 'short',
});

/** '2:05 pm, Tuesday 4 March 2025 (New Zealand time)' style, from created_at. */
export function nzDateTime(iso: string): string {
  return `${nzTime.format(new Date(iso))} (New Zealand time)`;
}

/** tel: link of a phone number as typed: digits and a leading + only. */
export function telLink(phone: string): string | undefined {
  const digits = phone.trim().replace(/(?!^\+)[^\d]/g, '');
  return /\d{5,}/.test(digits) ? `tel:${digits}` : undefined;
}

export interface LeadEmailOptions {
  /** The business's name (app/content/business.ts), for the From name. */
  siteName: string;
  /** SITE_URL: the e-mail links to the lead's page under /admin. */
  siteUrl: string;
  from: string;
  to: readonly string[];
  test?: boolean | undefined;
  /** The lead's photos, attached in this order (photoAttachments). */
  attachments?: readonly PhotoAttachment[] | undefined;
}

/** The lead's page among the owner's pages (docs/operations.md#owners-pages). */
export function leadPageUrl(siteUrl: string, leadId: string): string {
  return `${siteUrl}/admin/leads/${encodeURIComponent(leadId)}`;
}

// ---------------------------------------------------------------------------
// The photos (docs/operations.md#lead-e-mail)

/**
 * The whole message, as the mail server receives it, stays under this: many
 * mail servers refuse more than 10 MB, and a phone on a slow connection
 * fetches it.
 */
export const MESSAGE_LIMIT_BYTES = 5_000_000;
/**
 * What the headers, the text and HTML parts and each attachment's own
 * headers take, with room to spare: the fields are short (a message of at
 * most 1000 characters), so they come to a few kilobytes.
 */
const MESSAGE_OVERHEAD_BYTES = 100_000;
/**
 * The photos' own bytes: base64 writes 4 characters for every 3 bytes, and
 * a line break (2 characters) after every 76.
 */
export const ATTACHMENTS_LIMIT_BYTES = Math.floor(
  (((MESSAGE_LIMIT_BYTES - MESSAGE_OVERHEAD_BYTES) * 3) / 4) * (76 / 78),
);

export interface PhotoAttachment {
  filename: string;
  content: Buffer;
  contentType: 'image/jpeg';
}

/**
 * The photos as attachments, `photo-1.jpg` and on by position, together
 * within `limit` bytes. Each is the stored JPEG (bare of metadata since it
 * was made safe); one over its share is scaled down (fitJpeg). The
 * smallest are given their share first, so what they leave goes to the
 * larger ones. A photo gone meanwhile (its lead deleted) is left out.
 */
export async function photoAttachments(
  photos: readonly PhotoToSend[],
  limit = ATTACHMENTS_LIMIT_BYTES,
): Promise<PhotoAttachment[]> {
  const attached = new Map<number, PhotoAttachment>();
  let left = limit;
  const bySize = [...photos].sort((a, b) => a.byte_size - b.byte_size);
  for (const [index, photo] of bySize.entries()) {
    const data = await photo.read();
    if (!data) continue;
    const share = Math.floor(left / (bySize.length - index));
    const fitted = await fitJpeg(data, share);
    left -= fitted.data.byteLength;
    attached.set(photo.position, {
      filename: `photo-${photo.position + 1}.jpg`,
      content: fitted.data,
      contentType: 'image/jpeg',
    });
  }
  return [...attached.entries()].sort(([a], [b]) => a - b).map(([, attachment]) => attachment);
}

/** The domain of the From address, for Message-IDs the receiving servers accept. */
function messageIdDomain(from: string): string {
  return from.split('@')[1]?.toLowerCase() || 'localhost';
}

/** The same lead always gets the same Message-ID, so a retried send is recognisable. */
export function leadMessageId(leadId: string, from: string): string {
  return `<lead-${leadId}@${messageIdDomain(from)}>`;
}

function fieldRows(lead: LeadRecord): Array<[string, string]> {
  return [
    ['Name', lead.name],
    ['Email', lead.email],
    ['Phone', lead.phone],
    ['Service', lead.service],
    ['Message', lead.message],
    ['Sent from', SOURCE_NAMES[lead.source] ?? lead.source],
    ['Received', nzDateTime(lead.created_at)],
    ['Reference', lead.id],
  ];
}

/** The lead e-mail as nodemailer's message: a plain-text part and a simple HTML part. */
export function composeLeadEmail(lead: LeadRecord, options: LeadEmailOptions): SendMailOptions {
  const test = options.test === true;
  const rows = fieldRows(lead);
  const intro = test
    ? 'This is a test enquiry sent by "npm run leads -- test-delivery". It was not stored.'
    : `A new enquiry from the website. Reply to this e-mail to answer ${lead.name}.`;
  // docs/operations.md#urgent-enquiries: said before anything else.
  const urgent = lead.urgent
    ? `URGENT: glass broken now; the customer needs it made safe. Call ${lead.name} on ${lead.phone} as soon as you can.`
    : undefined;
  const attachments = options.attachments ?? [];
  const photos =
    attachments.length === 0
      ? ''
      : `${attachments.length} ${attachments.length === 1 ? 'photo' : 'photos'} attached.`;
  // A test lead is not stored: it has no page.
  const page = test ? undefined : leadPageUrl(options.siteUrl, lead.id);
  const pageLine = page ? `Its page on the website (stage, note, photos full size): ${page}` : '';
  const text = [
    ...(urgent ? [urgent, ''] : []),
    intro,
    ...[pageLine, photos].filter(Boolean),
    '',
    ...rows.map(([label, value]) =>
      label === 'Message' ? `${label}:\n${value}\n` : `${label}: ${value}`,
    ),
  ].join('\n');

  const tel = telLink(lead.phone);
  const cell = (label: string, value: string) => {
    if (label === 'Phone' && tel) {
      return `<a href="${escapeHtml(tel)}">${escapeHtml(value)}</a>`;
    }
    if (label === 'Message') {
      return escapeHtml(value).replace(/\r?\n/g, '<br>');
    }
    return escapeHtml(value);
  };
  // No remote images, styles or links to track anything: a table of the fields.
  const html = `<!doctype html>
<html lang="en-NZ"><head><meta charset="utf-8"><title>${escapeHtml(subjectOf(lead, test))}</title></head>
<body style="font-family: Arial, sans-serif; color: #1a1a1a; line-height: 1.5">
${urgent ? `<p><strong>${escapeHtml(urgent)}</strong></p>\n` : ''}<p>${escapeHtml(intro)}</p>
${page ? `<p><a href="${escapeHtml(page)}">Open this enquiry on the website</a> (stage, note, photos full size)</p>\n` : ''}${photos ? `<p>${escapeHtml(photos)}</p>\n` : ''}<table cellpadding="6" style="border-collapse: collapse">
${rows
  .map(
    ([label, value]) =>
      `<tr><th align="left" valign="top" style="border-bottom: 1px solid #ddd">${escapeHtml(label)}</th><td style="border-bottom: 1px solid #ddd">${cell(label, value)}</td></tr>`,
  )
  .join('\n')}
</table>
</body></html>
`;
  return {
    from: { name: `${options.siteName} website`, address: options.from },
    to: [...options.to],
    replyTo: { name: lead.name, address: lead.email },
    subject: subjectOf(lead, test),
    messageId: leadMessageId(test ? `test-${lead.id}` : lead.id, options.from),
    headers: {
      // Tells mail servers and auto-responders this was sent by a program.
      'Auto-Submitted': 'auto-generated',
      'X-Lead-Id': lead.id,
    },
    text,
    html,
    ...(attachments.length > 0
      ? {
          attachments: attachments.map((attachment) => ({
            ...attachment,
            contentDisposition: 'attachment' as const,
          })),
        }
      : {}),
  };
}

function subjectOf(lead: LeadRecord, test: boolean): string {
  // One line: a visitor's name cannot add a header.
  const oneLine = (value: string) => value.replace(/\s+/g, ' ').trim();
  const urgent = lead.urgent ? 'URGENT: ' : '';
  return `${test ? '[TEST] ' : ''}${urgent}New enquiry: ${oneLine(lead.service)}, from ${oneLine(lead.name)}`;
}

// ---------------------------------------------------------------------------
// Sending

/** Whom lead e-mails are from: the business's name and the sending address. */
export interface LeadEmailSender {
  siteName: string;
  from: string;
}

export interface EmailTargetOptions {
  smtp: SmtpSettings;
  to: readonly string[];
  /**
   * Read at every send: the published business name (and its e-mail when
   * LEAD_EMAIL_FROM is unset), so a publication reaches the next e-mail.
   */
  sender: () => LeadEmailSender;
  /** SITE_URL, for the link to the lead's page. */
  siteUrl: string;
  /** Where the leads' photos are (the store); without it none is attached. */
  photos?: LeadPhotoSource | undefined;
  /** Connection, greeting and socket timeout (default 8 s: docs/operations.md#delivery, step 2). */
  timeoutMs: number;
  logger?: Logger | undefined;
  /** Extra TLS settings (tests trust their own certificate this way). */
  tls?: { ca?: string | Buffer };
}

export interface EmailTarget extends DeliveryTarget {
  /** One e-mail to the business about a lead a webhook never got. */
  sendGivenUpAlert(lead: LeadRecord, targetLabel: string, error: string): Promise<DeliveryOutcome>;
  /** One e-mail to the business about the leads a removed target will never get. */
  sendRemovedTargetReport(report: RemovedTargetReport): Promise<DeliveryOutcome>;
  close(): void;
}

/**
 * The removed-target report's text: which leads were still waiting for the
 * target, enough of each to reach the person, and where the rest is.
 */
export function removedTargetReportText(report: RemovedTargetReport): string {
  const { label, count, leads } = report;
  const noun = count === 1 ? 'enquiry was' : 'enquiries were';
  const lines = [
    `${label} was removed from the website's settings while ${count} ${noun} still waiting to be delivered to it. The website will not send ${count === 1 ? 'it' : 'them'} there; they are marked "cancelled" and kept on the server ("npm run leads -- list").`,
    '',
    ...leads.map(
      (lead) =>
        `- ${nzDateTime(lead.created_at)}: ${lead.name}, ${lead.phone}, ${lead.email}, ${lead.service} (reference ${lead.id})`,
    ),
  ];
  if (leads.length < count) {
    lines.push(
      `${leads.length === 0 ? 'They' : `And ${count - leads.length} more`}: see "npm run leads -- list".`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * SMTP answers of 5xx to the sender, a recipient or the message are
 * permanent (docs/operations.md#lead-e-mail); 4xx, a refused connection, a timeout
 * and a refused login (the owner may fix SMTP_URL within the 24 hours) are
 * retried.
 */
function isPermanent(error: { code?: string; responseCode?: number }): boolean {
  if (error.code === 'EAUTH') return false;
  return (
    typeof error.responseCode === 'number' && error.responseCode >= 500 && error.responseCode < 600
  );
}

/** nodemailer's error in a few words, and what the owner can do (`leads test-delivery`). */
function explain(error: { code?: string; responseCode?: number; message: string }): {
  summary: string;
  advice: string;
} {
  const code = error.responseCode;
  if (error.code === 'EAUTH') {
    return {
      summary: `login refused${code ? ` (${code})` : ''}`,
      advice: 'check the user name and password in SMTP_URL',
    };
  }
  if (error.code === 'ETLS' || /STARTTLS/i.test(error.message)) {
    return {
      summary: 'no secure connection',
      advice: 'the mail server must offer STARTTLS on smtp://, or use smtps:// (port 465)',
    };
  }
  if (typeof code === 'number' && code >= 500) {
    return {
      summary: `refused (${code})`,
      advice:
        'check LEAD_EMAIL_TO, and that LEAD_EMAIL_FROM is an address this mail server may send for (SPF, DKIM)',
    };
  }
  if (typeof code === 'number' && code >= 400) {
    return {
      summary: `asked to try later (${code})`,
      advice: 'real enquiries are retried for 24 hours',
    };
  }
  return {
    summary: `could not reach the mail server (${error.code ?? error.message})`,
    advice: "check SMTP_URL's host and port, and that the server accepts connections from here",
  };
}

/**
 * A nodemailer transport for SMTP_URL: encryption as parseSmtpUrl decided,
 * the timeouts, and a pool of connections kept open for a run of e-mails
 * (the outbox sends in batches) unless `pool` is false (one message, as
 * `npm run owner -- add` sends).
 */
export function smtpTransport(
  smtp: SmtpSettings,
  options: { timeoutMs: number; tls?: { ca?: string | Buffer } | undefined; pool?: boolean },
): Transporter {
  const connection = {
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    requireTLS: smtp.requireTLS,
    ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.pass ?? '' } } : {}),
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
    tls: { servername: smtp.host, ...options.tls },
    logger: false,
    debug: false,
  };
  return options.pool === false
    ? nodemailer.createTransport(connection)
    : // nodemailer reopens a pooled connection when the mail server drops it.
      nodemailer.createTransport({ ...connection, pool: true, maxConnections: 2 });
}

/** An SMTP error message safe to store, log or print: never the password. */
export function withoutSmtpPassword(smtp: SmtpSettings, message: string): string {
  const secrets = [smtp.pass, smtp.pass ? encodeURIComponent(smtp.pass) : undefined].filter(
    (secret): secret is string => typeof secret === 'string' && secret.length > 0,
  );
  return secrets.reduce((text, secret) => text.split(secret).join('[password]'), message);
}

export function emailTarget(options: EmailTargetOptions): EmailTarget {
  const { smtp } = options;
  const transporter = smtpTransport(smtp, { timeoutMs: options.timeoutMs, tls: options.tls });
  const log = options.logger?.child({ component: 'lead-email' });
  const safe = (message: string) => withoutSmtpPassword(smtp, message);

  async function send(message: SendMailOptions): Promise<DeliveryOutcome> {
    try {
      const info = (await transporter.sendMail(message)) as {
        accepted: Array<string | { address: string }>;
        rejected: Array<string | { address: string }>;
        response?: string;
      };
      const address = (entry: string | { address: string }) =>
        typeof entry === 'string' ? entry : entry.address;
      if (info.rejected.length > 0) {
        log?.warn(
          { refused: info.rejected.map(address), accepted: info.accepted.length },
          'The mail server refused some of LEAD_EMAIL_TO',
        );
      }
      if (info.accepted.length === 0) {
        return {
          ok: false,
          permanent: true,
          error: 'the mail server refused every recipient',
          summary: 'every recipient refused',
          advice: 'check LEAD_EMAIL_TO',
        };
      }
      const count = info.accepted.length;
      return { ok: true, detail: `delivered to ${count} ${count === 1 ? 'address' : 'addresses'}` };
    } catch (caught) {
      const error = caught as Error & { code?: string; responseCode?: number; response?: string };
      const outcome: DeliveryOutcome = {
        ok: false,
        permanent: isPermanent(error),
        error: safe(error.message),
        ...explain(error),
      };
      if (typeof error.responseCode === 'number') outcome.status = error.responseCode;
      return outcome;
    }
  }

  return {
    key: EMAIL_TARGET_KEY,
    label: EMAIL_TARGET_LABEL,
    async deliver(lead: LeadRecord, deliverOptions?: DeliverOptions) {
      let attachments: PhotoAttachment[];
      try {
        attachments = await photoAttachments(
          await photosToSend(lead, deliverOptions, options.photos),
        );
      } catch (error) {
        // Never sent without the photos it has: tried again like any failure.
        return {
          ok: false,
          permanent: false,
          error: `could not attach the lead's photos: ${error instanceof Error ? error.message : String(error)}`,
          summary: "the lead's photos could not be read",
          advice: 'check that the lead store is running',
        };
      }
      return send(
        composeLeadEmail(lead, {
          ...options.sender(),
          siteUrl: options.siteUrl,
          to: options.to,
          test: deliverOptions?.test,
          attachments,
        }),
      );
    },
    sendGivenUpAlert(lead, targetLabel, error) {
      const sender = options.sender();
      const message = composeLeadEmail(lead, {
        ...sender,
        siteUrl: options.siteUrl,
        to: options.to,
      });
      const notice = `This enquiry could not be delivered to ${targetLabel} (${error}), and the website has stopped trying. It is shown below and kept on the server ("npm run leads -- list").`;
      return send({
        ...message,
        subject: `Not delivered to ${targetLabel}: ${String(message.subject)}`,
        messageId: leadMessageId(
          `alert-${lead.id}-${targetLabel.replace(/[^a-z0-9]+/gi, '-')}`,
          sender.from,
        ),
        text: `${notice}\n\n${String(message.text)}`,
        html: String(message.html).replace(
          '<p>',
          `<p><strong>${escapeHtml(notice)}</strong></p>\n<p>`,
        ),
      });
    },
    sendRemovedTargetReport(report) {
      const sender = options.sender();
      return send({
        from: { name: `${sender.siteName} website`, address: sender.from },
        to: [...options.to],
        subject: `Not delivered to ${report.label}: ${report.count} ${report.count === 1 ? 'enquiry' : 'enquiries'} waiting when it was removed`,
        messageId: leadMessageId(
          `removed-${report.label.replace(/[^a-z0-9]+/gi, '-')}-${randomUUID()}`,
          sender.from,
        ),
        headers: { 'Auto-Submitted': 'auto-generated' },
        text: removedTargetReportText(report),
      });
    },
    close() {
      transporter.close();
    },
  };
}

/**
 * What the owner hears about deliveries, by e-mail when LEAD_EMAIL_TO is
 * set, always in the log: a webhook that gave up on a lead (one e-mail per
 * lead), and a removed target's pending deliveries (one e-mail per target).
 */
export function ownerAlerts(
  email: EmailTarget | undefined,
  logger: Logger,
): { onGivenUp: GivenUpHandler; onRemovedTarget: RemovedTargetHandler } {
  const told = (context: Record<string, unknown>) => (result: DeliveryOutcome) => {
    if (result.ok) logger.info(context, 'Owner told by e-mail');
    else logger.error({ ...context, error: result.error }, 'Could not e-mail the owner');
  };
  return {
    onGivenUp(lead, target, outcome) {
      // A push given up needs no e-mail: the lead e-mail already has the lead.
      if (!email || target.key === email.key || target.notifyOnly) return;
      void email
        .sendGivenUpAlert(lead, target.label, outcome.error)
        .then(told({ leadId: lead.id, target: target.label }));
    },
    onRemovedTarget(report) {
      if (!email || report.label === email.label) return;
      void email
        .sendRemovedTargetReport(report)
        .then(told({ target: report.label, count: report.count }));
    },
  };
}

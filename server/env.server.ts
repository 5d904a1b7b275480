import proxyAddr from 'proxy-addr';
import { z } from 'zod';
import { DEFAULT_LEAD_RETENTION_DAYS } from '../app/leads/retention.ts';
import { parseSmtpUrl } from '../app/leads/delivery/lead-email.server.ts';
import { isLoopbackHost } from '../app/leads/delivery/webhooks.server.ts';
import { isVapidSubject } from '../app/leads/delivery/push.server.ts';
import { parseBackupUrl, type BackupTarget } from './backup/litestream.server.ts';
import { DEFAULT_CONVERSION_NAME } from '../app/owner/google-ads.server.ts';

/**
 * The environment (docs/operations.md, "Environment"), parsed once at start-up.
 * Everything else reads the parsed object, never process.env.
 */

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const url = (protocols: readonly string[]) =>
  z
    .string()
    .trim()
    .refine(
      (value) => {
        try {
          return protocols.includes(new URL(value).protocol);
        } catch {
          return false;
        }
      },
      `must be an absolute ${protocols.join(' or ')} URL`,
    );

/** Standard Webhooks: `whsec_` and a base64 secret of 24 to 64 bytes. */
function isWebhookSecret(value: string): boolean {
  const match = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(value);
  if (!match?.[1]) return false;
  const bytes = Buffer.from(match[1], 'base64').length;
  return bytes >= 24 && bytes <= 64;
}

/**
 * TRUST_PROXY in Express's `trust proxy` forms, as the value app.set takes:
 * `false` (believe no X-Forwarded-For), a hop count, or a list of the names
 * loopback / linklocal / uniquelocal, addresses and CIDRs. `true` (believe
 * any client) is refused: anyone could then pick the address the rate limit
 * counts. The list is checked by proxy-addr, the parser Express itself uses.
 */
const trustProxy = z
  .string()
  .trim()
  .default('loopback')
  .transform((given, ctx): false | number | string[] => {
    const value = given === '' ? 'loopback' : given;
    if (value === 'false') return false;
    if (/^\d+$/.test(value)) return Number(value);
    if (value === 'true') {
      ctx.addIssue({
        code: 'custom',
        message:
          '"true" would believe any client\'s X-Forwarded-For; give a hop count (1 for one proxy) or the proxy\'s addresses',
      });
      return z.NEVER;
    }
    const list = value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
    try {
      if (list.length === 0) throw new Error('empty');
      proxyAddr.compile(list);
    } catch {
      ctx.addIssue({
        code: 'custom',
        message: `"${value}" is not false, a hop count, loopback/linklocal/uniquelocal, or addresses and CIDRs`,
      });
      return z.NEVER;
    }
    return list;
  });

const FOLLOW_UP_DAYS_MESSAGE = 'must be a whole number of days, from 1 to 365';

const envSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
    HOST: z.string().trim().min(1).default('0.0.0.0'),
    SITE_URL: url(['http:', 'https:'])
      .default('http://localhost:3000')
      .transform((value) => value.replace(/\/+$/, '')),
    DATA_DIR: z.string().trim().min(1).default('./data'),
    DATABASE_URL: optionalText.pipe(url(['postgres:', 'postgresql:']).optional()),
    LEAD_WEBHOOK_URLS: optionalText.transform((value, ctx) => {
      if (value === undefined) return [];
      const list = value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
      // The address is not repeated in the message: it may carry a token.
      list.forEach((item, index) => {
        const position = `address ${index + 1}`;
        if (!url(['http:', 'https:']).safeParse(item).success) {
          ctx.addIssue({ code: 'custom', message: `${position} is not an absolute https:// URL` });
        } else if (new URL(item).protocol === 'http:' && !isLoopbackHost(new URL(item).hostname)) {
          // A lead is personal data: plain http only to a receiver on this machine.
          ctx.addIssue({
            code: 'custom',
            message: `${position} must use https:// (plain http:// only for a loopback address such as 127.0.0.1)`,
          });
        }
      });
      return list;
    }),
    LEAD_WEBHOOK_SECRET: optionalText.pipe(
      z
        .string()
        .refine(isWebhookSecret, 'must be whsec_ followed by 24 to 64 bytes in base64')
        .optional(),
    ),
    LEAD_EMAIL_TO: optionalText.transform((value, ctx) => {
      if (value === undefined) return [];
      const list = value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
      for (const item of list) {
        if (!z.email().safeParse(item).success) {
          ctx.addIssue({ code: 'custom', message: `"${item}" is not an e-mail address` });
        }
      }
      return [...new Set(list.map((item) => item.toLowerCase()))];
    }),
    // Unset: the published business e-mail (app/content/served-identity.ts).
    LEAD_EMAIL_FROM: optionalText.pipe(z.email({ error: 'must be an e-mail address' }).optional()),
    // Who signs the pushes to the owners' phones (docs/operations.md#push-notifications).
    // Unset: mailto: and the published business e-mail (app/content/served-identity.ts).
    VAPID_SUBJECT: optionalText.pipe(
      z
        .string()
        .refine(
          isVapidSubject,
          'must be a mailto: address or an https:// address (mailto:office@example.nz); Apple refuses every push otherwise',
        )
        .optional(),
    ),
    // Parsed here so a bad value stops the server; the message never repeats
    // the value (it holds the password).
    SMTP_URL: optionalText.transform((value, ctx) => {
      if (value === undefined) return undefined;
      const parsed = parseSmtpUrl(value);
      if (!parsed.ok) {
        ctx.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }
      return parsed.smtp;
    }),
    // `webhook` is the earlier name of `delivered`, still accepted.
    LEAD_ACCEPT: optionalText.pipe(
      z
        .enum(['delivered', 'webhook', 'stored'])
        .transform((value) => (value === 'webhook' ? 'delivered' : value))
        .optional(),
    ),
    LEAD_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(10),
    TRUST_PROXY: trustProxy,
    LEAD_RETENTION_DAYS: z.coerce
      .number()
      .int()
      .min(1)
      .max(36_500)
      .default(DEFAULT_LEAD_RETENTION_DAYS),
    LEAD_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(8000),
    // An urgent lead nobody said "I'm on it" to within this many minutes is
    // pushed and e-mailed again (docs/operations.md, "I'm on it" and escalation).
    URGENT_ESCALATE_MINUTES: z.coerce.number().int().min(1).max(1440).default(10),
    // A lead quoted this many days ago and not moved on is a quote to chase:
    // under "Follow up" in the inbox and in the morning e-mail
    // (docs/operations.md#follow-ups).
    FOLLOW_UP_QUOTED_DAYS: z.coerce
      .number({ error: FOLLOW_UP_DAYS_MESSAGE })
      .int({ error: FOLLOW_UP_DAYS_MESSAGE })
      .min(1, { error: FOLLOW_UP_DAYS_MESSAGE })
      .max(365, { error: FOLLOW_UP_DAYS_MESSAGE })
      .default(3),
    GTAG_ID: optionalText.pipe(
      z
        .string()
        .regex(/^(G|AW|GT|UA)-[A-Z0-9-]+$/, 'must look like G-XXXXXXX')
        .optional(),
    ),
    ADS_CONVERSION_SEND_TO: optionalText.pipe(
      z
        .string()
        .regex(/^AW-[A-Za-z0-9]+\/[A-Za-z0-9_-]+$/, 'must look like AW-123456789/AbCdEf')
        .optional(),
    ),
    // The conversion name of the won jobs for Google Ads (docs/operations.md#won-jobs-for-google-ads):
    // it must be the name of the conversion action made for the import in Google Ads.
    ADS_CONVERSION_NAME: optionalText.pipe(
      z
        .string()
        .max(100)
        .refine((value) => !/\p{Cc}/u.test(value), 'must be one line of text')
        .default(DEFAULT_CONVERSION_NAME),
    ),
    // How often the builder checks for newly published site content (docs/operations.md, "Publishing the site").
    SITE_PUBLISH_INTERVAL_S: z.coerce.number().int().min(1).max(3600).default(10),
    // This host's name in the store's record of builds (docs/operations.md#several-hosts).
    SITE_HOST_NAME: optionalText.pipe(z.string().max(200).optional()),
    // Continuous backups of the embedded store (docs/operations.md, "Backups").
    BACKUP_URL: optionalText.transform((value, ctx): BackupTarget | undefined => {
      if (value === undefined) return undefined;
      const parsed = parseBackupUrl(value);
      if ('error' in parsed) {
        ctx.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }
      return parsed.target;
    }),
    BACKUP_S3_ENDPOINT: optionalText.pipe(url(['http:', 'https:']).optional()),
    BACKUP_S3_REGION: optionalText,
    BACKUP_S3_ACCESS_KEY_ID: optionalText,
    // Never repeated in a message or a log.
    BACKUP_S3_SECRET_ACCESS_KEY: optionalText,
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
  })
  .transform((env, ctx) => {
    if (env.LEAD_EMAIL_TO.length > 0 && !env.SMTP_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['SMTP_URL'],
        message: 'must be set when LEAD_EMAIL_TO is: the mail server that sends the lead e-mails',
      });
    }
    const targets = env.LEAD_WEBHOOK_URLS.length + (env.LEAD_EMAIL_TO.length > 0 ? 1 : 0);
    const leadAccept = env.LEAD_ACCEPT ?? (targets > 0 ? 'delivered' : 'stored');
    if (leadAccept === 'delivered' && targets === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['LEAD_ACCEPT'],
        message:
          '"delivered" needs a delivery target: an address in LEAD_WEBHOOK_URLS, or LEAD_EMAIL_TO with SMTP_URL',
      });
    }
    const backup = env.BACKUP_URL;
    if (backup?.kind === 's3') {
      if (!env.BACKUP_S3_ACCESS_KEY_ID !== !env.BACKUP_S3_SECRET_ACCESS_KEY) {
        ctx.addIssue({
          code: 'custom',
          path: ['BACKUP_S3_SECRET_ACCESS_KEY'],
          message: 'BACKUP_S3_ACCESS_KEY_ID and BACKUP_S3_SECRET_ACCESS_KEY go together',
        });
      }
      Object.assign(backup, {
        endpoint: env.BACKUP_S3_ENDPOINT,
        region: env.BACKUP_S3_REGION ?? 'us-east-1',
        accessKeyId: env.BACKUP_S3_ACCESS_KEY_ID,
        secretAccessKey: env.BACKUP_S3_SECRET_ACCESS_KEY,
      });
    }
    return { ...env, LEAD_ACCEPT: leadAccept };
  });

export type Env = z.output<typeof envSchema>;

export class EnvError extends Error {
  override name = 'EnvError';
}

/** Parses an environment; throws an EnvError that names every bad variable. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source);
  if (result.success) return result.data;
  const lines = result.error.issues.map(
    (issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`,
  );
  throw new EnvError(`Invalid environment:\n${lines.join('\n')}`);
}

import { randomUUID } from 'node:crypto';
import { closeSync, fchmodSync, fstatSync, openSync, writeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { publishedIdentity } from '../../app/content/served-identity.ts';
import {
  activity,
  ACTIVITY,
  deletePerson,
  eraseLeads,
  exportPerson,
  exportRecord,
  toJson,
} from '../../app/leads/person-data.server.ts';
import { retentionCutoff } from '../../app/leads/retention.ts';
import { ATTRIBUTION_FIELDS } from '../../app/leads/intake/attribution.ts';
import { deliverToTargets, type DeliveryOutcome } from '../../app/leads/delivery/targets.server.ts';
import {
  type DeliveryRecord,
  type LeadRecord,
  type AppStore,
  type LeadWithDeliveries,
} from '../../app/db/store.server.ts';
import { openStore } from '../../app/db/open-store.server.ts';
import { openStoreForBuild } from '../site-content-build.server.ts';
import { createDeliveryTargets } from '../delivery-targets.server.ts';
import { EnvError, parseEnv, type Env } from '../env.server.ts';
import { jobValueDecimal } from '../../app/leads/job-value.ts';
import { NO_ATTRIBUTION } from '../../app/leads/intake/attribution.ts';
import { csvCell } from '../../app/leads/csv.server.ts';
import { googleAdsCsv } from '../../app/owner/google-ads.server.ts';

/**
 * The operator's view of the store (docs/operations.md#commands):
 *
 *   npm run leads -- list [--limit N]
 *   npm run leads -- export [--format json|csv] [--email ADDRESS] [--output FILE]
 *   npm run leads -- export --google-ads [--output FILE]
 *   npm run leads -- delete (--email ADDRESS | --id ID) [--yes]
 *   npm run leads -- purge
 *
 * Reads DATA_DIR / DATABASE_URL like the server and opens the same store.
 * Deliveries are named by their target's label, never a webhook's address.
 */

export const USAGE = `Usage:
  leads list [--limit N]                     latest leads (default 50): stage, delivery
                                             state and the owner's note
  leads export [--format json|csv] [--output FILE]
                                             every lead, oldest first (JSON by default)
  leads export --email ADDRESS [--format json|csv]
                                             everything held about one person (Privacy Act
                                             2020, IPP 6 access request)
  leads export --google-ads [--output FILE]  the won jobs from a Google ad click at most 90
                                             days old, as a CSV for Google Ads' offline
                                             conversion import (ADS_CONVERSION_NAME)
  leads delete --email ADDRESS [--yes]       that person's leads and their deliveries: shows
  leads delete --id ID [--yes]               what would go; deletes only with --yes
  leads purge                                deletes leads older than LEAD_RETENTION_DAYS now
                                             (the server also does it daily)
  leads test-delivery                        sends one enquiry marked as a test to every
                                             delivery target (each webhook, the e-mail),
                                             stores nothing, and says how each went

Environment: DATA_DIR (default ./data) or DATABASE_URL choose the lead store;
ADS_CONVERSION_NAME (default "Won job") names the conversion for --google-ads;
LEAD_RETENTION_DAYS (default 730) for purge; LEAD_WEBHOOK_URLS, LEAD_EMAIL_TO,
SMTP_URL and LEAD_EMAIL_FROM for test-delivery.
Tip: npm prints its own banner on stdout; use "npm run -s leads -- export ..." when redirecting.`;

class UsageError extends Error {}

type Selection = { by: 'email'; email: string } | { by: 'id'; id: string };

type Command =
  | { name: 'help' }
  | { name: 'list'; limit: number }
  | {
      name: 'export';
      format: 'json' | 'csv';
      output: string | undefined;
      email: string | undefined;
    }
  | { name: 'google-ads'; output: string | undefined }
  | { name: 'delete'; selection: Selection; yes: boolean }
  | { name: 'purge' }
  | { name: 'test-delivery' };

const OPTIONS_OF: Record<string, readonly string[]> = {
  list: ['limit'],
  export: ['format', 'output', 'email', 'google-ads'],
  delete: ['email', 'id', 'yes'],
  purge: [],
  'test-delivery': [],
};

export function parseCommand(argv: readonly string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        format: { type: 'string', short: 'f' },
        limit: { type: 'string', short: 'n' },
        output: { type: 'string', short: 'o' },
        email: { type: 'string' },
        id: { type: 'string' },
        yes: { type: 'boolean', short: 'y' },
        'google-ads': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { name: 'help' };
  if (positionals.length !== 1) {
    throw new UsageError(positionals.length === 0 ? 'Missing command' : 'Too many arguments');
  }
  const command = positionals[0] ?? '';
  const allowed = OPTIONS_OF[command];
  if (!allowed) throw new UsageError(`Unknown command: ${command}`);
  const extra = Object.keys(values).filter((name) => !allowed.includes(name));
  if (extra.length > 0) {
    const takes = allowed.length ? allowed.map((name) => `--${name}`).join(', ') : 'no options';
    throw new UsageError(`${command} takes ${takes} (not --${extra.join(', --')})`);
  }
  const email = values.email?.trim().toLowerCase();
  if (values.email !== undefined && !email) throw new UsageError('--email needs an address');

  switch (command) {
    case 'list': {
      const limit = values.limit === undefined ? 50 : Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
        throw new UsageError('--limit must be a whole number from 1 to 10000');
      }
      return { name: 'list', limit };
    }
    case 'export': {
      if (values['google-ads']) {
        if (values.format !== undefined || email !== undefined) {
          throw new UsageError('export --google-ads takes only --output');
        }
        return { name: 'google-ads', output: values.output };
      }
      const format = values.format ?? 'json';
      if (format !== 'json' && format !== 'csv') {
        throw new UsageError('--format must be json or csv');
      }
      return { name: 'export', format, output: values.output, email };
    }
    case 'delete': {
      const id = values.id?.trim();
      if ((email === undefined) === (id === undefined)) {
        throw new UsageError('delete needs exactly one of --email ADDRESS or --id ID');
      }
      if (id === '') throw new UsageError('--id needs a lead id');
      const selection: Selection =
        email !== undefined ? { by: 'email', email } : { by: 'id', id: id ?? '' };
      return { name: 'delete', selection, yes: values.yes === true };
    }
    case 'test-delivery':
      return { name: 'test-delivery' };
    default:
      return { name: 'purge' };
  }
}

// ---------------------------------------------------------------------------
// Formatting

// The JSON export is the owner's lead page's download too.
export { exportRecord, toJson };

/**
 * "delivered 2/2", "pending 1/2", "failed 1/2", "not_sent 0/2": the count is
 * how many targets got the lead; the word is the state still open, worst first.
 */
export function deliverySummary(lead: LeadWithDeliveries): string {
  const total = lead.deliveries.length;
  if (total === 0) return 'no targets';
  const delivered = lead.deliveries.filter((d) => d.state === 'delivered').length;
  const states = new Set(lead.deliveries.map((d) => d.state));
  const word =
    (['failed', 'pending', 'cancelled', 'not_sent'] as const).find((state) => states.has(state)) ??
    'delivered';
  return `${word} ${delivered}/${total}`;
}

/** One line per delivery: 'webhook 1 delivered attempts=1 …'. */
function describeDelivery(delivery: DeliveryRecord): string {
  return (
    `${delivery.label} ${delivery.state} attempts=${delivery.attempts}` +
    (delivery.delivered_at ? ` delivered_at=${delivery.delivered_at}` : '') +
    (delivery.state === 'pending' && delivery.next_attempt_at
      ? ` next_attempt_at=${delivery.next_attempt_at}`
      : '') +
    (delivery.last_error ? ` last_error=${delivery.last_error}` : '')
  );
}

// Spreadsheet-safe cells, shared with the won jobs for Google Ads.
export { csvCell };

export const CSV_COLUMNS = [
  'id',
  'created_at',
  'source',
  'status',
  'urgent',
  'name',
  'email',
  'phone',
  'service',
  'message',
  'stage',
  'note',
  'acknowledged_at',
  'acknowledged_by',
  'delivery',
  'deliveries',
  'job_value_nzd',
  // Where the lead came from (docs/operations.md#where-enquiries-come-from).
  ...ATTRIBUTION_FIELDS,
  // Why it is spam (docs/operations.md#spam); empty for any other lead.
  'spam_reason',
] as const;

export function toCsv(leads: readonly LeadWithDeliveries[]): string {
  const rows = [CSV_COLUMNS.map(csvCell).join(',')];
  for (const lead of leads) {
    const deliveries = lead.deliveries.map(describeDelivery).join('\n');
    rows.push(
      [
        lead.id,
        lead.created_at,
        lead.source,
        lead.status,
        lead.urgent ? 'yes' : 'no',
        lead.name,
        lead.email,
        lead.phone,
        lead.service,
        lead.message,
        lead.stage,
        lead.note,
        lead.acknowledged_at,
        lead.acknowledged_by,
        deliverySummary(lead),
        deliveries,
        jobValueDecimal(lead.job_value_cents),
        ...ATTRIBUTION_FIELDS.map((field) => lead.attribution[field]),
        lead.spam_reason,
      ]
        .map(csvCell)
        .join(','),
    );
  }
  // The byte order mark tells spreadsheet programs the file is UTF-8, so
  // Pāpāmoa and Ōmokoroa keep their macrons.
  return `\uFEFF${rows.join('\r\n')}\r\n`;
}

/**
 * Visitor text in a terminal: control characters (escape sequences) and
 * bidirectional overrides could rewrite the operator's screen; show them as '?'.
 */
export function terminalSafe(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '?');
}

function fit(text: string, width: number): string {
  const chars = [...terminalSafe(text)];
  const cut = chars.length > width ? `${chars.slice(0, width - 1).join('')}…` : chars.join('');
  return cut.padEnd(width + (cut.length - [...cut].length));
}

const LIST_COLUMNS: ReadonlyArray<{
  title: string;
  width: number;
  value: (lead: LeadWithDeliveries) => string;
}> = [
  {
    title: 'created_at (UTC)',
    width: 19,
    value: (lead) => lead.created_at.replace('T', ' ').slice(0, 19),
  },
  { title: 'source', width: 12, value: (lead) => lead.source },
  { title: 'status', width: 12, value: (lead) => lead.status },
  { title: 'stage', width: 9, value: (lead) => lead.stage },
  { title: 'name', width: 24, value: (lead) => lead.name },
  { title: 'email', width: 30, value: (lead) => lead.email },
  { title: 'phone', width: 16, value: (lead) => lead.phone },
  { title: 'service', width: 20, value: (lead) => lead.service },
  { title: 'delivery', width: 14, value: deliverySummary },
];

/** The longest part of an owner's note `leads list` shows. */
const LIST_NOTE_MAX = 100;

/**
 * The leads as a table, a row each; under a lead, its owner's note on one
 * line (the start of it), and a line for each delivery that did not simply
 * arrive (failed with the receiver's answer, pending with its next attempt,
 * cancelled), so a refused webhook is seen at once.
 */
export function toTable(
  leads: readonly LeadWithDeliveries[],
  footer = (count: number) => `${count} latest ${count === 1 ? 'lead' : 'leads'}, newest first.`,
): string {
  if (leads.length === 0) return 'No leads yet.\n';
  const line = (cells: string[]) => cells.join('  ').trimEnd();
  const lines = [
    line(LIST_COLUMNS.map((c) => fit(c.title, c.width))),
    line(LIST_COLUMNS.map((c) => '-'.repeat(c.width))),
  ];
  for (const lead of leads) {
    lines.push(line(LIST_COLUMNS.map((c) => fit(c.value(lead), c.width))));
    const note = lead.note.replace(/\s+/g, ' ').trim();
    if (note) lines.push(`    note: ${fit(note, LIST_NOTE_MAX).trimEnd()}`);
    for (const delivery of lead.deliveries) {
      if (delivery.state === 'delivered' || delivery.state === 'not_sent') continue;
      lines.push(`    ${terminalSafe(describeDelivery(delivery))}`);
    }
  }
  return `${lines.join('\n')}\n\n${footer(leads.length)}\n`;
}

// ---------------------------------------------------------------------------
// Main

export interface CliIo {
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  openStore?: (env: ReturnType<typeof parseEnv>) => Promise<AppStore>;
}

/** Runs the CLI; resolves with the exit code (0 ok, 1 failure, 2 bad arguments). */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (command.name === 'help') {
    io.stdout(`${USAGE}\n`);
    return 0;
  }

  let env;
  try {
    env = parseEnv(io.env);
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    io.stderr(`${error.message}\n`);
    return 2;
  }

  // Needs no store: the test enquiry is never stored.
  if (command.name === 'test-delivery') return testDelivery(env, io);

  let store: AppStore;
  try {
    store = await (io.openStore ?? defaultOpenStore)(env);
  } catch (error) {
    io.stderr(`Could not open the lead store: ${(error as Error).message}\n`);
    return 1;
  }
  try {
    switch (command.name) {
      case 'list':
        io.stdout(toTable(await store.listLeads({ limit: command.limit })));
        return 0;
      case 'export': {
        const toFormat = command.format === 'json' ? toJson : toCsv;
        const person =
          command.email === undefined ? undefined : await exportPerson(store, command.email);
        const leads = person ? person.leads : await store.exportLeads();
        const text = person && command.format === 'json' ? person.json : toFormat(leads);
        if (person) await recordCliActivity(store, ACTIVITY.personExported, leads.length, io);
        if (command.output) {
          writePrivateFile(command.output, text);
          io.stderr(`Wrote ${leads.length} leads to ${command.output}\n`);
        } else {
          io.stdout(text);
        }
        return 0;
      }
      case 'google-ads': {
        const csv = googleAdsCsv(await store.exportLeads(), {
          name: env.ADS_CONVERSION_NAME,
          now: new Date(),
        });
        if (command.output) writePrivateFile(command.output, csv);
        else io.stdout(csv);
        return 0;
      }
      case 'delete':
        return await deleteLeads(store, command.selection, command.yes, io);
      case 'purge': {
        const cutoff = retentionCutoff(env.LEAD_RETENTION_DAYS, Date.now());
        const count = await store.purgeCreatedBefore(cutoff);
        io.stdout(
          `Deleted ${count} ${count === 1 ? 'lead' : 'leads'} created before ${cutoff} ` +
            `(LEAD_RETENTION_DAYS=${env.LEAD_RETENTION_DAYS}).\n`,
        );
        return 0;
      }
    }
  } catch (error) {
    io.stderr(`Could not read or change the leads: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await store.close();
  }
}

/**
 * Writes an export readable by its owner only: mode 0600 for a new file, and
 * an existing file is made 0600 before any lead is written to it (the mode
 * given to open() applies only when it creates the file). A device or pipe
 * (`--output /dev/stdout`) is written as it is.
 */
export function writePrivateFile(file: string, text: string): void {
  const fd = openSync(file, 'w', 0o600);
  try {
    if (fstatSync(fd).isFile()) fchmodSync(fd, 0o600);
    const bytes = Buffer.from(text, 'utf8');
    for (let written = 0; written < bytes.length;) {
      written += writeSync(fd, bytes, written, bytes.length - written);
    }
  } finally {
    closeSync(fd);
  }
}

/** One line for a target's result, in words an owner setting the site up understands. */
export function describeTestResult(label: string, outcome: DeliveryOutcome): string {
  if (outcome.ok) {
    // 'email: delivered to 2 addresses'; 'webhook 1: delivered (HTTP 200)'.
    const detail = outcome.detail ?? '';
    return `${label}: ${detail.startsWith('delivered') ? detail : `delivered (${detail || 'ok'})`}`;
  }
  const advice = outcome.advice ? `: ${outcome.advice}` : '';
  return `${label}: ${outcome.permanent ? 'refused' : 'failed'}, ${outcome.summary ?? outcome.error}${advice}`;
}

/**
 * `leads test-delivery` (docs/operations.md#commands): a lead marked as a test to every
 * configured target, nothing stored; non-zero when any target failed.
 */
async function testDelivery(env: Env, io: CliIo): Promise<number> {
  // The business as published: the e-mail's sender name, as every lead's.
  const store = await openStoreForBuild(env).catch(() => null);
  const identity = await publishedIdentity(store).finally(() => store?.close());
  const delivery = createDeliveryTargets(env, undefined, { identity: () => identity });
  try {
    if (delivery.targets.length === 0) {
      io.stderr(
        'No delivery target is configured: set LEAD_WEBHOOK_URLS, or LEAD_EMAIL_TO and SMTP_URL.\n' +
          'Without one, enquiries are only kept on this server.\n',
      );
      return 1;
    }
    const lead: LeadRecord = {
      id: randomUUID(),
      name: 'Test enquiry (website set-up)',
      email: env.LEAD_EMAIL_FROM ?? identity.email,
      phone: identity.phone.display,
      service: 'Windows',
      message: 'A test enquiry from "npm run leads -- test-delivery". Nothing was stored.',
      created_at: new Date().toISOString(),
      source: 'quote_form',
      status: 'accepted',
      idempotency_key: null,
      urgent: false,
      attribution: NO_ATTRIBUTION,
    };
    const attempts = await deliverToTargets(delivery.targets, lead, { test: true });
    for (const { target, outcome } of attempts) {
      io.stdout(`${describeTestResult(target.label, outcome)}\n`);
    }
    return attempts.every(({ outcome }) => outcome.ok) ? 0 : 1;
  } finally {
    delivery.close();
  }
}

/** Privacy Act deletion: a dry run that lists what would go, unless --yes. */
async function deleteLeads(
  store: AppStore,
  selection: Selection,
  yes: boolean,
  io: CliIo,
): Promise<number> {
  const leads =
    selection.by === 'email'
      ? await store.findLeadsByEmail(selection.email)
      : await store.getLead(selection.id).then((lead) => (lead ? [lead] : []));
  const whose = selection.by === 'email' ? `of ${selection.email}` : `with id ${selection.id}`;
  if (leads.length === 0) {
    io.stdout(`No leads ${whose}. Deleted 0 leads.\n`);
    return 0;
  }
  const noun = (count: number) => `${count} ${count === 1 ? 'lead' : 'leads'}`;
  if (!yes) {
    io.stdout(
      toTable(leads, (count) => `Would delete ${noun(count)} ${whose}, with their deliveries.`),
    );
    io.stdout('Nothing deleted. Run the same command with --yes to delete them.\n');
    return 0;
  }
  const count =
    selection.by === 'email'
      ? await deletePerson(store, selection.email)
      : await eraseLeads(
          store,
          leads.map((lead) => lead.id),
        );
  io.stdout(`Deleted ${noun(count)} ${whose}, with their deliveries.\n`);
  await recordCliActivity(store, ACTIVITY.personDeleted, count, io);
  return 0;
}

/**
 * The activity list (the owner's pages, /admin/activity) keeps what the CLI
 * did to a person's leads too, as 'cli', with a count and nothing personal.
 * A store without it is no reason to fail the command.
 */
async function recordCliActivity(
  store: AppStore,
  action: typeof ACTIVITY.personExported | typeof ACTIVITY.personDeleted,
  count: number,
  io: CliIo,
): Promise<void> {
  try {
    await store.recordActivity(activity('cli', action, { count }));
  } catch (error) {
    io.stderr(`Could not note this in the activity list: ${(error as Error).message}\n`);
  }
}

function defaultOpenStore(env: ReturnType<typeof parseEnv>): Promise<AppStore> {
  return openStore({
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    replicated: env.BACKUP_URL !== undefined,
  });
}

if (import.meta.main) {
  // Piped into `head` and the like: a closed stdout is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  main(process.argv.slice(2), {
    env: process.env,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
      process.exitCode = 1;
    },
  );
}

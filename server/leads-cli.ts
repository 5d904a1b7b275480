import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  openLeadStore,
  type LeadStore,
  type LeadWithDeliveries,
} from '../app/leads/store.server.ts';
import { EnvError, parseEnv } from './env.server.ts';

/**
 * The operator's view of the lead store (CONTRACT "Commands"):
 *
 *   npm run leads -- list [--limit N]
 *   npm run leads -- export --format json|csv [--output FILE]
 *
 * Reads DATA_DIR / DATABASE_URL like the server and opens the same store.
 */

export const USAGE = `Usage:
  leads list [--limit N]                          latest leads (default 50) with delivery state
  leads export --format json|csv [--output FILE]  every lead, oldest first, to stdout or FILE

Environment: DATA_DIR (default ./data) or DATABASE_URL choose the lead store.
Tip: npm prints its own banner on stdout; use "npm run -s leads -- export ..." when redirecting.`;

class UsageError extends Error {}

type Command =
  | { name: 'help' }
  | { name: 'list'; limit: number }
  | { name: 'export'; format: 'json' | 'csv'; output: string | undefined };

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
  const command = positionals[0];
  if (command === 'list') {
    if (values.format !== undefined || values.output !== undefined) {
      throw new UsageError('list takes only --limit');
    }
    const limit = values.limit === undefined ? 50 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
      throw new UsageError('--limit must be a whole number from 1 to 10000');
    }
    return { name: 'list', limit };
  }
  if (command === 'export') {
    if (values.limit !== undefined) throw new UsageError('export takes no --limit');
    const format = values.format ?? 'json';
    if (format !== 'json' && format !== 'csv') {
      throw new UsageError('--format must be json or csv');
    }
    return { name: 'export', format, output: values.output };
  }
  throw new UsageError(`Unknown command: ${command}`);
}

// ---------------------------------------------------------------------------
// Formatting

/** The CONTRACT "Lead record" fields of one lead, for the JSON export. */
export function exportRecord(lead: LeadWithDeliveries) {
  return {
    id: lead.id,
    name: lead.name,
    email: lead.email,
    phone: lead.phone,
    service: lead.service,
    message: lead.message,
    created_at: lead.created_at,
    source: lead.source,
    status: lead.status,
    deliveries: lead.deliveries.map((delivery) => ({
      url: delivery.url,
      state: delivery.state,
      attempts: delivery.attempts,
      last_error: delivery.last_error,
      delivered_at: delivery.delivered_at,
    })),
  };
}

export function toJson(leads: readonly LeadWithDeliveries[]): string {
  return `${JSON.stringify(leads.map(exportRecord), null, 2)}\n`;
}

/**
 * "delivered 2/2", "pending 1/2", "failed 1/2", "not_sent 0/2": the count is
 * how many webhooks got the lead; the word is the state still open, worst first.
 */
export function deliverySummary(lead: LeadWithDeliveries): string {
  const total = lead.deliveries.length;
  if (total === 0) return 'no webhooks';
  const delivered = lead.deliveries.filter((d) => d.state === 'delivered').length;
  const states = new Set(lead.deliveries.map((d) => d.state));
  const word = states.has('failed')
    ? 'failed'
    : states.has('pending')
      ? 'pending'
      : states.has('not_sent')
        ? 'not_sent'
        : 'delivered';
  return `${word} ${delivered}/${total}`;
}

/**
 * Spreadsheet formula injection: a cell starting with = + - @ tab or CR is
 * run as a formula by Excel and friends; a leading ' makes it text.
 */
export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  // RFC 4180: quote fields with commas, quotes or line breaks; double the quotes.
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const CSV_COLUMNS = [
  'id',
  'created_at',
  'source',
  'status',
  'name',
  'email',
  'phone',
  'service',
  'message',
  'delivery',
  'deliveries',
] as const;

export function toCsv(leads: readonly LeadWithDeliveries[]): string {
  const rows = [CSV_COLUMNS.map(csvCell).join(',')];
  for (const lead of leads) {
    const deliveries = lead.deliveries
      .map(
        (d) =>
          `${d.url} ${d.state} attempts=${d.attempts}` +
          (d.delivered_at ? ` delivered_at=${d.delivered_at}` : '') +
          (d.last_error ? ` last_error=${d.last_error}` : ''),
      )
      .join('\n');
    rows.push(
      [
        lead.id,
        lead.created_at,
        lead.source,
        lead.status,
        lead.name,
        lead.email,
        lead.phone,
        lead.service,
        lead.message,
        deliverySummary(lead),
        deliveries,
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return `${rows.join('\r\n')}\r\n`;
}

/**
 * Visitor text in a terminal: control characters (escape sequences) and
 * bidirectional overrides could rewrite the operator's screen; show them as '?'.
 */
function terminalSafe(text: string): string {
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
  { title: 'name', width: 24, value: (lead) => lead.name },
  { title: 'email', width: 30, value: (lead) => lead.email },
  { title: 'phone', width: 16, value: (lead) => lead.phone },
  { title: 'service', width: 20, value: (lead) => lead.service },
  { title: 'delivery', width: 14, value: deliverySummary },
];

export function toTable(leads: readonly LeadWithDeliveries[]): string {
  if (leads.length === 0) return 'No leads yet.\n';
  const line = (cells: string[]) => cells.join('  ').trimEnd();
  const lines = [
    line(LIST_COLUMNS.map((c) => fit(c.title, c.width))),
    line(LIST_COLUMNS.map((c) => '-'.repeat(c.width))),
    ...leads.map((lead) => line(LIST_COLUMNS.map((c) => fit(c.value(lead), c.width)))),
  ];
  const noun = leads.length === 1 ? 'lead' : 'leads';
  return `${lines.join('\n')}\n\n${leads.length} latest ${noun}, newest first.\n`;
}

// ---------------------------------------------------------------------------
// Main

export interface CliIo {
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  openStore?: (env: ReturnType<typeof parseEnv>) => Promise<LeadStore>;
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

  let store: LeadStore;
  try {
    store = await (io.openStore ?? defaultOpenStore)(env);
  } catch (error) {
    io.stderr(`Could not open the lead store: ${(error as Error).message}\n`);
    return 1;
  }
  try {
    if (command.name === 'list') {
      io.stdout(toTable(await store.listLeads({ limit: command.limit })));
      return 0;
    }
    const leads = await store.exportLeads();
    const text = command.format === 'json' ? toJson(leads) : toCsv(leads);
    if (command.output) {
      writeFileSync(command.output, text, { mode: 0o600 });
      io.stderr(`Wrote ${leads.length} leads to ${command.output}\n`);
    } else {
      io.stdout(text);
    }
    return 0;
  } catch (error) {
    io.stderr(`Could not read the leads: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await store.close();
  }
}

function defaultOpenStore(env: ReturnType<typeof parseEnv>): Promise<LeadStore> {
  return openLeadStore({ dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL });
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

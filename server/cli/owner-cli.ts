import { parseArgs } from 'node:util';
import { emailSender, publishedIdentity } from '../../app/content/served-identity.ts';
import { nzDateTime } from '../../app/leads/delivery/lead-email.server.ts';
import { EMAIL_PATTERN, SINGLE_LINE_FORBIDDEN } from '../../app/leads/intake/form-rules.ts';
import {
  normaliseEmail,
  type AppStore,
  type OwnerWithPasskeys,
} from '../../app/db/store.server.ts';
import { openStore } from '../../app/db/open-store.server.ts';
import { sendOwnerLinkEmail } from '../../app/owner/sign-in-email.server.ts';
import { ownerLinkUrl, ownerSessions } from '../../app/owner/sessions.server.ts';
import { OWNER_ACTIVITY } from '../../app/owner/owner-activity.ts';
import { EnvError, parseEnv, type Env } from '../env.server.ts';
import { terminalSafe } from './leads-cli.ts';

/**
 * Owners of the site, from the server only (docs/operations.md#commands,
 * #owners-pages): there is no sign-up page.
 *
 *   npm run owner -- add EMAIL
 *   npm run owner -- list
 *   npm run owner -- remove EMAIL
 *
 * Reads DATA_DIR / DATABASE_URL like the server and opens the same store.
 * Each change is written to the activity list as done by 'cli'.
 */

export const USAGE = `Usage:
  owner add EMAIL       adds an owner (or finds them) and prints a one-time set-up
                        link, valid 24 hours, for creating a passkey; e-mails it to
                        EMAIL too when lead e-mail is configured. Run it again for a
                        new link (a lost phone): it replaces the earlier one.
  owner list            the owners, their passkeys and when they last signed in
  owner remove EMAIL    removes the owner and ends their sessions at once

Environment: DATA_DIR (default ./data) or DATABASE_URL choose the lead store;
SITE_URL for the link; LEAD_EMAIL_TO, SMTP_URL and LEAD_EMAIL_FROM to e-mail it.`;

class UsageError extends Error {}

type Command =
  | { name: 'help' }
  | { name: 'add'; email: string }
  | { name: 'list' }
  | { name: 'remove'; email: string };

/** RFC 5321's longest address. */
const EMAIL_MAX = 254;

function ownerEmail(value: string | undefined): string {
  const email = normaliseEmail(value ?? '');
  if (!email) throw new UsageError('Missing EMAIL');
  if (email.length > EMAIL_MAX || !EMAIL_PATTERN.test(email) || SINGLE_LINE_FORBIDDEN.test(email)) {
    throw new UsageError(`Not an e-mail address: ${terminalSafe(email.slice(0, EMAIL_MAX))}`);
  }
  return email;
}

export function parseCommand(argv: readonly string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: { help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.values.help) return { name: 'help' };
  const [command, ...rest] = parsed.positionals;
  switch (command) {
    case undefined:
      throw new UsageError('Missing command');
    case 'list':
      if (rest.length > 0) throw new UsageError('list takes no arguments');
      return { name: 'list' };
    case 'add':
    case 'remove':
      if (rest.length > 1) throw new UsageError(`${command} takes one EMAIL`);
      return { name: command, email: ownerEmail(rest[0]) };
    default:
      throw new UsageError(`Unknown command: ${terminalSafe(command)}`);
  }
}

// ---------------------------------------------------------------------------
// Formatting

const when = (iso: string | null, never: string) => (iso ? nzDateTime(iso) : never);

/** Each owner as a short block: the address, then when added, last sign-in and passkeys. */
export function ownerList(owners: readonly OwnerWithPasskeys[]): string {
  if (owners.length === 0) return 'No owners yet. Add one with: npm run owner -- add EMAIL\n';
  const blocks = owners.map((owner) => {
    const passkeys = owner.passkeys.length
      ? owner.passkeys.map(
          (passkey) =>
            `${terminalSafe(passkey.name)} (${passkey.last_used_at ? `last used ${nzDateTime(passkey.last_used_at)}` : 'not used yet'})`,
        )
      : ['none yet (the set-up link was not used)'];
    return [
      owner.email,
      `    added:        ${nzDateTime(owner.created_at)}`,
      `    last sign-in: ${when(owner.last_sign_in_at, 'never')}`,
      `    passkeys:     ${passkeys.join('\n                  ')}`,
    ].join('\n');
  });
  const count = owners.length;
  return `${blocks.join('\n\n')}\n\n${count} ${count === 1 ? 'owner' : 'owners'}.\n`;
}

// ---------------------------------------------------------------------------
// Main

export interface OwnerCliIo {
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  openStore?: (env: Env) => Promise<AppStore>;
}

/** Runs the CLI; resolves with the exit code (0 ok, 1 failure, 2 bad arguments). */
export async function main(argv: readonly string[], io: OwnerCliIo): Promise<number> {
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
  let env: Env;
  try {
    env = parseEnv(io.env);
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    io.stderr(`${error.message}\n`);
    return 2;
  }
  let store: AppStore;
  try {
    store = await (io.openStore ?? defaultOpenStore)(env);
  } catch (error) {
    io.stderr(`Could not open the lead store: ${(error as Error).message}\n`);
    return 1;
  }
  try {
    switch (command.name) {
      case 'add':
        return await addOwner(store, env, command.email, io);
      case 'list':
        io.stdout(ownerList(await store.listOwners()));
        return 0;
      case 'remove': {
        const now = new Date().toISOString();
        const removed = await store.removeOwner(command.email, now);
        if (!removed) {
          io.stdout(`No owner ${command.email}: nothing removed.\n`);
          return 0;
        }
        await store.recordActivity({
          at: now,
          actor: 'cli',
          action: OWNER_ACTIVITY.removed,
          detail: removed.id,
        });
        io.stdout(
          `Removed owner ${removed.email}: signed out everywhere, passkeys and links deleted.\n`,
        );
        return 0;
      }
    }
  } catch (error) {
    io.stderr(`Could not read or change the owners: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await store.close();
  }
}

/** `owner add`: the owner, a fresh set-up link printed, and e-mailed when lead e-mail is set up. */
async function addOwner(store: AppStore, env: Env, email: string, io: OwnerCliIo) {
  const now = new Date().toISOString();
  const { owner, added } = await store.addOwner(email, now);
  const link = await ownerSessions(store).createLink(owner.id, 'setup');
  const url = ownerLinkUrl(env.SITE_URL, 'setup', link.token);
  await store.recordActivity({
    at: now,
    actor: 'cli',
    action: added ? OWNER_ACTIVITY.added : OWNER_ACTIVITY.setupLink,
    detail: owner.id,
  });
  io.stdout(
    added
      ? `Added owner ${owner.email}.\n`
      : `${owner.email} is already an owner: this set-up link replaces any earlier one.\n`,
  );
  io.stdout(`Set-up link (works once, until ${nzDateTime(link.expiresAt)}):\n\n  ${url}\n\n`);
  if (env.LEAD_EMAIL_TO.length === 0 || !env.SMTP_URL) {
    io.stdout('Not e-mailed: lead e-mail is not configured (LEAD_EMAIL_TO and SMTP_URL).\n');
    return 0;
  }
  const identity = await publishedIdentity(store);
  const sender = emailSender(() => identity, env.LEAD_EMAIL_FROM);
  const sent = await sendOwnerLinkEmail(
    env.SMTP_URL,
    {
      to: owner.email,
      url,
      kind: 'setup',
      expiresAt: link.expiresAt,
      ...sender(),
    },
    { timeoutMs: env.LEAD_WEBHOOK_TIMEOUT_MS },
  );
  if (!sent.ok) {
    io.stderr(`Could not e-mail the link to ${owner.email}: ${sent.error}\n`);
    return 1;
  }
  io.stdout(`E-mailed to ${owner.email}.\n`);
  return 0;
}

function defaultOpenStore(env: Env): Promise<AppStore> {
  return openStore({ dataDir: env.DATA_DIR, databaseUrl: env.DATABASE_URL });
}

if (import.meta.main) {
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

/**
 * What the owner's inbox says about the backup (docs/operations.md#backups),
 * in words for a tradesperson: when it was last checked, in New Zealand
 * time, and who to ask when something is wrong. Never a command, a file or
 * a number of seconds.
 */

/** The backup as GET /healthz reports it (server/backup/backup-check.server.ts). */
export interface BackupStatusForOwner {
  state: 'on' | 'off' | 'not-checked';
  verifiedAt: string | null;
  lagSeconds: number | null;
}

const ASK = 'Ask whoever looks after your website’s server to look at it.';
/** As the daily check's e-mail: no verified restore for this long is a problem. */
const TOO_OLD_MS = 26 * 3_600_000;
const BEHIND_SECONDS = 5 * 60;

const nzDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Pacific/Auckland',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
const nzClock = new Intl.DateTimeFormat('en-NZ', {
  timeZone: 'Pacific/Auckland',
  hour: 'numeric',
  minute: '2-digit',
});
const nzDate = new Intl.DateTimeFormat('en-NZ', {
  timeZone: 'Pacific/Auckland',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
});

/** "today at 9:14 am", "yesterday at 9:14 am" or "on Tue, 24 Nov at 9:14 am", in New Zealand time. */
export function whenInWords(iso: string, now: Date): string {
  const at = new Date(iso);
  const clock = nzClock.format(at);
  const day = nzDay.format(at);
  if (day === nzDay.format(now)) return `today at ${clock}`;
  if (day === nzDay.format(new Date(now.getTime() - 86_400_000))) return `yesterday at ${clock}`;
  return `on ${nzDate.format(at)} at ${clock}`;
}

/** The line, and whether it is a warning (something the owner should act on). */
export function backupInWords(
  status: BackupStatusForOwner,
  now: Date = new Date(),
): { text: string; warning: boolean } {
  if (status.state === 'off') {
    return {
      text: 'Your enquiries are not backed up to another place yet. Ask whoever looks after your website’s server to set it up.',
      warning: false,
    };
  }
  if (status.state === 'not-checked') {
    return {
      text: 'The website can’t check its backup itself. Ask whoever looks after your website’s server to check it for you.',
      warning: false,
    };
  }
  if (status.lagSeconds !== null && status.lagSeconds > BEHIND_SECONDS) {
    return { text: `The backup is running behind. ${ASK}`, warning: true };
  }
  if (!status.verifiedAt) return { text: 'Backup not checked yet.', warning: false };
  const text = `Backup checked ${whenInWords(status.verifiedAt, now)}.`;
  if (now.getTime() - Date.parse(status.verifiedAt) > TOO_OLD_MS) {
    return { text: `${text} That is too long ago. ${ASK}`, warning: true };
  }
  return { text, warning: false };
}

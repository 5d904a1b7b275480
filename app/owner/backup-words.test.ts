import { describe, expect, it } from 'vitest';
import { backupInWords } from './backup-words.ts';

/** The inbox's line about the backup: plain words, New Zealand time. */

// 10:00 on 28 November 2026 in New Zealand (NZDT, UTC+13).
const now = new Date('2026-11-27T21:00:00Z');

describe('backupInWords', () => {
  it('says when the backup was last checked, in New Zealand time', () => {
    const status = { state: 'on' as const, lagSeconds: 0 };
    expect(backupInWords({ ...status, verifiedAt: '2026-11-27T20:14:00Z' }, now)).toEqual({
      text: 'Backup checked today at 9:14 am.',
      warning: false,
    });
    expect(backupInWords({ ...status, verifiedAt: '2026-11-27T08:05:00Z' }, now).text).toBe(
      'Backup checked yesterday at 9:05 pm.',
    );
    expect(backupInWords({ ...status, verifiedAt: null }, now).text).toBe(
      'Backup not checked yet.',
    );
  });

  it('asks the owner to get help when the check is too old or the backup behind', () => {
    const old = backupInWords(
      { state: 'on', lagSeconds: 0, verifiedAt: '2026-11-25T20:14:00Z' },
      now,
    );
    expect(old.warning).toBe(true);
    expect(old.text).toMatch(/^Backup checked on Thu, 26 Nov at 9:14 am\. That is too long ago\./);
    const behind = backupInWords(
      { state: 'on', lagSeconds: 301, verifiedAt: '2026-11-27T20:14:00Z' },
      now,
    );
    expect(behind).toEqual({ text: expect.stringContaining('running behind'), warning: true });
    expect(backupInWords({ state: 'off', lagSeconds: null, verifiedAt: null }, now).text).toContain(
      'not backed up',
    );
    const postgres = backupInWords(
      { state: 'not-checked', lagSeconds: null, verifiedAt: null },
      now,
    );
    expect(postgres.text).toContain('can’t check its backup');
    // Never a developer's word.
    for (const { text } of [old, behind, postgres]) {
      expect(text).not.toMatch(/npm|litestream|sqlite|restore|seconds|BACKUP_URL|lag/i);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { siteBuildActivity } from './site-activity.server.ts';

describe('the activity list', () => {
  it('notes a failed version by its number only (its words: activity-words)', () => {
    const failed = siteBuildActivity(6, false, new Date('2026-01-01T00:00:00Z'));
    expect(failed).toEqual({
      at: '2026-01-01T00:00:00.000Z',
      actor: 'server',
      action: 'site.failed',
      detail: 'version=6',
    });
  });
});

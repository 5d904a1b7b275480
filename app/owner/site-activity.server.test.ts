import { describe, expect, it } from 'vitest';
import { describeActivity } from './inbox.server.ts';
import { describeSiteActivity, siteBuildActivity } from './site-activity.server.ts';

describe('the activity list', () => {
  it('says each site change in words, with section names and numbers only', () => {
    expect(describeActivity('site.saved', 'section=identity,revision=3')).toBe(
      "Saved the site's business details (draft)",
    );
    expect(describeActivity('site.published', 'version=4')).toBe('Published the site: version 4');
    expect(describeActivity('site.restored', 'version=5,from=2')).toBe(
      'Restored version 2 of the site as version 5',
    );
    expect(describeSiteActivity('site.photo.refused', 'reason=type')).toBe(
      'Refused a job photo upload (not a JPEG, PNG or WebP)',
    );
    const failed = siteBuildActivity(6, false, new Date('2026-01-01T00:00:00Z'));
    expect(failed).toEqual({
      at: '2026-01-01T00:00:00.000Z',
      actor: 'server',
      action: 'site.failed',
      detail: 'version=6',
    });
    expect(describeActivity(failed.action, failed.detail)).toMatch(/^Version 6 of the site failed/);
  });
});

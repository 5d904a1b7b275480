import type { SiteContentSection } from '../content/site-content.ts';
import type { NewActivity } from '../db/store.server.ts';
import type { SafePhotoRefusal } from '../images/safe-photo.server.ts';

/*
 * The site's lines of the activity list (docs/operations.md, "Owner's
 * pages"): each change to the site's content is noted with section names,
 * version numbers and photo ids only, and read back in words.
 */

export const SITE_ACTIVITY = {
  saved: 'site.saved',
  conflict: 'site.conflict',
  photoAdded: 'site.photo.added',
  photoRefused: 'site.photo.refused',
  published: 'site.published',
  publishRefused: 'site.publish.refused',
  restored: 'site.restored',
  live: 'site.live',
  failed: 'site.failed',
} as const;

/** The activity list's actor for what the builder and the web server did with a version. */
export const SERVER_ACTOR = 'server';

export function siteActivity(
  actor: string,
  action: (typeof SITE_ACTIVITY)[keyof typeof SITE_ACTIVITY],
  detail: Record<string, string | number>,
  now: Date,
): NewActivity {
  return {
    at: now.toISOString(),
    actor,
    action,
    detail: Object.entries(detail)
      .map(([key, value]) => `${key}=${value}`)
      .join(','),
  };
}

/** A build of a version went live or failed (the publisher's record, server/runtime.server.ts). */
export function siteBuildActivity(version: number, ok: boolean, now: Date): NewActivity {
  return siteActivity(
    SERVER_ACTOR,
    ok ? SITE_ACTIVITY.live : SITE_ACTIVITY.failed,
    { version },
    now,
  );
}

const SECTION_WORDS: Record<SiteContentSection, string> = {
  identity: 'business details',
  hours: 'hours and facts',
  offers: 'offers',
  testimonials: 'testimonials',
  notice: 'notice',
  jobPhotos: 'job photos',
};

const REFUSAL_WORDS: Record<SafePhotoRefusal | 'missing', string> = {
  type: 'not a JPEG, PNG or WebP',
  size: 'too large',
  pixels: 'too many pixels',
  unreadable: 'unreadable',
  missing: 'no file',
};

/** A site line of the activity list in words; undefined for other actions. */
export function describeSiteActivity(action: string, detail: string): string | undefined {
  const parts = new Map(
    detail
      .split(',')
      .map((part) => part.split('='))
      .filter((pair): pair is [string, string] => pair.length === 2),
  );
  const section = SECTION_WORDS[parts.get('section') as SiteContentSection] ?? parts.get('section');
  const version = parts.get('version') ?? '?';
  switch (action) {
    case SITE_ACTIVITY.saved:
      return `Saved the site's ${section} (draft)`;
    case SITE_ACTIVITY.conflict:
      return `Not saved: someone else had saved the site's ${section} meanwhile`;
    case SITE_ACTIVITY.photoAdded:
      return `Uploaded a job photo (${parts.get('photo') ?? '?'})`;
    case SITE_ACTIVITY.photoRefused:
      return `Refused a job photo upload (${REFUSAL_WORDS[parts.get('reason') as SafePhotoRefusal] ?? parts.get('reason')})`;
    case SITE_ACTIVITY.published:
      return `Published the site: version ${version}`;
    case SITE_ACTIVITY.publishRefused:
      return `Publishing refused: the draft has ${parts.get('problems') ?? '?'} problems`;
    case SITE_ACTIVITY.restored:
      return `Restored version ${parts.get('from') ?? '?'} of the site as version ${version}`;
    case SITE_ACTIVITY.live:
      return `Version ${version} of the site is live`;
    case SITE_ACTIVITY.failed:
      return `Version ${version} of the site failed to build; visitors see the version before`;
    default:
      return undefined;
  }
}

import type { NewActivity } from '../db/store.server.ts';

/*
 * The site's lines of the activity list (docs/operations.md, "Owner's
 * pages"): each change to the site's content is noted with section names,
 * version numbers and photo ids only; activity-words.server.ts reads them
 * back in words.
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
  /** A review a customer sent, published or declined (site-reviews.server.ts). */
  reviewPublished: 'site.review.published',
  reviewDeclined: 'site.review.declined',
  /** A published review taken off the site with its customer's enquiries. */
  reviewRemoved: 'site.review.removed',
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

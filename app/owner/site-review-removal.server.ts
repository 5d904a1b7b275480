import { defaultSiteContent, type SiteContent } from '../content/site-content.ts';
import type { AppStore } from '../db/store.server.ts';
import type { SignedInOwner } from './context.server.ts';
import { SITE_ACTIVITY, siteActivity } from './site-activity.server.ts';

/*
 * A published review and its customer's enquiry (docs/operations.md,
 * "Reviews from customers"). The customer agreed to its publication, not
 * to keeping their enquiry: the retention purge deletes the enquiry and
 * leaves the review on the site. A Privacy Act erasure of that customer
 * (the owner's "Delete this person's enquiries", `npm run leads -- delete`)
 * takes the review down with it: out of every stored version (so no
 * Restore brings it back) and the draft, and a new version without it is
 * published, which the builder picks up within a minute.
 */

/**
 * The content visitors see, or will once the version on its way is live:
 * the newest version while it is publishing or live, else the newest live
 * one, else the shipped defaults.
 */
export async function publishedContent(store: AppStore): Promise<SiteContent> {
  const [newest] = await store.listSiteContentVersions(1);
  if (newest && (newest.state === 'publishing' || newest.state === 'live')) return newest.content;
  return (await store.newestLiveSiteContent())?.content ?? defaultSiteContent;
}

/**
 * Takes the reviews of these enquiries off the site before the enquiries
 * are erased; `by` is the owner who asked, none for the server's command.
 * Returns how many were on the site and the version made without them.
 */
export async function removeReviewsOfLeads(
  store: AppStore,
  leadIds: readonly string[],
  by?: SignedInOwner,
  now = new Date(),
): Promise<{ removed: number; version: number | null }> {
  if (leadIds.length === 0) return { removed: 0, version: null };
  const ids = new Set(leadIds);
  const shown = (await publishedContent(store)).testimonials.filter(
    (testimonial) => testimonial.leadId !== undefined && ids.has(testimonial.leadId),
  ).length;
  await store.removeSiteTestimonialsOfLeads(leadIds);
  if (shown === 0) return { removed: 0, version: null };
  // The versions no longer hold it, but visitors' pages were built with it: build them again.
  const version = await store.createSiteContentVersion(
    await publishedContent(store),
    by?.id || null,
  );
  await store.recordActivity(
    siteActivity(
      by?.email ?? 'cli',
      SITE_ACTIVITY.reviewRemoved,
      { count: shown, version: version.version },
      now,
    ),
  );
  return { removed: shown, version: version.version };
}

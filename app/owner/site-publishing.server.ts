import {
  checkSiteContent,
  SITE_CONTENT_SECTIONS,
  type ContentProblem,
  type SiteContent,
} from '../content/site-content.ts';
import type { AppStore } from '../db/store.server.ts';
import type { SitePublishingControl, SignedInOwner } from './context.server.ts';
import { SITE_ACTIVITY, siteActivity } from './site-activity.server.ts';
import { draftContent, sameCanonicalContent } from './site-sections.server.ts';

/*
 * Publishing (docs/operations.md, "Publishing the site"): "Publish" makes a
 * new version from the whole draft, checked by the schema, then wakes the
 * builder to build it now; "Restore" does the same with an earlier live
 * version's content.
 */

/** What the owner's "Publish" gets: the new version, or why the draft was refused. */
export type PublishDraftResult =
  { kind: 'published'; version: number } | { kind: 'refused'; problems: ContentProblem[] };

/** Job photos the content names that the store does not have: the build would fail on them. */
async function missingPhotos(store: AppStore, content: SiteContent): Promise<ContentProblem[]> {
  const problems: ContentProblem[] = [];
  for (const [index, photo] of content.jobPhotos.entries()) {
    if (!(await store.sitePhoto(photo.photoId))) {
      problems.push({
        path: ['jobPhotos', index, 'photoId'],
        message: `Job photo ${index + 1}: its file is not stored; remove it and upload it again`,
      });
    }
  }
  return problems;
}

/**
 * "Publish": the whole draft, checked by the schema (and every job photo
 * it names stored), becomes the next version, and the builder is woken
 * to build it now. A draft that does not pass publishes nothing.
 */
export async function publishDraft(
  store: AppStore,
  owner: SignedInOwner,
  publishing: SitePublishingControl | undefined,
  now = new Date(),
): Promise<PublishDraftResult> {
  const content = draftContent(await store.siteContentDraft());
  const checked = checkSiteContent(content);
  const problems = checked.ok ? await missingPhotos(store, checked.content) : checked.problems;
  if (!checked.ok || problems.length > 0) {
    await store.recordActivity(
      siteActivity(owner.email, SITE_ACTIVITY.publishRefused, { problems: problems.length }, now),
    );
    return { kind: 'refused', problems };
  }
  const version = await store.createSiteContentVersion(checked.content, owner.id);
  await store.recordActivity(
    siteActivity(owner.email, SITE_ACTIVITY.published, { version: version.version }, now),
  );
  publishing?.publishNow();
  return { kind: 'published', version: version.version };
}

export type RestoreOutcome =
  { kind: 'restored'; version: number; from: number } | { kind: 'refused'; message: string };

/**
 * "Restore": a new version with an earlier version's content, published
 * the same way; the draft becomes that content too, so the next "Publish"
 * does not bring back what was restored away.
 */
export async function restoreVersion(
  store: AppStore,
  owner: SignedInOwner,
  publishing: SitePublishingControl | undefined,
  from: number,
  now = new Date(),
): Promise<RestoreOutcome> {
  const old = Number.isSafeInteger(from) && from > 0 ? await store.siteContentVersion(from) : null;
  if (!old) return { kind: 'refused', message: `There is no version ${from} to restore.` };
  if (old.state !== 'live') {
    return {
      kind: 'refused',
      message: `Version ${from} never went live (its build failed or is still running); restore one that was live.`,
    };
  }
  const checked = checkSiteContent(old.content);
  const problems = checked.ok ? await missingPhotos(store, checked.content) : checked.problems;
  if (!checked.ok || problems.length > 0) {
    return {
      kind: 'refused',
      message: `Version ${from} no longer passes the checks: ${problems.map((p) => p.message).join('; ')}`,
    };
  }
  const version = await store.createSiteContentVersion(checked.content, owner.id, from);
  await store.recordActivity(
    siteActivity(owner.email, SITE_ACTIVITY.restored, { version: version.version, from }, now),
  );
  publishing?.publishNow();
  const draft = await store.siteContentDraft();
  for (const section of SITE_CONTENT_SECTIONS) {
    if (sameCanonicalContent(draft[section].content, checked.content[section])) continue;
    // A save made meanwhile wins: the draft is theirs, and the page shows it differs.
    await store.saveSiteContentSection(
      section,
      checked.content[section],
      draft[section].revision,
      owner.id,
    );
  }
  return { kind: 'restored', version: version.version, from };
}

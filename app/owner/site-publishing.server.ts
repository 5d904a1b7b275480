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

/** The whole draft as Publish checks it: by the schema, and every job photo it names stored. */
export async function checkDraft(
  store: AppStore,
): Promise<{ ok: true; content: SiteContent } | { ok: false; problems: ContentProblem[] }> {
  const checked = checkSiteContent(draftContent(await store.siteContentDraft()));
  if (!checked.ok) return { ok: false, problems: checked.problems };
  const problems = await missingPhotos(store, checked.content);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, content: checked.content };
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
  const checked = await checkDraft(store);
  if (!checked.ok) {
    const { problems } = checked;
    await store.recordActivity(
      siteActivity(owner.email, SITE_ACTIVITY.publishRefused, { problems: problems.length }, now),
    );
    return { kind: 'refused', problems };
  }
  // A second tap (no script to hide the button, or two owners at once):
  // the version already on its way, or live, is this draft.
  const [newest] = await store.listSiteContentVersions(1);
  if (
    newest &&
    (newest.state === 'publishing' || newest.state === 'live') &&
    sameCanonicalContent(newest.content, checked.content)
  ) {
    publishing?.publishNow();
    return { kind: 'published', version: newest.version };
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
      message: `Version ${from} never went live; restore one that was live.`,
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

/** The pages of /admin/site a Publish may come back to: the site's page and its editors. */
const SITE_PAGE = /^\/admin\/site(?:\/[a-z0-9-]{1,40}){0,2}$/;

/** Where Publish comes back to: the page it was tapped on, when that is one of the site's. */
export function publishReturnPath(back: string | null): string {
  return back && SITE_PAGE.test(back) ? back : '/admin/site';
}

/**
 * After an editor's save: "Save and publish" (`then=publish`) publishes
 * the draft too. Returns where the page goes next: `to`, marked
 * `published=N`; or /admin/site, which says why the draft was refused.
 */
export async function publishAfterSave(
  store: AppStore,
  owner: SignedInOwner,
  publishing: SitePublishingControl | undefined,
  then: string | null,
  to: string,
): Promise<string> {
  if (then !== 'publish') return to;
  const outcome = await publishDraft(store, owner, publishing);
  if (outcome.kind === 'refused') return '/admin/site?refused=1';
  return `${to}${to.includes('?') ? '&' : '?'}published=${outcome.version}`;
}

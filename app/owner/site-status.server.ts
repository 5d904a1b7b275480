import { defaultSiteContent, type SiteContent } from '../content/site-content.ts';
import type { AppStore } from '../db/store.server.ts';
import type { SitePublishingControl } from './context.server.ts';
import { draftChanges, draftContent } from './site-sections.server.ts';

/*
 * Where publishing stands, as the bar under every editor of /admin/site
 * says it (docs/operations.md, "Publishing the site"): changes saved and
 * not yet published, a version on its way, or all of it live. The bar's
 * script asks /admin/site/status for the same while a version is on its
 * way, so "Publishing…" turns to "Live" without a reload.
 */

export type PublishState = 'live' | 'publishing' | 'failed';

export interface PublishStatus {
  /**
   * `publishing`: the newest version is being built, or is built and this
   * server does not serve it yet; `failed`: its build failed, and visitors
   * still see the version before; `live`: visitors see the newest version.
   */
  state: PublishState;
  /** Changes saved since the newest version that is live or on its way. */
  changes: number;
  /** Whether "Publish" is offered: something to publish, and nothing on its way. */
  canPublish: boolean;
  /** What the bar says, in the owner's words. */
  message: string;
}

function changesWords(count: number): string {
  return count === 1 ? '1 change' : `${count} changes`;
}

/** The bar's words for a state and a count of changes. */
export function publishStatusMessage(state: PublishState, changes: number): string {
  switch (state) {
    case 'publishing':
      return changes === 0
        ? 'Publishing… Visitors see your changes within a minute.'
        : `Publishing… Visitors see it within a minute. ${changesWords(changes)} saved since then: publish ${changes === 1 ? 'it' : 'them'} once this is live.`;
    case 'failed':
      return `Publishing did not work, so visitors still see the site as it was. ${changesWords(changes)} not live yet: try Publish again.`;
    case 'live':
      return changes === 0
        ? 'Live: visitors see everything you saved.'
        : `${changesWords(changes)} not live yet.`;
  }
}

export async function publishStatus(
  store: AppStore,
  publishing: SitePublishingControl | undefined,
): Promise<PublishStatus> {
  const [draft, [newest]] = await Promise.all([
    store.siteContentDraft(),
    store.listSiteContentVersions(1),
  ]);
  let state: PublishState = 'live';
  let base: SiteContent = newest?.content ?? defaultSiteContent;
  if (newest?.state === 'publishing') state = 'publishing';
  else if (newest?.state === 'failed') {
    state = 'failed';
    base = (await store.newestLiveSiteContent())?.content ?? defaultSiteContent;
  } else if (newest && publishing) {
    // Built, but this server switches to it a second or so later (decision 10).
    const served = publishing.servedVersion();
    if (served === null || served < newest.version) state = 'publishing';
  }
  const changes = draftChanges(base, draftContent(draft)).count;
  // A failed build whose changes were since taken out of the draft: nothing is missing.
  if (state === 'failed' && changes === 0) state = 'live';
  return {
    state,
    changes,
    canPublish: state !== 'publishing' && changes > 0,
    message: publishStatusMessage(state, changes),
  };
}

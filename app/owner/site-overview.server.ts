import { launchProblems, type LaunchProblem } from '../content/launch-problems.ts';
import {
  defaultSiteContent,
  SITE_CONTENT_SECTIONS,
  type SiteContent,
  type SiteContentSection,
} from '../content/site-content.ts';
import type {
  SiteContentDraft,
  SiteContentVersionRecord,
} from '../db/site-content/site-content.server.ts';
import type { AppStore } from '../db/store.server.ts';
import type { SitePublishingControl } from './context.server.ts';
import {
  draftChanges,
  draftContent,
  ownerNames,
  problemHref,
  sameCanonicalContent,
  type DraftChanges,
} from './site-sections.server.ts';

/*
 * The overview of /admin/site (docs/operations.md, "Site content"): what
 * visitors see now, what is being published, which hosts serve which
 * version, and the versions kept. The rest of the site's editing is
 * site-drafts, site-items, site-publishing and site-sections (.server.ts).
 */

export type PublishingState =
  | { kind: 'defaults' }
  | { kind: 'building'; version: number; since: string }
  | {
      kind: 'live';
      version: number;
      since: string | null;
      /** With several hosts: those whose build of it failed (each retries it). */
      failedOn?: HostFailure[];
    }
  | {
      kind: 'failed';
      version: number;
      error: string;
      live: number | null;
      /** With several hosts: those whose build of it failed. */
      failedOn?: HostFailure[];
    };

/** A host whose build of a version failed, named as the owner reads it. */
export interface HostFailure {
  label: string;
  error: string;
}

/** A host and the version it serves (null: none built there yet). */
export interface HostServing {
  label: string;
  version: number | null;
}

export interface VersionRow {
  version: number;
  created_at: string;
  /** The owner's e-mail, or null when made on the server. */
  by: string | null;
  state: SiteContentVersionRecord['state'];
  restored_from: number | null;
  /** The live version visitors see. */
  current: boolean;
  error: string | null;
  /** What became of it, in words for the owner ("live now", "publishing"…). */
  status: string;
  /** With several hosts, where it is live or failed ("live on Server 2; did not go live on Server 1"); else null. */
  where: string | null;
}

/** A version's state as the owner reads it: never the store's name for it. */
export function versionStatus(state: VersionRow['state'], current: boolean): string {
  if (current) return 'live now';
  switch (state) {
    case 'live':
      return 'was live';
    case 'failed':
      return 'did not go live';
    case 'superseded':
      return 'replaced by a later version before it went live';
    case 'publishing':
      return 'publishing';
  }
}

export interface SiteOverview {
  draft: SiteContentDraft;
  content: SiteContent;
  live: SiteContentVersionRecord | null;
  liveContent: SiteContent;
  /** Each section: whether the draft differs from what is live or on its way (`publishing`). */
  differs: Record<SiteContentSection, boolean>;
  /** Each section: whether the version on its way changes it. */
  publishing: Record<SiteContentSection, boolean>;
  changes: DraftChanges;
  problems: Array<LaunchProblem & { href: string }>;
  state: PublishingState;
  versions: VersionRow[];
  /** What this server process serves now (its release's content version). */
  served: number | null;
  /** Every host known to have built a version, by name, with what it serves. */
  hosts: HostServing[];
}

/** A host's name is shown when it reads as one (glass-web-1), never a folder. */
const PLAIN_HOST_NAME = /^[A-Za-z0-9][A-Za-z0-9.-]{0,62}$/;

/** "Server 1 (glass-web-1)": hosts numbered by name. */
export function hostLabels(names: Iterable<string>): Map<string, string> {
  const sorted = [...new Set(names)].sort();
  return new Map(
    sorted.map((name, index) => [
      name,
      PLAIN_HOST_NAME.test(name) ? `Server ${index + 1} (${name})` : `Server ${index + 1}`,
    ]),
  );
}

export const VERSIONS_SHOWN = 20;

export async function siteOverview(
  store: AppStore,
  publishing: SitePublishingControl | undefined,
  now = new Date(),
): Promise<SiteOverview> {
  const [draft, live, versions, serving] = await Promise.all([
    store.siteContentDraft(),
    store.newestLiveSiteContent(),
    store.listSiteContentVersions(VERSIONS_SHOWN),
    store.siteHostsServing(),
  ]);
  const builds = await store.listSiteBuilds(versions.at(-1)?.version ?? 0);
  const labels = hostLabels([...serving.map((row) => row.host), ...builds.map((row) => row.host)]);
  const several = labels.size > 1;
  const hosts = [...labels].map(([name, label]) => ({
    label,
    version: serving.find((row) => row.host === name)?.version ?? null,
  }));
  const buildsOf = (version: number) => builds.filter((row) => row.version === version);
  const failedOn = (version: number): HostFailure[] =>
    buildsOf(version)
      .filter((row) => row.state === 'failed')
      .map((row) => ({ label: labels.get(row.host)!, error: row.error ?? 'The build failed.' }));
  const where = (version: number): string | null => {
    if (!several) return null;
    const named = (state: string) =>
      buildsOf(version)
        .filter((row) => row.state === state)
        .map((row) => labels.get(row.host)!)
        .join(', ');
    const parts = [
      named('live') && `live on ${named('live')}`,
      named('failed') && `did not go live on ${named('failed')}`,
    ].filter(Boolean);
    return parts.length > 0 ? parts.join('; ') : null;
  };
  const content = draftContent(draft);
  const liveContent = live?.content ?? defaultSiteContent;
  // What the draft is compared with: the version on its way, else the live one.
  const onItsWay = versions[0]?.state === 'publishing' ? versions[0].content : null;
  const base = onItsWay ?? liveContent;
  const bySection = (differ: (section: SiteContentSection) => boolean) =>
    Object.fromEntries(
      SITE_CONTENT_SECTIONS.map((section) => [section, differ(section)]),
    ) as Record<SiteContentSection, boolean>;
  const differs = bySection((section) => !sameCanonicalContent(base[section], content[section]));
  const publishingSections = bySection(
    (section) =>
      onItsWay !== null && !sameCanonicalContent(liveContent[section], onItsWay[section]),
  );
  const name = ownerNames(store);
  const rows = await Promise.all(
    versions.map(async (version) => ({
      version: version.version,
      created_at: version.created_at,
      by: await name(version.created_by),
      state: version.state,
      restored_from: version.restored_from,
      current: version.version === live?.version,
      error: version.error,
      status: versionStatus(version.state, version.version === live?.version),
      where: where(version.version),
    })),
  );
  const newest = versions[0];
  let state: PublishingState;
  if (newest?.state === 'publishing') {
    state = { kind: 'building', version: newest.version, since: newest.created_at };
  } else if (newest?.state === 'failed') {
    state = {
      kind: 'failed',
      version: newest.version,
      error: newest.error ?? 'The build failed.',
      live: live?.version ?? null,
      ...(several ? { failedOn: failedOn(newest.version) } : {}),
    };
  } else if (live) {
    state = {
      kind: 'live',
      version: live.version,
      since: live.live_at,
      ...(several ? { failedOn: failedOn(live.version) } : {}),
    };
  } else {
    state = { kind: 'defaults' };
  }
  return {
    draft,
    content,
    live,
    liveContent,
    differs,
    publishing: publishingSections,
    changes: draftChanges(base, content),
    problems: launchProblems(content, now).map((problem) => ({
      ...problem,
      href: problemHref(problem),
    })),
    state,
    versions: rows,
    served: publishing?.servedVersion() ?? null,
    hosts,
  };
}

// ---------------------------------------------------------------------------
// Saving a section

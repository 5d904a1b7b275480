import {
  checkSiteContent,
  checkSiteContentSection,
  defaultSiteContent,
  describeProblems,
  SITE_CONTENT_SECTIONS,
  type ContentProblem,
  type SiteContent,
  type SiteContentSection,
} from '../../content/site-content.ts';

/**
 * The site's editable content in the store (docs/operations.md#site-content):
 * the owner's draft, one row per section; every published version, whole,
 * numbered, with its publishing state; and the photos of real jobs the
 * content names. Both stores implement it (migration 12) and pass the same
 * contract suite (site-content.contract.ts).
 */

/**
 * - `publishing`: stored, its build not yet done.
 * - `live`: its build was published (the newest live version is the site's).
 * - `failed`: its build failed; visitors still see the version before.
 * - `superseded`: a later version's build started before its own did, so it
 *   is never built (five publishes in a row make two builds).
 */
export type SiteContentVersionState = 'publishing' | 'live' | 'failed' | 'superseded';

export interface SiteContentVersionRecord {
  /** 1, 2, 3…: the order versions were made in. */
  version: number;
  content: SiteContent;
  created_at: string;
  /** The owner who published it; null when it was made from the server (a CLI, a test). */
  created_by: string | null;
  /** The earlier version it restores, when it is a restore. */
  restored_from: number | null;
  state: SiteContentVersionState;
  /** Why its build failed. */
  error: string | null;
  live_at: string | null;
}

/**
 * One host's build of a version (migration 15): several hosts on one
 * PostgreSQL each build into a BUILD_DIR of their own, so each records its
 * own outcome. A version is `live` once live on any host, else `failed`
 * once failed on one, else `superseded` once a host passed it over.
 */
export type SiteBuildState = 'live' | 'failed' | 'superseded';

export interface SiteBuildRecord {
  version: number;
  /** The host's name (SITE_HOST_NAME, docs/operations.md#several-hosts). */
  host: string;
  state: SiteBuildState;
  /** Why its build failed there. */
  error: string | null;
  /** When the host last recorded it. */
  at: string;
}

/** The newest version live on a host: what that host serves. */
export interface SiteHostServing {
  host: string;
  version: number;
  at: string;
}

export interface SiteContentDraftSection<S extends SiteContentSection = SiteContentSection> {
  content: SiteContent[S];
  /** 0 while never saved (the section reads as the newest live content's, or the default). */
  revision: number;
  updated_at: string | null;
  updated_by: string | null;
}

export type SiteContentDraft = { [S in SiteContentSection]: SiteContentDraftSection<S> };

export type SiteContentSaveResult<S extends SiteContentSection = SiteContentSection> =
  | { saved: true; section: SiteContentDraftSection<S> }
  /** Someone saved since `expectedRevision`: nothing was written; what they saved is returned. */
  | { saved: false; reason: 'conflict'; current: SiteContentDraftSection<S> };

export interface SitePhotoInfo {
  id: string;
  width: number;
  height: number;
  created_at: string;
  created_by: string | null;
}

export interface SitePhotoRecord extends SitePhotoInfo {
  /** The JPEG file. */
  bytes: Uint8Array;
}

export interface NewSitePhoto {
  /** A JPEG, as the photo sanitiser writes it. */
  bytes: Uint8Array;
  width: number;
  height: number;
  ownerId: string | null;
}

/** The largest job photo stored, in bytes. */
export const SITE_PHOTO_MAX_BYTES = 10 * 1024 * 1024;
/** The longest edge of a job photo, in pixels. */
export const SITE_PHOTO_MAX_EDGE = 8192;
/** The most versions one listing returns. */
export const SITE_CONTENT_VERSIONS_MAX = 200;

/** Content the schemas refuse: nothing was stored. */
export class SiteContentError extends Error {
  readonly problems: ContentProblem[];
  constructor(problems: ContentProblem[]) {
    super(`The site content is not valid:\n${describeProblems(problems)}`);
    this.name = 'SiteContentError';
    this.problems = problems;
  }
}

export interface SiteContentStore {
  /** The draft, every section: saved ones as saved, the others as the newest live content's (or the default). */
  siteContentDraft(): Promise<SiteContentDraft>;

  /**
   * Saves one section of the draft when its revision is still
   * `expectedRevision` (0 for a section never saved), making it one more;
   * otherwise nothing is written and the current section is returned.
   * Throws SiteContentError when the section's schema refuses the content.
   */
  saveSiteContentSection<S extends SiteContentSection>(
    section: S,
    content: SiteContent[S],
    expectedRevision: number,
    ownerId: string | null,
  ): Promise<SiteContentSaveResult<S>>;

  /**
   * Stores the whole content as the next version, in state `publishing`.
   * Throws SiteContentError when the schema refuses it.
   */
  createSiteContentVersion(
    content: SiteContent,
    ownerId: string | null,
    restoredFrom?: number,
  ): Promise<SiteContentVersionRecord>;

  /**
   * A `publishing` version's build is done: `live` (with the time) or
   * `failed` (with the reason). False, and nothing changed, for a version
   * that is not publishing.
   */
  setSiteContentVersionState(
    version: number,
    state: 'live' | 'failed',
    error?: string,
  ): Promise<boolean>;

  /**
   * A build of `version` starts: every version below it still `publishing`
   * becomes `superseded` (its build never starts), recorded as `host`'s
   * when given. Returns their numbers, lowest first.
   */
  supersedeSiteContentVersions(version: number, host?: string): Promise<number[]>;

  /**
   * Host `host`'s build of `version` is done. A host's live build stays
   * live (a failed rebuild of it changes nothing); the version becomes
   * `live` once live on any host, and `failed` while failed on one and
   * live on none. True when that changed the version's state; false, and
   * nothing recorded, for a version that does not exist.
   */
  recordSiteBuild(
    version: number,
    host: string,
    state: 'live' | 'failed',
    error?: string,
  ): Promise<boolean>;

  /** Every host's builds of the versions from `fromVersion` on, newest version first, by host. */
  listSiteBuilds(fromVersion: number): Promise<SiteBuildRecord[]>;

  /** Each host that has a version live, with its newest, by host name. */
  siteHostsServing(): Promise<SiteHostServing[]>;

  /** The live version with the highest number: what the site shows; null before any. */
  newestLiveSiteContent(): Promise<SiteContentVersionRecord | null>;

  siteContentVersion(version: number): Promise<SiteContentVersionRecord | null>;

  /** The latest versions, newest first (at most SITE_CONTENT_VERSIONS_MAX). */
  listSiteContentVersions(limit: number): Promise<SiteContentVersionRecord[]>;

  /** Stores a job photo (a JPEG); throws on anything else. */
  addSitePhoto(photo: NewSitePhoto): Promise<SitePhotoInfo>;

  sitePhoto(id: string): Promise<SitePhotoRecord | null>;

  /**
   * Deletes those of the photos `ids` that neither the draft nor any
   * version names (a photo taken out of the draft before it was ever
   * published), and returns their ids. A photo any version names stays:
   * Restore may put that version back.
   */
  deleteUnusedSitePhotos(ids: readonly string[]): Promise<string[]>;

  /**
   * A Privacy Act erasure: takes every testimonial that names one of these
   * enquiries (`leadId`, a review a customer sent) out of the draft and out
   * of every version, in one transaction, so no Restore can bring it back.
   * Returns the versions changed, lowest first, and whether the draft was
   * (its revision then moves on, as any save's does).
   */
  removeSiteTestimonialsOfLeads(
    leadIds: readonly string[],
  ): Promise<{ versions: number[]; draft: boolean }>;
}

/** A list of testimonials without those naming one of `leadIds`, or null when none does. */
export function withoutTestimonialsOf(
  testimonials: SiteContent['testimonials'],
  leadIds: ReadonlySet<string>,
): SiteContent['testimonials'] | null {
  const kept = testimonials.filter(
    (item) => item.leadId === undefined || !leadIds.has(item.leadId),
  );
  return kept.length === testimonials.length ? null : kept;
}

/** The section as the schema has it (trimmed…), or SiteContentError. */
export function checkedSection<S extends SiteContentSection>(
  section: S,
  content: unknown,
): SiteContent[S] {
  if (!(SITE_CONTENT_SECTIONS as readonly string[]).includes(section)) {
    throw new SiteContentError([{ path: [String(section)], message: 'No such section' }]);
  }
  const result = checkSiteContentSection(section, content);
  if (!result.ok) throw new SiteContentError(result.problems);
  return result.content;
}

export function checkedContent(content: unknown): SiteContent {
  const result = checkSiteContent(content);
  if (!result.ok) throw new SiteContentError(result.problems);
  return result.content;
}

export function checkRevision(revision: number): void {
  if (!Number.isInteger(revision) || revision < 0) throw new Error('Invalid draft revision');
}

/** The longest host name stored. */
export const SITE_HOST_NAME_MAX = 200;

export function checkHostName(host: string): void {
  if (typeof host !== 'string' || host.trim() === '' || host.length > SITE_HOST_NAME_MAX) {
    throw new Error(`A host name is 1 to ${SITE_HOST_NAME_MAX} characters`);
  }
}

export function checkVersionNumber(version: number): boolean {
  return Number.isSafeInteger(version) && version > 0;
}

/** JPEG files begin with the SOI marker and another marker. */
export function checkSitePhoto(photo: NewSitePhoto): void {
  const { bytes, width, height } = photo;
  if (
    !(bytes instanceof Uint8Array) ||
    bytes.length < 4 ||
    bytes[0] !== 0xff ||
    bytes[1] !== 0xd8 ||
    bytes[2] !== 0xff
  ) {
    throw new Error('A job photo is stored as a JPEG');
  }
  if (bytes.length > SITE_PHOTO_MAX_BYTES) throw new Error('A job photo is at most 10 MB');
  for (const edge of [width, height]) {
    if (!Number.isInteger(edge) || edge < 1 || edge > SITE_PHOTO_MAX_EDGE) {
      throw new Error(`A job photo's width and height are 1 to ${SITE_PHOTO_MAX_EDGE} pixels`);
    }
  }
}

/** A stored draft row, with the content as parsed JSON. */
export interface DraftRow {
  section: string;
  content: unknown;
  revision: number;
  updated_at: string;
  updated_by: string | null;
}

/** A saved row as its section of the draft. */
export function draftSection<S extends SiteContentSection>(
  row: DraftRow,
): SiteContentDraftSection<S> {
  return {
    content: row.content as SiteContent[S],
    revision: row.revision,
    updated_at: row.updated_at,
    updated_by: row.updated_by,
  };
}

/** The draft from its saved rows; the others read as `base` (the newest live content, or the default). */
export function assembleDraft(
  rows: readonly DraftRow[],
  base: SiteContent | null,
): SiteContentDraft {
  const from = base ?? defaultSiteContent;
  const saved = new Map(rows.map((row) => [row.section, row]));
  const section = <S extends SiteContentSection>(name: S): SiteContentDraftSection<S> => {
    const row = saved.get(name);
    return row
      ? draftSection<S>(row)
      : { content: from[name], revision: 0, updated_at: null, updated_by: null };
  };
  return {
    identity: section('identity'),
    hours: section('hours'),
    offers: section('offers'),
    testimonials: section('testimonials'),
    notice: section('notice'),
    jobPhotos: section('jobPhotos'),
  };
}

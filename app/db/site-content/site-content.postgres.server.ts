import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { SiteContent, SiteContentSection } from '../../content/site-content.ts';
import { iso, textOrNull, UUID, type Row } from '../postgres-values.server.ts';
import { clipError } from '../store.server.ts';
import {
  assembleDraft,
  checkedContent,
  checkedSection,
  checkHostName,
  checkRevision,
  checkSitePhoto,
  checkVersionNumber,
  draftSection,
  SITE_CONTENT_VERSIONS_MAX,
  type DraftRow,
  type NewSitePhoto,
  type SiteBuildRecord,
  type SiteBuildState,
  type SiteContentDraft,
  type SiteContentDraftSection,
  type SiteContentSaveResult,
  type SiteContentStore,
  type SiteContentVersionRecord,
  type SiteContentVersionState,
  type SiteHostServing,
  type SitePhotoInfo,
  type SitePhotoRecord,
} from './site-content.server.ts';

/**
 * The PostgreSQL half of the site's content (site-content.server.ts): the
 * owner's draft, the published versions, each host's builds and the job
 * photos, on the PostgreSQL store's one pool.
 */

const VERSION_COLUMNS =
  'version, content, created_at, created_by, restored_from, state, error, live_at';
const DRAFT_COLUMNS = 'section, content, revision, updated_at, updated_by';

function toVersion(row: Row): SiteContentVersionRecord {
  return {
    version: Number(row.version),
    // jsonb comes back parsed.
    content: row.content as SiteContent,
    created_at: iso(row.created_at) ?? '',
    created_by: textOrNull(row.created_by),
    restored_from: row.restored_from === null ? null : Number(row.restored_from),
    state: String(row.state) as SiteContentVersionState,
    error: textOrNull(row.error),
    live_at: iso(row.live_at),
  };
}

const BUILD_COLUMNS = 'version, host, state, error, at';

function toBuild(row: Row): SiteBuildRecord {
  return {
    version: Number(row.version),
    host: String(row.host),
    state: String(row.state) as SiteBuildState,
    error: textOrNull(row.error),
    at: iso(row.at) ?? '',
  };
}

function toDraftRow(row: Row): DraftRow {
  return {
    section: String(row.section),
    content: row.content,
    revision: Number(row.revision),
    updated_at: iso(row.updated_at) ?? '',
    updated_by: textOrNull(row.updated_by),
  };
}

function toSitePhotoInfo(row: Row): SitePhotoInfo {
  return {
    id: String(row.id),
    width: Number(row.width),
    height: Number(row.height),
    created_at: iso(row.created_at) ?? '',
    created_by: textOrNull(row.created_by),
  };
}

export class PostgresSiteContentStore implements SiteContentStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async #newestLive(): Promise<SiteContentVersionRecord | null> {
    const result = await this.#pool.query(
      `SELECT ${VERSION_COLUMNS} FROM site_content_versions
       WHERE state = 'live' ORDER BY version DESC LIMIT 1`,
    );
    const row = result.rows[0] as Row | undefined;
    return row ? toVersion(row) : null;
  }

  async siteContentDraft(): Promise<SiteContentDraft> {
    const [rows, live] = await Promise.all([
      this.#pool.query(`SELECT ${DRAFT_COLUMNS} FROM site_content_draft`),
      this.#newestLive(),
    ]);
    return assembleDraft((rows.rows as Row[]).map(toDraftRow), live?.content ?? null);
  }

  async saveSiteContentSection<S extends SiteContentSection>(
    section: S,
    content: SiteContent[S],
    expectedRevision: number,
    ownerId: string | null,
  ): Promise<SiteContentSaveResult<S>> {
    const checked = checkedSection(section, content);
    checkRevision(expectedRevision);
    const json = JSON.stringify(checked);
    const at = new Date().toISOString();
    // One statement each: a first save inserts unless another did meanwhile
    // (ON CONFLICT waits for it); a later one updates the revision it read.
    const saved =
      expectedRevision === 0
        ? await this.#pool.query(
            `INSERT INTO site_content_draft (${DRAFT_COLUMNS})
             VALUES ($1, $2::jsonb, 1, $3::timestamptz, $4) ON CONFLICT (section) DO NOTHING
             RETURNING ${DRAFT_COLUMNS}`,
            [section, json, at, ownerId],
          )
        : await this.#pool.query(
            `UPDATE site_content_draft
             SET content = $2::jsonb, revision = revision + 1, updated_at = $3::timestamptz,
               updated_by = $4
             WHERE section = $1 AND revision = $5
             RETURNING ${DRAFT_COLUMNS}`,
            [section, json, at, ownerId, expectedRevision],
          );
    const row = saved.rows[0] as Row | undefined;
    if (row) {
      return { saved: true, section: draftSection<S>(toDraftRow(row)) };
    }
    const [rows, live] = await Promise.all([
      this.#pool.query(`SELECT ${DRAFT_COLUMNS} FROM site_content_draft WHERE section = $1`, [
        section,
      ]),
      this.#newestLive(),
    ]);
    const draft = assembleDraft((rows.rows as Row[]).map(toDraftRow), live?.content ?? null);
    return {
      saved: false,
      reason: 'conflict',
      current: draft[section] as SiteContentDraftSection<S>,
    };
  }

  async createSiteContentVersion(
    content: SiteContent,
    ownerId: string | null,
    restoredFrom?: number,
  ): Promise<SiteContentVersionRecord> {
    const json = JSON.stringify(checkedContent(content));
    const result = await this.#pool.query(
      `INSERT INTO site_content_versions (content, created_at, created_by, restored_from, state)
       VALUES ($1::jsonb, $2::timestamptz, $3, $4, 'publishing') RETURNING ${VERSION_COLUMNS}`,
      [json, new Date().toISOString(), ownerId, restoredFrom ?? null],
    );
    const row = result.rows[0] as Row | undefined;
    if (!row) throw new Error('The site content version was not stored');
    return toVersion(row);
  }

  async setSiteContentVersionState(
    version: number,
    state: 'live' | 'failed',
    error?: string,
  ): Promise<boolean> {
    if (!checkVersionNumber(version) || version > 2_147_483_647) return false;
    const result = await this.#pool.query(
      `UPDATE site_content_versions SET state = $2, error = $3, live_at = $4::timestamptz
       WHERE version = $1 AND state = 'publishing'`,
      [
        version,
        state,
        state === 'failed' ? clipError(error ?? 'the build failed') : null,
        state === 'live' ? new Date().toISOString() : null,
      ],
    );
    return result.rowCount === 1;
  }

  async supersedeSiteContentVersions(version: number, host?: string): Promise<number[]> {
    if (!checkVersionNumber(version)) return [];
    if (host !== undefined) checkHostName(host);
    // One statement: the versions it marks and the host's rows for them, atomically.
    const result = await this.#pool.query<{ version: number }>(
      `WITH superseded AS (
         UPDATE site_content_versions SET state = 'superseded'
         WHERE version < $1 AND state = 'publishing' RETURNING version
       ), recorded AS (
         INSERT INTO site_builds (version, host, state, error, at)
         SELECT version, $2::text, 'superseded', NULL, $3::timestamptz FROM superseded
         WHERE $2::text IS NOT NULL
         ON CONFLICT (version, host) DO NOTHING
       )
       SELECT version FROM superseded`,
      [Math.min(version, 2_147_483_647), host ?? null, new Date().toISOString()],
    );
    return result.rows.map((row) => Number(row.version)).sort((a, b) => a - b);
  }

  async recordSiteBuild(
    version: number,
    host: string,
    state: 'live' | 'failed',
    error?: string,
  ): Promise<boolean> {
    if (!checkVersionNumber(version) || version > 2_147_483_647) return false;
    checkHostName(host);
    const reason = state === 'failed' ? clipError(error ?? 'the build failed') : null;
    // One statement: the host's row (a live one stays live: a failed rebuild
    // changes nothing) and the version's state, live once live on any host,
    // failed while failed on one and live on none.
    const result = await this.#pool.query(
      `WITH recorded AS (
         INSERT INTO site_builds (version, host, state, error, at)
         SELECT version, $2, $3, $4, $5::timestamptz FROM site_content_versions WHERE version = $1
         ON CONFLICT (version, host) DO UPDATE
           SET state = excluded.state, error = excluded.error, at = excluded.at
           WHERE site_builds.state <> 'live'
       )
       UPDATE site_content_versions
       SET state = $3,
           error = $4,
           live_at = CASE WHEN $3 = 'live' THEN $5::timestamptz ELSE live_at END
       WHERE version = $1
         AND (CASE WHEN $3 = 'live' THEN state <> 'live'
                   ELSE state IN ('publishing', 'superseded') END)`,
      [version, host, state, reason, new Date().toISOString()],
    );
    return result.rowCount === 1;
  }

  async listSiteBuilds(fromVersion: number): Promise<SiteBuildRecord[]> {
    const from = Number.isSafeInteger(fromVersion)
      ? Math.max(-2_147_483_648, Math.min(fromVersion, 2_147_483_647))
      : 0;
    const result = await this.#pool.query(
      `SELECT ${BUILD_COLUMNS} FROM site_builds WHERE version >= $1
       ORDER BY version DESC, host LIMIT 2000`,
      [from],
    );
    return (result.rows as Row[]).map(toBuild);
  }

  async siteHostsServing(): Promise<SiteHostServing[]> {
    const result = await this.#pool.query(
      `SELECT DISTINCT ON (host) host, version, at FROM site_builds
       WHERE state = 'live' ORDER BY host, version DESC`,
    );
    return (result.rows as Row[]).map((row) => ({
      host: String(row.host),
      version: Number(row.version),
      at: iso(row.at) ?? '',
    }));
  }

  async newestLiveSiteContent(): Promise<SiteContentVersionRecord | null> {
    return this.#newestLive();
  }

  async siteContentVersion(version: number): Promise<SiteContentVersionRecord | null> {
    if (!checkVersionNumber(version) || version > 2_147_483_647) return null;
    const result = await this.#pool.query(
      `SELECT ${VERSION_COLUMNS} FROM site_content_versions WHERE version = $1`,
      [version],
    );
    const row = result.rows[0] as Row | undefined;
    return row ? toVersion(row) : null;
  }

  async listSiteContentVersions(limit: number): Promise<SiteContentVersionRecord[]> {
    const count = Math.max(1, Math.min(Math.floor(limit), SITE_CONTENT_VERSIONS_MAX));
    const result = await this.#pool.query(
      `SELECT ${VERSION_COLUMNS} FROM site_content_versions ORDER BY version DESC LIMIT $1`,
      [count],
    );
    return (result.rows as Row[]).map(toVersion);
  }

  async addSitePhoto(photo: NewSitePhoto): Promise<SitePhotoInfo> {
    checkSitePhoto(photo);
    const result = await this.#pool.query(
      `INSERT INTO site_photos (id, bytes, width, height, created_at, created_by)
       VALUES ($1, $2, $3, $4, $5::timestamptz, $6)
       RETURNING id, width, height, created_at, created_by`,
      [
        randomUUID(),
        Buffer.from(photo.bytes.buffer, photo.bytes.byteOffset, photo.bytes.byteLength),
        photo.width,
        photo.height,
        new Date().toISOString(),
        photo.ownerId,
      ],
    );
    const row = result.rows[0] as Row | undefined;
    if (!row) throw new Error('The photo was not stored');
    return toSitePhotoInfo(row);
  }

  async deleteUnusedSitePhotos(ids: readonly string[]): Promise<string[]> {
    const wanted = ids.filter((id) => UUID.test(id));
    if (wanted.length === 0) return [];
    const result = await this.#pool.query(
      `DELETE FROM site_photos
       WHERE id = ANY($1::uuid[])
         AND NOT EXISTS (
           SELECT 1 FROM site_content_versions AS v,
             jsonb_array_elements(v.content -> 'jobPhotos') AS p
           WHERE p ->> 'photoId' = site_photos.id::text)
         AND NOT EXISTS (
           SELECT 1 FROM site_content_draft AS d, jsonb_array_elements(d.content) AS p
           WHERE d.section = 'jobPhotos' AND p ->> 'photoId' = site_photos.id::text)
       RETURNING id`,
      [wanted],
    );
    return (result.rows as Row[]).map((row) => String(row.id));
  }

  async sitePhoto(id: string): Promise<SitePhotoRecord | null> {
    if (!UUID.test(id)) return null;
    const result = await this.#pool.query(
      'SELECT id, bytes, width, height, created_at, created_by FROM site_photos WHERE id = $1',
      [id],
    );
    const row = result.rows[0] as Row | undefined;
    if (!row) return null;
    const bytes = row.bytes;
    // A plain Uint8Array, as the SQLite store has it (pg gives a Buffer).
    return {
      ...toSitePhotoInfo(row),
      bytes: new Uint8Array(bytes instanceof Uint8Array ? bytes : []),
    };
  }

  async removeSiteTestimonialsOfLeads(
    leadIds: readonly string[],
  ): Promise<{ versions: number[]; draft: boolean }> {
    const ids = [...new Set(leadIds)];
    if (ids.length === 0) return { versions: [], draft: false };
    // One statement, so atomic: every version and the draft, or nothing.
    const kept = (list: string) =>
      `(SELECT coalesce(jsonb_agg(t.item ORDER BY t.n), '[]'::jsonb)
          FROM jsonb_array_elements(${list}) WITH ORDINALITY AS t(item, n)
          WHERE NOT coalesce(t.item ->> 'leadId', '') = ANY($1::text[]))`;
    const names = (list: string) =>
      `EXISTS (SELECT 1 FROM jsonb_array_elements(${list}) AS t(item)
                 WHERE t.item ->> 'leadId' = ANY($1::text[]))`;
    const result = await this.#pool.query(
      `WITH versions AS (
         UPDATE site_content_versions AS v
         SET content = jsonb_set(v.content, '{testimonials}', ${kept("v.content -> 'testimonials'")})
         WHERE ${names("v.content -> 'testimonials'")}
         RETURNING v.version
       ), draft AS (
         UPDATE site_content_draft AS d
         SET content = ${kept('d.content')}, revision = d.revision + 1,
           updated_at = $2::timestamptz, updated_by = NULL
         WHERE d.section = 'testimonials' AND ${names('d.content')}
         RETURNING d.section
       )
       SELECT coalesce((SELECT array_agg(version ORDER BY version) FROM versions), '{}') AS versions,
         EXISTS (SELECT 1 FROM draft) AS draft`,
      [ids, new Date().toISOString()],
    );
    const row = result.rows[0] as Row;
    return { versions: (row.versions as unknown[]).map(Number), draft: row.draft === true };
  }
}

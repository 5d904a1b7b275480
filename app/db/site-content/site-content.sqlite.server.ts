import { randomUUID } from 'node:crypto';
import type { SQLOutputValue } from 'node:sqlite';
import type { SiteContent, SiteContentSection } from '../../content/site-content.ts';
import type { SqliteConnection } from '../sqlite-connection.server.ts';
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
  withoutTestimonialsOf,
} from './site-content.server.ts';

/**
 * The SQLite half of the site's content (site-content.server.ts): the
 * owner's draft, the published versions, each host's builds and the job
 * photos, on the embedded store's one connection.
 */

type Row = Record<string, SQLOutputValue>;

const textOrNull = (value: SQLOutputValue | undefined) =>
  value === null || value === undefined ? null : String(value);

const VERSION_COLUMNS =
  'version, content, created_at, created_by, restored_from, state, error, live_at';

function toVersion(row: Row): SiteContentVersionRecord {
  return {
    version: Number(row.version),
    content: JSON.parse(String(row.content)) as SiteContent,
    created_at: String(row.created_at),
    created_by: textOrNull(row.created_by),
    restored_from: row.restored_from === null ? null : Number(row.restored_from),
    state: String(row.state) as SiteContentVersionState,
    error: textOrNull(row.error),
    live_at: textOrNull(row.live_at),
  };
}

const BUILD_COLUMNS = 'version, host, state, error, at';

function toBuild(row: Row): SiteBuildRecord {
  return {
    version: Number(row.version),
    host: String(row.host),
    state: String(row.state) as SiteBuildState,
    error: textOrNull(row.error),
    at: String(row.at),
  };
}

function toDraftRow(row: Row): DraftRow {
  return {
    section: String(row.section),
    content: JSON.parse(String(row.content)) as unknown,
    revision: Number(row.revision),
    updated_at: String(row.updated_at),
    updated_by: textOrNull(row.updated_by),
  };
}

function toSitePhotoInfo(row: Row): SitePhotoInfo {
  return {
    id: String(row.id),
    width: Number(row.width),
    height: Number(row.height),
    created_at: String(row.created_at),
    created_by: textOrNull(row.created_by),
  };
}

export class SqliteSiteContentStore implements SiteContentStore {
  readonly #db: SqliteConnection;

  constructor(db: SqliteConnection) {
    this.#db = db;
  }

  #newestLive(): SiteContentVersionRecord | null {
    const row = this.#db
      .statement(
        `SELECT ${VERSION_COLUMNS} FROM site_content_versions
         WHERE state = 'live' ORDER BY version DESC LIMIT 1`,
      )
      .get();
    return row ? toVersion(row) : null;
  }

  async siteContentDraft(): Promise<SiteContentDraft> {
    return this.#db.attempt('read', () => {
      const rows = this.#db
        .statement(
          'SELECT section, content, revision, updated_at, updated_by FROM site_content_draft',
        )
        .all()
        .map(toDraftRow);
      return assembleDraft(rows, this.#newestLive()?.content ?? null);
    });
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
    return this.#db.attempt('write', () =>
      this.#db.transaction((): SiteContentSaveResult<S> => {
        const saved =
          expectedRevision === 0
            ? this.#db
                .statement(
                  `INSERT INTO site_content_draft (section, content, revision, updated_at, updated_by)
                   VALUES (?, ?, 1, ?, ?) ON CONFLICT (section) DO NOTHING
                   RETURNING section, content, revision, updated_at, updated_by`,
                )
                .get(section, json, at, ownerId)
            : this.#db
                .statement(
                  `UPDATE site_content_draft
                   SET content = ?, revision = revision + 1, updated_at = ?, updated_by = ?
                   WHERE section = ? AND revision = ?
                   RETURNING section, content, revision, updated_at, updated_by`,
                )
                .get(json, at, ownerId, section, expectedRevision);
        if (saved) {
          return { saved: true, section: draftSection<S>(toDraftRow(saved)) };
        }
        const rows = this.#db
          .statement(
            'SELECT section, content, revision, updated_at, updated_by FROM site_content_draft WHERE section = ?',
          )
          .all(section)
          .map(toDraftRow);
        const draft = assembleDraft(rows, this.#newestLive()?.content ?? null);
        return {
          saved: false,
          reason: 'conflict',
          current: draft[section] as SiteContentDraftSection<S>,
        };
      }),
    );
  }

  async createSiteContentVersion(
    content: SiteContent,
    ownerId: string | null,
    restoredFrom?: number,
  ): Promise<SiteContentVersionRecord> {
    const json = JSON.stringify(checkedContent(content));
    const at = new Date().toISOString();
    const row = await this.#db.attempt('write', () =>
      this.#db
        .statement(
          `INSERT INTO site_content_versions (content, created_at, created_by, restored_from, state)
           VALUES (?, ?, ?, ?, 'publishing') RETURNING ${VERSION_COLUMNS}`,
        )
        .get(json, at, ownerId, restoredFrom ?? null),
    );
    if (!row) throw new Error('The site content version was not stored');
    return toVersion(row);
  }

  async setSiteContentVersionState(
    version: number,
    state: 'live' | 'failed',
    error?: string,
  ): Promise<boolean> {
    if (!checkVersionNumber(version)) return false;
    const at = new Date().toISOString();
    const result = await this.#db.attempt('write', () =>
      this.#db
        .statement(
          `UPDATE site_content_versions SET state = ?, error = ?, live_at = ?
           WHERE version = ? AND state = 'publishing'`,
        )
        .run(
          state,
          state === 'failed' ? clipError(error ?? 'the build failed') : null,
          state === 'live' ? at : null,
          version,
        ),
    );
    return Number(result.changes) === 1;
  }

  async supersedeSiteContentVersions(version: number, host?: string): Promise<number[]> {
    if (!checkVersionNumber(version)) return [];
    if (host !== undefined) checkHostName(host);
    const at = new Date().toISOString();
    const rows = await this.#db.attempt('write', () =>
      this.#db.transaction(() => {
        const superseded = this.#db
          .statement(
            `UPDATE site_content_versions SET state = 'superseded'
             WHERE version < ? AND state = 'publishing' RETURNING version`,
          )
          .all(version);
        if (host !== undefined) {
          const record = this.#db.statement(
            `INSERT INTO site_builds (version, host, state, error, at)
               VALUES (?, ?, 'superseded', NULL, ?) ON CONFLICT (version, host) DO NOTHING`,
          );
          for (const row of superseded) record.run(Number(row.version), host, at);
        }
        return superseded;
      }),
    );
    return rows.map((row) => Number(row.version)).sort((a, b) => a - b);
  }

  async recordSiteBuild(
    version: number,
    host: string,
    state: 'live' | 'failed',
    error?: string,
  ): Promise<boolean> {
    if (!checkVersionNumber(version)) return false;
    checkHostName(host);
    const at = new Date().toISOString();
    const reason = state === 'failed' ? clipError(error ?? 'the build failed') : null;
    return this.#db.attempt('write', () =>
      this.#db.transaction(() => {
        // A host's live build stays live: a failed rebuild (an offer ending) changes nothing.
        this.#db
          .statement(
            `INSERT INTO site_builds (version, host, state, error, at)
             SELECT version, ?, ?, ?, ? FROM site_content_versions WHERE version = ?
             ON CONFLICT (version, host) DO UPDATE
               SET state = excluded.state, error = excluded.error, at = excluded.at
               WHERE site_builds.state <> 'live'`,
          )
          .run(host, state, reason, at, version);
        // Live on any host makes the version live; failed on one, while live on none, failed.
        const changed =
          state === 'live'
            ? this.#db
                .statement(
                  `UPDATE site_content_versions SET state = 'live', error = NULL, live_at = ?
                   WHERE version = ? AND state <> 'live'`,
                )
                .run(at, version)
            : this.#db
                .statement(
                  `UPDATE site_content_versions SET state = 'failed', error = ?
                   WHERE version = ? AND state IN ('publishing', 'superseded')`,
                )
                .run(reason, version);
        return Number(changed.changes) === 1;
      }),
    );
  }

  async listSiteBuilds(fromVersion: number): Promise<SiteBuildRecord[]> {
    const from = Number.isSafeInteger(fromVersion) ? fromVersion : 0;
    return this.#db.attempt('read', () =>
      this.#db
        .statement(
          `SELECT ${BUILD_COLUMNS} FROM site_builds WHERE version >= ?
           ORDER BY version DESC, host LIMIT 2000`,
        )
        .all(from)
        .map(toBuild),
    );
  }

  async siteHostsServing(): Promise<SiteHostServing[]> {
    return this.#db.attempt('read', () =>
      // SQLite takes `at` from the row of MAX(version).
      this.#db
        .statement(
          `SELECT host, MAX(version) AS version, at FROM site_builds
           WHERE state = 'live' GROUP BY host ORDER BY host`,
        )
        .all()
        .map((row) => ({
          host: String(row.host),
          version: Number(row.version),
          at: String(row.at),
        })),
    );
  }

  async newestLiveSiteContent(): Promise<SiteContentVersionRecord | null> {
    return this.#db.attempt('read', () => this.#newestLive());
  }

  async siteContentVersion(version: number): Promise<SiteContentVersionRecord | null> {
    if (!checkVersionNumber(version)) return null;
    return this.#db.attempt('read', () => {
      const row = this.#db
        .statement(`SELECT ${VERSION_COLUMNS} FROM site_content_versions WHERE version = ?`)
        .get(version);
      return row ? toVersion(row) : null;
    });
  }

  async listSiteContentVersions(limit: number): Promise<SiteContentVersionRecord[]> {
    const count = Math.max(1, Math.min(Math.floor(limit), SITE_CONTENT_VERSIONS_MAX));
    return this.#db.attempt('read', () =>
      this.#db
        .statement(
          `SELECT ${VERSION_COLUMNS} FROM site_content_versions ORDER BY version DESC LIMIT ?`,
        )
        .all(count)
        .map(toVersion),
    );
  }

  async addSitePhoto(photo: NewSitePhoto): Promise<SitePhotoInfo> {
    checkSitePhoto(photo);
    const id = randomUUID();
    const at = new Date().toISOString();
    const row = await this.#db.attempt('write', () =>
      this.#db
        .statement(
          `INSERT INTO site_photos (id, bytes, width, height, created_at, created_by)
           VALUES (?, ?, ?, ?, ?, ?) RETURNING id, width, height, created_at, created_by`,
        )
        .get(id, photo.bytes, photo.width, photo.height, at, photo.ownerId),
    );
    if (!row) throw new Error('The photo was not stored');
    return toSitePhotoInfo(row);
  }

  async sitePhoto(id: string): Promise<SitePhotoRecord | null> {
    return this.#db.attempt('read', () => {
      const row = this.#db
        .statement(
          'SELECT id, bytes, width, height, created_at, created_by FROM site_photos WHERE id = ?',
        )
        .get(id);
      if (!row) return null;
      const bytes = row.bytes;
      return {
        ...toSitePhotoInfo(row),
        bytes: new Uint8Array(bytes instanceof Uint8Array ? bytes : []),
      };
    });
  }

  async deleteUnusedSitePhotos(ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.#db.attempt('write', () =>
      this.#db
        .statement(
          `DELETE FROM site_photos
           WHERE id IN (SELECT value FROM json_each(?))
             AND NOT EXISTS (
               SELECT 1 FROM site_content_versions AS v, json_each(v.content, '$.jobPhotos') AS p
                 WHERE json_extract(p.value, '$.photoId') = site_photos.id)
             AND NOT EXISTS (
               SELECT 1 FROM site_content_draft AS d, json_each(d.content) AS p
                 WHERE d.section = 'jobPhotos' AND json_extract(p.value, '$.photoId') = site_photos.id)
           RETURNING id`,
        )
        .all(JSON.stringify(ids)),
    );
    return rows.map((row) => String(row.id));
  }

  async removeSiteTestimonialsOfLeads(
    leadIds: readonly string[],
  ): Promise<{ versions: number[]; draft: boolean }> {
    const ids = new Set(leadIds);
    if (ids.size === 0) return { versions: [], draft: false };
    const at = new Date().toISOString();
    // The store overwrites what it replaces (secure_delete), so the old text goes too.
    return this.#db.attempt('write', () =>
      this.#db.transaction(() => {
        const versions: number[] = [];
        for (const row of this.#db
          .statement(
            'SELECT version, content FROM site_content_versions WHERE content LIKE ? ORDER BY version',
          )
          .all('%"leadId":%')) {
          const content = JSON.parse(String(row.content)) as SiteContent;
          const kept = withoutTestimonialsOf(content.testimonials, ids);
          if (!kept) continue;
          this.#db
            .statement('UPDATE site_content_versions SET content = ? WHERE version = ?')
            .run(JSON.stringify({ ...content, testimonials: kept }), Number(row.version));
          versions.push(Number(row.version));
        }
        const draftRow = this.#db
          .statement("SELECT content FROM site_content_draft WHERE section = 'testimonials'")
          .get();
        const kept = draftRow
          ? withoutTestimonialsOf(
              JSON.parse(String(draftRow.content)) as SiteContent['testimonials'],
              ids,
            )
          : null;
        if (kept) {
          this.#db
            .statement(
              `UPDATE site_content_draft
               SET content = ?, revision = revision + 1, updated_at = ?, updated_by = NULL
               WHERE section = 'testimonials'`,
            )
            .run(JSON.stringify(kept), at);
        }
        return { versions, draft: kept !== null };
      }),
    );
  }
}

import { checkSiteContentSection, JOB_PHOTOS_MAX, type JobPhoto } from '../content/site-content.ts';
import { makeSafePhoto, type SafePhotoRefusal } from '../images/safe-photo.server.ts';
import { JOB_PHOTO_RULES } from '../leads/intake/form-rules.ts';
import {
  declaredOver,
  type BodyRequest,
  type MultipartLimits,
  type MultipartRead,
} from '../http/body.server.ts';
import type { AppStore } from '../db/store.server.ts';
import type { SignedInOwner } from './context.server.ts';
import {
  contentFrom,
  fieldErrors,
  formValuesFrom,
  JOB_PHOTO_FIELDS,
  type FieldErrors,
  type FormValues,
} from './site-fields.ts';
import { SITE_ACTIVITY, siteActivity } from './site-activity.server.ts';
import { invalid, revisionOf, saveDraftSection, type SaveOutcome } from './site-drafts.server.ts';
import { ownerNames } from './site-sections.server.ts';

/*
 * The job photos of /admin/site/photos (docs/operations.md, "Site
 * content"): an upload read within its limits, made safe and stored, and a
 * photo's words saved to the draft. The rest of the site's editing is
 * site-drafts, site-items, site-publishing and site-sections (.server.ts).
 */

/** A job photo's service, description and caption: edit, or remove it from the draft. */
export async function saveJobPhoto(
  store: AppStore,
  owner: SignedInOwner,
  form: URLSearchParams,
  now = new Date(),
): Promise<SaveOutcome & { photoId?: string }> {
  const draft = (await store.siteContentDraft()).jobPhotos;
  const revision = revisionOf(form);
  const photoId = form.get('photoId') ?? '';
  const index = draft.content.findIndex((photo) => photo.photoId === photoId);
  const values = formValuesFrom(form, JOB_PHOTO_FIELDS);
  if (revision === null) return { kind: 'not-found' };
  if (index === -1) {
    if (draft.revision !== revision) {
      return {
        kind: 'conflict',
        current: draft,
        by: await ownerNames(store)(draft.updated_by),
        at: draft.updated_at,
      };
    }
    return { kind: 'not-found' };
  }
  const list =
    form.get('action') === 'remove'
      ? draft.content.filter((photo) => photo.photoId !== photoId)
      : draft.content.map((photo, at) =>
          at === index ? { ...contentFrom(values, JOB_PHOTO_FIELDS), photoId } : photo,
        );
  const checked = checkSiteContentSection('jobPhotos', list);
  if (!checked.ok) {
    return {
      ...invalid(values, fieldErrors(checked.problems, JOB_PHOTO_FIELDS, 2), revision),
      photoId,
    };
  }
  const outcome = await saveDraftSection(store, owner, 'jobPhotos', checked.content, revision, now);
  // A photo taken out of the draft that no version names goes from the
  // store (and from /admin/site/photos); one a version names stays for Restore.
  if (outcome.kind === 'saved' && form.get('action') === 'remove') {
    await store.deleteUnusedSitePhotos([photoId]);
  }
  return { ...outcome, photoId };
}

export const JOB_PHOTO_MESSAGES: Record<SafePhotoRefusal | 'missing' | 'body' | 'full', string> = {
  missing: 'Photo: choose a photo to upload',
  full: `Photo: the draft already has ${JOB_PHOTOS_MAX} photos, the most the site shows. Remove one before adding another.`,
  type: 'Photo: a JPEG, PNG or WebP photo only; this file is none of them, whatever its name says',
  size: `Photo: at most ${JOB_PHOTO_RULES.maxBytes / 1024 / 1024} MB`,
  pixels: `Photo: at most ${JOB_PHOTO_RULES.maxPixels / 1_000_000} megapixels`,
  unreadable: 'Photo: the file could not be read as a photo; it may be damaged. Choose another.',
  body: `Photo: the upload is larger than ${JOB_PHOTO_RULES.maxBytes / 1024 / 1024} MB`,
};

/** The most a job photo's post may hold: the photo and its few text fields. */
export const JOB_PHOTO_BODY_LIMIT = JOB_PHOTO_RULES.maxBytes + 64 * 1024;

/**
 * A job photo's multipart post, as the one body reader reads it
 * (app/http/body.server.ts, through the page's `readMultipart`): one file
 * (`photo`) of at most JOB_PHOTO_RULES.maxBytes, written to a temporary
 * file as it arrives, never held whole in memory; a few short text fields;
 * no more than the two together in all.
 */
export const JOB_PHOTO_UPLOAD: MultipartLimits = {
  bodyBytes: JOB_PHOTO_BODY_LIMIT,
  fileField: 'photo',
  files: 1,
  fileBytes: JOB_PHOTO_RULES.maxBytes,
  fields: 10,
  fieldBytes: 16 * 1024,
};

/** An upload read within JOB_PHOTO_UPLOAD. */
export type UploadRead = Extract<MultipartRead, { ok: true }>;

/**
 * Why a job photo's post is refused before a byte of it is read: its
 * declared length is over the limit (`body`, 413), or the draft already has
 * JOB_PHOTOS_MAX photos (`full`); null when it is to be read.
 */
export async function jobPhotoUploadRefusal(
  store: AppStore,
  request: Pick<BodyRequest, 'headers'>,
): Promise<'body' | 'full' | null> {
  if (declaredOver(request, JOB_PHOTO_BODY_LIMIT)) return 'body';
  const draft = await store.siteContentDraft();
  return draft.jobPhotos.content.length >= JOB_PHOTOS_MAX ? 'full' : null;
}

export type UploadOutcome =
  { kind: 'added'; photoId: string } | { kind: 'invalid'; values: FormValues; errors: FieldErrors };

/**
 * An uploaded job photo: its details checked by the schema, the file made
 * safe (safe-photo.server.ts: 20 MB, 40 MP, re-encoded without metadata),
 * stored, and added to the draft's job photos. Adding only appends, so it
 * goes onto the draft as it is now, whoever saved it last.
 */
export async function uploadJobPhoto(
  store: AppStore,
  owner: SignedInOwner,
  upload: UploadRead,
  now = new Date(),
): Promise<UploadOutcome> {
  const values = formValuesFrom(upload.fields, JOB_PHOTO_FIELDS);
  const file = upload.files[0];
  const details = contentFrom(values, JOB_PHOTO_FIELDS);
  // A placeholder id for the check: the photo is stored only once the details pass.
  const check = checkSiteContentSection('jobPhotos', [
    { ...details, photoId: '00000000-0000-4000-8000-000000000000' },
  ]);
  const errors = check.ok
    ? { byField: {}, other: [] }
    : fieldErrors(check.problems, JOB_PHOTO_FIELDS, 2);
  const refuse = async (reason: keyof typeof JOB_PHOTO_MESSAGES) => {
    if (reason !== 'missing' && reason !== 'full') {
      await store.recordActivity(
        siteActivity(
          owner.email,
          SITE_ACTIVITY.photoRefused,
          { reason: reason === 'body' ? 'size' : reason },
          now,
        ),
      );
    }
    return {
      kind: 'invalid',
      values,
      errors: { ...errors, byField: { ...errors.byField, photo: JOB_PHOTO_MESSAGES[reason] } },
    } as const;
  };
  // Before anything is made safe or stored: a draft that is full takes no more.
  if ((await store.siteContentDraft()).jobPhotos.content.length >= JOB_PHOTOS_MAX) {
    return refuse('full');
  }
  if (upload.problems.includes('too-large')) return refuse('size');
  if (!file) return refuse('missing');
  if (!check.ok) return { kind: 'invalid', values, errors };
  const safe = await makeSafePhoto(file, {
    maxBytes: JOB_PHOTO_RULES.maxBytes,
    maxPixels: JOB_PHOTO_RULES.maxPixels,
    maxEdge: JOB_PHOTO_RULES.maxEdge,
  });
  if (!safe.ok) return refuse(safe.reason);
  const stored = await store.addSitePhoto({
    bytes: new Uint8Array(safe.photo.data),
    width: safe.photo.width,
    height: safe.photo.height,
    ownerId: owner.id,
  });
  await store.recordActivity(
    siteActivity(owner.email, SITE_ACTIVITY.photoAdded, { photo: stored.id }, now),
  );
  const photo = {
    ...(check.ok ? (check.content[0] as JobPhoto) : ({} as JobPhoto)),
    photoId: stored.id,
  };
  // Appended to the draft as it is now; another owner's save meanwhile is kept.
  for (let attempt = 0; attempt < 5; attempt++) {
    const draft = (await store.siteContentDraft()).jobPhotos;
    const list = checkSiteContentSection('jobPhotos', [...draft.content, photo]);
    if (!list.ok) {
      return { kind: 'invalid', values, errors: fieldErrors(list.problems, JOB_PHOTO_FIELDS, 2) };
    }
    const result = await store.saveSiteContentSection(
      'jobPhotos',
      list.content,
      draft.revision,
      owner.id,
    );
    if (result.saved) {
      await store.recordActivity(
        siteActivity(
          owner.email,
          SITE_ACTIVITY.saved,
          { section: 'jobPhotos', revision: result.section.revision },
          now,
        ),
      );
      return { kind: 'added', photoId: stored.id };
    }
  }
  return {
    kind: 'invalid',
    values,
    errors: {
      byField: {},
      other: ['The job photos kept changing while this one was added: try again.'],
    },
  };
}

// ---------------------------------------------------------------------------
// Publishing and restoring

import {
  checkSiteContentSection,
  type SiteContent,
  type SiteContentSection,
} from '../content/site-content.ts';
import type { SiteContentDraftSection } from '../db/site-content/site-content.server.ts';
import type { AppStore } from '../db/store.server.ts';
import type { SignedInOwner } from './context.server.ts';
import { SITE_ACTIVITY, siteActivity } from './site-activity.server.ts';
import { ownerNames } from './site-sections.server.ts';
import {
  contentFrom,
  fieldErrors,
  formValuesFrom,
  hoursFields,
  IDENTITY_FIELDS,
  NOTICE_FIELDS,
  type FieldErrors,
  type FieldSpec,
  type FormValues,
} from './site-fields.ts';

/*
 * Saving the draft (docs/operations.md, "Owner's pages" and "Site
 * content"): each section saved on the revision the owner saw (a save made
 * meanwhile is shown, never overwritten), every field checked by the
 * section's schema. The business details, the hours and the notice are
 * saved whole here; offers and testimonials one at a time
 * (site-items.server.ts), job photos in site-photos.server.ts.
 */

/** What a save did, for the page to show. */
export type SaveOutcome =
  | { kind: 'saved'; revision: number }
  /** `revision`: the one the form was made from, for the form shown again. */
  | { kind: 'invalid'; values: FormValues; errors: FieldErrors; revision: number }
  | {
      kind: 'conflict';
      /** The draft as saved meanwhile, and by whom and when. */
      current: SiteContentDraftSection;
      by: string | null;
      at: string | null;
    }
  | { kind: 'not-found' };

export async function saveDraftSection<S extends SiteContentSection>(
  store: AppStore,
  owner: SignedInOwner,
  section: S,
  content: SiteContent[S],
  revision: number,
  now = new Date(),
): Promise<SaveOutcome> {
  const result = await store.saveSiteContentSection(section, content, revision, owner.id);
  if (result.saved) {
    await store.recordActivity(
      siteActivity(
        owner.email,
        SITE_ACTIVITY.saved,
        { section, revision: result.section.revision },
        now,
      ),
    );
    return { kind: 'saved', revision: result.section.revision };
  }
  await store.recordActivity(siteActivity(owner.email, SITE_ACTIVITY.conflict, { section }, now));
  return {
    kind: 'conflict',
    current: result.current,
    by: await ownerNames(store)(result.current.updated_by),
    at: result.current.updated_at,
  };
}

/** The revision a form was made from: a whole number, else -1 (refused by the store as a conflict… never saved). */
export function revisionOf(form: URLSearchParams): number | null {
  const revision = Number(form.get('revision') ?? '');
  return Number.isSafeInteger(revision) && revision >= 0 ? revision : null;
}

export function invalid(values: FormValues, errors: FieldErrors, revision: number): SaveOutcome {
  return { kind: 'invalid', values, errors, revision };
}

/** A whole-section form (business details, hours, notice): check, then save on the revision seen. */
async function saveSectionForm<S extends SiteContentSection>(
  store: AppStore,
  owner: SignedInOwner,
  section: S,
  fields: readonly FieldSpec[],
  form: URLSearchParams,
  shape: (content: Record<string, unknown>) => unknown = (content) => content,
  now = new Date(),
): Promise<SaveOutcome> {
  const values = formValuesFrom(form, fields);
  const revision = revisionOf(form);
  if (revision === null) return { kind: 'not-found' };
  const checked = checkSiteContentSection(section, shape(contentFrom(values, fields)));
  if (!checked.ok) return invalid(values, fieldErrors(checked.problems, fields, 1), revision);
  return saveDraftSection(store, owner, section, checked.content, revision, now);
}

export function saveIdentity(
  store: AppStore,
  owner: SignedInOwner,
  form: URLSearchParams,
  now = new Date(),
): Promise<SaveOutcome> {
  return saveSectionForm(store, owner, 'identity', IDENTITY_FIELDS, form, undefined, now);
}

/** The lines of opening hours the form posted, without the empty ones. */
function openingLines(form: URLSearchParams): number {
  let lines = 0;
  for (const name of form.keys()) {
    const match = /^openingHours\.(\d)\./.exec(name);
    if (match) lines = Math.max(lines, Number(match[1]) + 1);
  }
  return lines;
}

export function hoursFormFields(content: SiteContent['hours']): FieldSpec[] {
  return hoursFields(content.openingHours.length);
}

export function saveHours(
  store: AppStore,
  owner: SignedInOwner,
  form: URLSearchParams,
  now = new Date(),
): Promise<SaveOutcome> {
  const fields = hoursFields(Math.max(0, openingLines(form) - 1));
  return saveSectionForm(
    store,
    owner,
    'hours',
    fields,
    form,
    (content) => {
      const lines = (content.openingHours as Array<Record<string, unknown>> | undefined) ?? [];
      // A line left empty is no line (the form always offers one more).
      const blank = (line: Record<string, unknown>) =>
        (line.days as unknown[]).length === 0 &&
        line.opens === '' &&
        line.closes === '' &&
        line.label === '';
      return { ...content, openingHours: lines.filter((line) => !blank(line)) };
    },
    now,
  );
}

export function hoursFieldsFor(form: URLSearchParams): FieldSpec[] {
  return hoursFields(Math.max(0, openingLines(form) - 1));
}

export async function saveNotice(
  store: AppStore,
  owner: SignedInOwner,
  form: URLSearchParams,
  now = new Date(),
): Promise<SaveOutcome> {
  if (form.get('action') === 'remove') {
    const revision = revisionOf(form);
    if (revision === null) return { kind: 'not-found' };
    return saveDraftSection(store, owner, 'notice', null, revision, now);
  }
  return saveSectionForm(store, owner, 'notice', NOTICE_FIELDS, form, undefined, now);
}

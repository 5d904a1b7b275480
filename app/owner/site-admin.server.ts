import {
  ENDED_OFFER_CTA,
  initialsOf,
  truncateReview,
  type OfferCardData,
  type TestimonialCardData,
} from '../components/home/home-cards.ts';
import { formatLongDateNz } from '../content/format-date.ts';
import { type LaunchProblem } from '../content/launch-problems.ts';
import {
  checkSiteContent,
  checkSiteContentSection,
  nzDate,
  SITE_CONTENT_SECTIONS,
  type ContentProblem,
  type JobPhoto,
  type SiteContent,
  type SiteContentSection,
  type SiteOffer,
  type SiteTestimonial,
} from '../content/site-content.ts';
import { type SafePhotoRefusal } from '../images/safe-photo.server.ts';
import type {
  SiteContentDraft,
  SiteContentDraftSection,
} from '../db/site-content/site-content.server.ts';
import type { AppStore, NewActivity } from '../db/store.server.ts';
import type { SitePublishingControl, SignedInOwner } from './context.server.ts';
import {
  contentFrom,
  fieldErrors,
  fieldId,
  formValuesFrom,
  formValuesOf,
  hoursFields,
  IDENTITY_FIELDS,
  NOTICE_FIELDS,
  OFFER_FIELDS,
  TESTIMONIAL_FIELDS,
  type FieldErrors,
  type FieldSpec,
  type FormValues,
} from './site-fields.ts';

/**
 * What /admin/site decides, apart from its markup (docs/operations.md,
 * "Owner's pages" and "Site content"): each section's draft saved on the
 * revision the owner saw (a save made meanwhile is shown, never
 * overwritten), every field checked by the section's schema, job photos
 * made safe and stored, "Publish" (a new version from the whole draft,
 * checked by the schema, then the builder woken to build it now) and
 * "Restore". Each change is noted in the activity list with section names,
 * version numbers and ids only.
 */

export const SITE_ACTIVITY = {
  saved: 'site.saved',
  conflict: 'site.conflict',
  photoAdded: 'site.photo.added',
  photoRefused: 'site.photo.refused',
  published: 'site.published',
  publishRefused: 'site.publish.refused',
  restored: 'site.restored',
  live: 'site.live',
  failed: 'site.failed',
} as const;

/** The activity list's actor for what the builder and the web server did with a version. */
export const SERVER_ACTOR = 'server';

export function siteActivity(
  actor: string,
  action: (typeof SITE_ACTIVITY)[keyof typeof SITE_ACTIVITY],
  detail: Record<string, string | number>,
  now: Date,
): NewActivity {
  return {
    at: now.toISOString(),
    actor,
    action,
    detail: Object.entries(detail)
      .map(([key, value]) => `${key}=${value}`)
      .join(','),
  };
}

/** A build of a version went live or failed (the publisher's record, server/runtime.server.ts). */
export function siteBuildActivity(version: number, ok: boolean, now: Date): NewActivity {
  return siteActivity(
    SERVER_ACTOR,
    ok ? SITE_ACTIVITY.live : SITE_ACTIVITY.failed,
    { version },
    now,
  );
}

const SECTION_WORDS: Record<SiteContentSection, string> = {
  identity: 'business details',
  hours: 'hours and facts',
  offers: 'offers',
  testimonials: 'testimonials',
  notice: 'notice',
  jobPhotos: 'job photos',
};

const REFUSAL_WORDS: Record<SafePhotoRefusal | 'missing', string> = {
  type: 'not a JPEG, PNG or WebP',
  size: 'too large',
  pixels: 'too many pixels',
  unreadable: 'unreadable',
  missing: 'no file',
};

/** A site line of the activity list in words; undefined for other actions. */
export function describeSiteActivity(action: string, detail: string): string | undefined {
  const parts = new Map(
    detail
      .split(',')
      .map((part) => part.split('='))
      .filter((pair): pair is [string, string] => pair.length === 2),
  );
  const section = SECTION_WORDS[parts.get('section') as SiteContentSection] ?? parts.get('section');
  const version = parts.get('version') ?? '?';
  switch (action) {
    case SITE_ACTIVITY.saved:
      return `Saved the site's ${section} (draft)`;
    case SITE_ACTIVITY.conflict:
      return `Not saved: someone else had saved the site's ${section} meanwhile`;
    case SITE_ACTIVITY.photoAdded:
      return `Uploaded a job photo (${parts.get('photo') ?? '?'})`;
    case SITE_ACTIVITY.photoRefused:
      return `Refused a job photo upload (${REFUSAL_WORDS[parts.get('reason') as SafePhotoRefusal] ?? parts.get('reason')})`;
    case SITE_ACTIVITY.published:
      return `Published the site: version ${version}`;
    case SITE_ACTIVITY.publishRefused:
      return `Publishing refused: the draft has ${parts.get('problems') ?? '?'} problems`;
    case SITE_ACTIVITY.restored:
      return `Restored version ${parts.get('from') ?? '?'} of the site as version ${version}`;
    case SITE_ACTIVITY.live:
      return `Version ${version} of the site is live`;
    case SITE_ACTIVITY.failed:
      return `Version ${version} of the site failed to build; visitors see the version before`;
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------
// The sections: where each is edited, and which pages it changes

export const SECTION_INFO: Record<
  SiteContentSection,
  { title: string; href: string; pages: string }
> = {
  identity: {
    title: 'Business details',
    href: '/admin/site/identity',
    pages:
      'every page (header, footer, the details search engines read), /contact and /privacy-policy',
  },
  hours: {
    title: 'Hours and facts',
    href: '/admin/site/hours',
    pages:
      'every page’s footer, /contact, /about and the pages that state a lead time, fitting time or term (service pages, /terms, /privacy-policy)',
  },
  offers: {
    title: 'Offers',
    href: '/admin/site/offers',
    pages: 'the home page (/): Special offers',
  },
  testimonials: {
    title: 'Testimonials',
    href: '/admin/site/testimonials',
    pages: 'the home page (/): the reviews',
  },
  notice: { title: 'Notice', href: '/admin/site/notice', pages: 'every page, above the header' },
  jobPhotos: {
    title: 'Job photos',
    href: '/admin/site/photos',
    pages: 'the service pages of the photos (Recent work)',
  },
};

/** JSON with object keys in order and nothing undefined: two contents compare by meaning. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>)
            .filter(([, v]) => v !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : inner,
  );
}

/** Whether two contents (sections, items) say the same, whatever their keys' order. */
export function sameCanonicalContent(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

/** The draft's content, whole. */
export function draftContent(draft: SiteContentDraft): SiteContent {
  return Object.fromEntries(
    SITE_CONTENT_SECTIONS.map((section) => [section, draft[section].content]),
  ) as SiteContent;
}

/** Where the checklist's problem is fixed: the editor, at the field. */
export function problemHref(problem: LaunchProblem): string {
  const base = SECTION_INFO[problem.section].href;
  const page =
    problem.item !== undefined &&
    (problem.section === 'offers' || problem.section === 'testimonials')
      ? `${base}/${problem.item}`
      : base;
  return problem.field ? `${page}#${fieldId(problem.field)}` : page;
}

/** What changes between the live content and the draft, item by item. */
export interface DraftChanges {
  sections: SiteContentSection[];
  offers: { added: SiteOffer[]; changed: SiteOffer[]; removed: SiteOffer[] };
  testimonials: {
    added: SiteTestimonial[];
    changed: SiteTestimonial[];
    removed: SiteTestimonial[];
  };
  notice: { from: SiteContent['notice']; to: SiteContent['notice'] } | null;
  /** The service pages whose Recent work changes. */
  photoPages: string[];
  /** The pages the change touches, in words. */
  pages: string[];
}

function itemChanges<T extends { id: number }>(live: readonly T[], draft: readonly T[]) {
  const before = new Map(live.map((item) => [item.id, item]));
  const after = new Map(draft.map((item) => [item.id, item]));
  return {
    added: draft.filter((item) => !before.has(item.id)),
    changed: draft.filter(
      (item) => before.has(item.id) && !sameCanonicalContent(before.get(item.id), item),
    ),
    removed: live.filter((item) => !after.has(item.id)),
  };
}

export function draftChanges(live: SiteContent, draft: SiteContent): DraftChanges {
  const sections = SITE_CONTENT_SECTIONS.filter(
    (section) => !sameCanonicalContent(live[section], draft[section]),
  );
  const photoKey = (photo: JobPhoto) => canonical(photo);
  const livePhotos = new Set(live.jobPhotos.map(photoKey));
  const draftPhotos = new Set(draft.jobPhotos.map(photoKey));
  const services = new Set<string>();
  for (const photo of draft.jobPhotos)
    if (!livePhotos.has(photoKey(photo))) services.add(photo.service);
  for (const photo of live.jobPhotos)
    if (!draftPhotos.has(photoKey(photo))) services.add(photo.service);
  const photoPages = [...services].sort().map((service) => `/services/${service}`);
  return {
    sections,
    offers: itemChanges(live.offers, draft.offers),
    testimonials: itemChanges(live.testimonials, draft.testimonials),
    notice: sameCanonicalContent(live.notice, draft.notice)
      ? null
      : { from: live.notice, to: draft.notice },
    photoPages,
    pages: sections.map((section) =>
      section === 'jobPhotos' && photoPages.length > 0
        ? `${SECTION_INFO.jobPhotos.title}: ${photoPages.join(', ')}`
        : `${SECTION_INFO[section].title}: ${SECTION_INFO[section].pages}`,
    ),
  };
}

/** E-mail addresses of owners by id, asked once each. */
export function ownerNames(store: AppStore): (id: string | null) => Promise<string | null> {
  const known = new Map<string, Promise<string | null>>();
  return (id) => {
    if (!id) return Promise.resolve(null);
    let name = known.get(id);
    if (!name) {
      name = store.getOwner(id).then((owner) => owner?.email ?? 'a removed owner');
      known.set(id, name);
    }
    return name;
  };
}

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

/** The next id of a list of offers or testimonials. */
function nextId(items: ReadonlyArray<{ id: number }>): number {
  return items.reduce((max, item) => Math.max(max, item.id), 0) + 1;
}

/**
 * An offer's or testimonial's form: add (no `id`), edit, or remove
 * (`action=remove`). Saving one of the shipped samples makes it the
 * business's own (no longer `sample`); a testimonial then needs the
 * customer's agreement like any other.
 */
async function saveItem<S extends 'offers' | 'testimonials'>(
  store: AppStore,
  owner: SignedInOwner,
  section: S,
  fields: readonly FieldSpec[],
  form: URLSearchParams,
  now: Date,
): Promise<SaveOutcome & { id?: number }> {
  const draft = (await store.siteContentDraft())[section] as SiteContentDraftSection<S>;
  const items = draft.content as Array<{ id: number; featured?: boolean }>;
  const revision = revisionOf(form);
  const idText = form.get('id') ?? '';
  const id = idText === '' ? null : Number(idText);
  const values = formValuesFrom(form, fields);
  if (revision === null || (id !== null && !Number.isSafeInteger(id))) return { kind: 'not-found' };
  const index = id === null ? -1 : items.findIndex((item) => item.id === id);
  if (id !== null && index === -1) {
    // Removed meanwhile, or never there: a conflict when the draft moved on.
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
  let list: unknown[];
  let savedId = id;
  if (form.get('action') === 'remove') {
    list = items.filter((item) => item.id !== id);
  } else {
    savedId = id ?? nextId(items);
    const item: Record<string, unknown> = { ...contentFrom(values, fields), id: savedId };
    if (section === 'offers' && item.featured !== true) delete item.featured;
    list = index === -1 ? [...items, item] : items.map((old, at) => (at === index ? item : old));
    if (section === 'offers' && item.featured === true) {
      // One featured offer: this one.
      list = list.map((offer) => {
        if (offer === item) return offer;
        const { featured: _featured, ...rest } = offer as SiteOffer;
        return rest;
      });
    }
    const position = index === -1 ? list.length - 1 : index;
    const checked = checkSiteContentSection(section, list);
    if (!checked.ok) {
      const mine = checked.problems.filter(
        (problem) => problem.path.length < 2 || problem.path[1] === position,
      );
      return {
        ...invalid(values, fieldErrors(mine.length ? mine : checked.problems, fields, 2), revision),
        ...(id !== null ? { id } : {}),
      };
    }
    list = checked.content as unknown[];
  }
  const checked = checkSiteContentSection(section, list);
  if (!checked.ok) return invalid(values, fieldErrors(checked.problems, fields, 2), revision);
  const outcome = await saveDraftSection(store, owner, section, checked.content, revision, now);
  return { ...outcome, ...(savedId !== null ? { id: savedId } : {}) };
}

export function saveOffer(
  store: AppStore,
  owner: SignedInOwner,
  form: URLSearchParams,
  now = new Date(),
): Promise<SaveOutcome & { id?: number }> {
  return saveItem(store, owner, 'offers', OFFER_FIELDS, form, now);
}

export function saveTestimonial(
  store: AppStore,
  owner: SignedInOwner,
  form: URLSearchParams,
  now = new Date(),
): Promise<SaveOutcome & { id?: number }> {
  return saveItem(store, owner, 'testimonials', TESTIMONIAL_FIELDS, form, now);
}

/** The form values of one offer or testimonial (a new one: empty, rating 5). */
export function itemValues(
  item: SiteOffer | SiteTestimonial | null,
  fields: readonly FieldSpec[],
): FormValues {
  if (item) return formValuesOf(item, fields);
  const values = formValuesOf({}, fields);
  if ('rating' in values) values.rating = '5';
  if ('ctaLink' in values) values.ctaLink = '/quote';
  return values;
}

// ---------------------------------------------------------------------------
// Job photos

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

// ---------------------------------------------------------------------------
// Previews with the site's own cards (app/components/home)

/** An offer as the home page's card shows it (home-cards.ts), from the content's offer. */
export function offerCardOf(offer: SiteOffer, now = new Date()): OfferCardData {
  const ended = offer.validUntil < nzDate(now);
  return {
    id: offer.id,
    title: offer.title,
    discount: offer.discount,
    ...(offer.description ? { description: offer.description } : {}),
    ...(offer.originalPrice ? { originalPrice: offer.originalPrice } : {}),
    ...(offer.discountedPrice ? { discountedPrice: offer.discountedPrice } : {}),
    validUntil: { iso: offer.validUntil, text: formatLongDateNz(offer.validUntil) },
    ended,
    terms: offer.terms,
    ctaText: ended && offer.ctaLink === '/quote' ? ENDED_OFFER_CTA : offer.ctaText,
    ctaLink: offer.ctaLink,
    featured: offer.featured === true,
  };
}

/** A testimonial as the home page's card shows it. */
export function testimonialCardOf(testimonial: SiteTestimonial): TestimonialCardData {
  return {
    id: testimonial.id,
    name: testimonial.name,
    role: testimonial.role,
    location: testimonial.location,
    rating: testimonial.rating,
    review: testimonial.review,
    shortReview: truncateReview(testimonial.review),
    initials: initialsOf(testimonial.name),
  };
}

/** Where a schema's refusal of the draft is fixed: its section's editor, at the field. */
export function contentProblemHref(problem: ContentProblem, content: SiteContent): string {
  const [section, ...rest] = problem.path.map(String);
  if (!section || !(SITE_CONTENT_SECTIONS as readonly string[]).includes(section)) {
    return '/admin/site';
  }
  const name = section as SiteContentSection;
  const base = SECTION_INFO[name].href;
  if (name === 'offers' || name === 'testimonials') {
    const item = content[name][Number(rest[0])];
    if (!item) return base;
    return `${base}/${item.id}${rest[1] ? `#${fieldId(rest.slice(1).join('.'))}` : ''}`;
  }
  if (name === 'jobPhotos') return base;
  return rest.length > 0 ? `${base}#${fieldId(rest.join('.'))}` : base;
}

import {
  offerCardOf,
  testimonialCardOf,
  type OfferCardData,
  type TestimonialCardData,
} from '../components/home/home-cards.ts';
import { offerOfSite } from '../content/offers.ts';
import { testimonialOfSite } from '../content/testimonials.ts';
import {
  checkSiteContentSection,
  type SiteOffer,
  type SiteTestimonial,
} from '../content/site-content.ts';
import type { SiteContentDraftSection } from '../db/site-content/site-content.server.ts';
import type { AppStore } from '../db/store.server.ts';
import type { SignedInOwner } from './context.server.ts';
import { invalid, revisionOf, saveDraftSection, type SaveOutcome } from './site-drafts.server.ts';
import { ownerNames } from './site-sections.server.ts';
import {
  contentFrom,
  fieldErrors,
  formValuesFrom,
  formValuesOf,
  OFFER_FIELDS,
  TESTIMONIAL_FIELDS,
  type FieldSpec,
  type FormValues,
} from './site-fields.ts';

/*
 * The offers and testimonials (app/pages/admin/site/offers, testimonials):
 * each saved one at a time into its section's list, on the revision the
 * owner saw.
 */

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
    // A review a customer sent keeps the enquiry it came from: no form shows it.
    const leadId = index === -1 ? undefined : (items[index] as { leadId?: string }).leadId;
    if (leadId !== undefined) item.leadId = leadId;
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

/** An offer of the draft as the home page's card shows it (home-cards.ts). */
export function offerPreview(offer: SiteOffer, now = new Date()): OfferCardData {
  return offerCardOf(offerOfSite(offer), now);
}

/** A testimonial of the draft as the home page's card shows it. */
export function testimonialPreview(testimonial: SiteTestimonial): TestimonialCardData {
  return testimonialCardOf(testimonialOfSite(testimonial));
}

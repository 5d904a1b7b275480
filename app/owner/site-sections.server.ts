import type { LaunchProblem } from '../content/launch-problems.ts';
import {
  SITE_CONTENT_SECTIONS,
  type ContentProblem,
  type JobPhoto,
  type SiteContent,
  type SiteContentSection,
  type SiteOffer,
  type SiteTestimonial,
} from '../content/site-content.ts';
import type { SiteContentDraft } from '../db/site-content/site-content.server.ts';
import type { AppStore } from '../db/store.server.ts';
import { getService } from '../content/services.ts';
import { fieldId } from './site-fields.ts';

/*
 * The site's sections as /admin/site shows them (docs/operations.md, "Site
 * content"): where each is edited and which pages it changes, what the
 * draft changes against what is live, and where a problem is fixed.
 */

export const SECTION_INFO: Record<
  SiteContentSection,
  { title: string; href: string; pages: string }
> = {
  identity: {
    title: 'Business details',
    href: '/admin/site/identity',
    pages:
      'every page (header, footer, the details search engines read), the contact page and the privacy policy',
  },
  hours: {
    title: 'Hours and facts',
    href: '/admin/site/hours',
    pages:
      'every page’s footer, the contact and about pages, and the pages that state a lead time, fitting time or term (service pages, terms, privacy policy)',
  },
  offers: {
    title: 'Offers',
    href: '/admin/site/offers',
    pages: 'the home page: Special offers',
  },
  testimonials: {
    title: 'Testimonials',
    href: '/admin/site/testimonials',
    pages: 'the home page: the reviews',
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
  /** How many changes, as the owner counts them: each offer, review and photo, each other section. */
  count: number;
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
  const photoPageNames = [...services]
    .sort()
    .map((service) => `the ${getService(service)?.title ?? service} page`);
  const offers = itemChanges(live.offers, draft.offers);
  const testimonials = itemChanges(live.testimonials, draft.testimonials);
  const items = (changes: { added: unknown[]; changed: unknown[]; removed: unknown[] }) =>
    changes.added.length + changes.changed.length + changes.removed.length;
  const photos =
    draft.jobPhotos.filter((photo) => !livePhotos.has(photoKey(photo))).length +
    live.jobPhotos.filter((photo) => !draftPhotos.has(photoKey(photo))).length;
  const count = sections.reduce(
    (total, section) =>
      total +
      Math.max(
        1,
        section === 'offers'
          ? items(offers)
          : section === 'testimonials'
            ? items(testimonials)
            : section === 'jobPhotos'
              ? photos
              : 1,
      ),
    0,
  );
  return {
    sections,
    offers,
    testimonials,
    count,
    notice: sameCanonicalContent(live.notice, draft.notice)
      ? null
      : { from: live.notice, to: draft.notice },
    photoPages,
    pages: sections.map((section) =>
      section === 'jobPhotos' && photoPages.length > 0
        ? `${SECTION_INFO.jobPhotos.title}: ${photoPageNames.join(', ')} (Recent work)`
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

/**
 * The site's editable content as data (docs/operations.md#site-content): the
 * business identity, the hours with the facts the owner confirms, the
 * offers, the testimonials, a site notice and photos of real jobs. The
 * owner's pages check each section they save with the schemas of
 * site-content-schema.ts (exported here too), and the build checks the
 * whole content with them before it builds anything.
 *
 * The defaults (`defaultSiteContent`) are the shipped modules of this folder
 * (business.ts, facts.ts, offers.ts, testimonials.ts): edit those and the
 * defaults follow. No server module is imported here: the owner's forms and
 * the build both use this file.
 *
 * Dates are New Zealand dates, 'YYYY-MM-DD', read in Pacific/Auckland.
 */
import { defaultBusiness } from './business.ts';
import { defaultFacts, OWNER_FACTS, type OwnerFacts } from './facts.ts';
import { defaultOffers, isoFromOfferDate } from './offers.ts';
import { defaultTestimonials } from './testimonials.ts';
import { type SiteContent, type SiteNotice, type SiteOffer } from './site-content-schema.ts';

export * from './site-content-schema.ts';

// ---------------------------------------------------------------------------
// The defaults: the shipped modules

/** The site content as shipped: what every section reads as until the owner publishes. */
export const defaultSiteContent: SiteContent = {
  identity: {
    name: defaultBusiness.name,
    legalName: defaultBusiness.legalName,
    phone: { ...defaultBusiness.phone },
    email: defaultBusiness.email,
    address: {
      street: defaultBusiness.address.street,
      suburb: defaultBusiness.address.suburb,
      city: defaultBusiness.address.city,
      postcode: defaultBusiness.address.postcode,
      region: defaultBusiness.address.region,
    },
    geo: { ...defaultBusiness.geo },
    social: { ...defaultBusiness.social },
    mapEmbedUrl: defaultBusiness.mapEmbedUrl,
    mapLinkUrl: defaultBusiness.mapLinkUrl,
    privacyOfficer: {
      role: defaultBusiness.privacyOfficer.role,
      email: defaultBusiness.privacyOfficer.email,
    },
  },
  hours: {
    openingHours: defaultBusiness.hours.map((hours) => ({ ...hours, days: [...hours.days] })),
    emergency: {
      label: defaultBusiness.emergency.label,
      hours: defaultBusiness.emergency.hours,
      anyTime: defaultBusiness.emergency.anyTime,
      responseTime: defaultBusiness.emergency.responseTime,
    },
    facts: Object.fromEntries(
      OWNER_FACTS.map((key) => {
        const { question: _question, ...values } = defaultFacts[key];
        return [key, values];
      }),
    ) as OwnerFacts,
  },
  offers: defaultOffers.map(({ validUntil, ...offer }) => ({
    ...offer,
    validUntil: isoFromOfferDate(validUntil),
  })),
  testimonials: defaultTestimonials.map(({ avatar: _avatar, ...testimonial }) => testimonial),
  notice: null,
  jobPhotos: [],
};

// ---------------------------------------------------------------------------
// What is visible at a time

/** Today's date in New Zealand ('YYYY-MM-DD'), whatever the machine's time zone. */
export function nzDate(now: Date): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Pacific/Auckland',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** Whether an offer still runs on New Zealand's `today` (it runs through its last day). */
function offerRuns(offer: SiteOffer, today: string): boolean {
  return offer.validUntil >= today;
}

function noticeShows(notice: SiteNotice, today: string): boolean {
  return (
    (!notice.startsOn || notice.startsOn <= today) && (!notice.endsOn || today <= notice.endsOn)
  );
}

/**
 * The content as the site shows it at `now`: without the offers past their
 * last day and without a notice outside its dates (New Zealand dates). The
 * shipped sample offers stay, marked as ended by the home page
 * (docs/business-rules.md#offers): check:launch refuses them anyway.
 */
export function visibleContent(content: SiteContent, now: Date): SiteContent {
  const today = nzDate(now);
  return {
    ...content,
    offers: content.offers.filter((offer) => offer.sample === true || offerRuns(offer, today)),
    notice: content.notice && noticeShows(content.notice, today) ? content.notice : null,
  };
}

/**
 * A short key of what the site shows from `version` at `now`: it changes
 * exactly when an offer ends or a notice starts or ends (and with the
 * version), so a server that rebuilds when it changes needs no owner to
 * take an ended offer down: 'v4', 'v4-notice', 'v4-ended.2.5'.
 */
export function contentKey(version: number, content: SiteContent, now: Date): string {
  const visible = visibleContent(content, now);
  const shown = new Set(visible.offers.map((offer) => offer.id));
  const ended = content.offers.filter((offer) => !shown.has(offer.id)).map((offer) => offer.id);
  return [
    `v${version}`,
    ...(visible.notice ? ['notice'] : []),
    ...(ended.length > 0 ? [`ended.${ended.join('.')}`] : []),
  ].join('-');
}

/**
 * Shapes the content modules into exactly what the home page cards show.
 * Runs in the home page's data (`homeData`) only, on the server (when the
 * page is prerendered, or answers a form post), so the content never ships
 * as browser JavaScript; the card components import nothing from here but
 * types.
 */
import { glassTypes } from '../../content/glass-types.ts';
import { offers, type Offer, type OfferLink } from '../../content/offers.ts';
import { services, type IconName, type ServiceImage } from '../../content/services.ts';
import { testimonials, type Testimonial } from '../../content/testimonials.ts';

/**
 * docs/interactive-parts.md#testimonial-text: a review longer than this is cut,
 * with a Read more toggle.
 */
export const REVIEW_LIMIT = 150;

export interface ServiceCardData {
  slug: string;
  path: string;
  title: string;
  blurb: string;
  icon: IconName;
  image: ServiceImage;
  /**
   * docs/interactive-parts.md#image-placeholders: the label of the placeholder
   * shown if the image fails.
   */
  placeholderLabel: string;
}

export interface OfferCardData {
  id: number;
  title: string;
  discount: string;
  description?: string;
  originalPrice?: string;
  discountedPrice?: string;
  /** ISO date (for `<time dateTime>`) and how it reads: '30 September 2025'. */
  validUntil: { iso: string; text: string };
  /** Past its end date when the page was built: shown, but marked (see OfferCard). */
  ended: boolean;
  terms: string;
  ctaText: string;
  ctaLink: OfferLink;
  featured: boolean;
}

export interface TestimonialCardData {
  id: number;
  name: string;
  role: string;
  location: string;
  rating: number;
  review: string;
  /** The first REVIEW_LIMIT characters and an ellipsis, or null when the review is short. */
  shortReview: string | null;
  /** Drawn instead of a photograph: 'AT' for 'Aroha T.'. */
  initials: string;
}

export interface GlassTypeCardData {
  slug: string;
  path: string;
  title: string;
  summary: string;
  /** '70% light transmission' as { figure: '70%', label: 'light transmission' }. */
  figures: readonly { figure: string; label: string }[];
  linkText: string;
  image: ServiceImage;
}

/**
 * docs/interactive-parts.md#testimonial-text: cut at 150 characters plus an
 * ellipsis; null when nothing needs cutting.
 */
export function truncateReview(review: string, limit = REVIEW_LIMIT): string | null {
  if (review.length <= limit) return null;
  return `${review.slice(0, limit).trimEnd()}…`;
}

/** The letters of an initials avatar: first letter of each word, at most two. */
export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .map((word) => word.replace(/[^\p{L}]/gu, '').charAt(0))
    .filter(Boolean)
    .slice(0, 2)
    .join('')
    .toUpperCase();
}

/** '52% energy savings' → { figure: '52%', label: 'energy savings' }. */
export function splitKeyFigure(text: string): { figure: string; label: string } {
  const match = /^(\S+)\s+(.+)$/.exec(text);
  return match ? { figure: match[1] ?? text, label: match[2] ?? '' } : { figure: text, label: '' };
}

/** docs/business-rules.md#offers: the dates are month/day/year text: '09/30/2025'. */
export function parseOfferDate(text: string): { year: number; month: number; day: number } {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  const [month, day, year] = [Number(match?.[1]), Number(match?.[2]), Number(match?.[3])];
  // Round-trip through a date so that '30/09/2025' (day first) is refused, not misread.
  const date = new Date(Date.UTC(year, month - 1, day));
  if (!match || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    throw new Error(`offer date is not MM/DD/YYYY: ${text}`);
  }
  return { year, month, day };
}

export function offerDateIso(text: string): string {
  const { year, month, day } = parseOfferDate(text);
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** New Zealand readers expect day before month: '30 September 2025', never '09/30/2025'. */
export function formatOfferDate(text: string): string {
  const { year, month, day } = parseOfferDate(text);
  return new Intl.DateTimeFormat('en-NZ', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(Date.UTC(year, month - 1, day));
}

/**
 * Whether an offer is over at `now`: after the end of its last day in New
 * Zealand. Read at UTC+12 (standard time), the later of the two offsets, so
 * an offer is never called over while it still runs anywhere in the country.
 */
export function offerHasEnded(text: string, now: Date): boolean {
  const { year, month, day } = parseOfferDate(text);
  const endOfDayNz = Date.UTC(year, month - 1, day + 1) - 12 * 60 * 60 * 1000;
  return now.getTime() >= endOfDayNz;
}

export function serviceCards(): ServiceCardData[] {
  return services.map((service) => ({
    slug: service.slug,
    path: service.path,
    title: service.title,
    blurb: service.blurb,
    icon: service.icon,
    image: service.images[0] ?? {
      src: '',
      alt: service.title,
      width: 800,
      height: 600,
    },
    placeholderLabel: service.placeholderLabel,
  }));
}

/** The call to action of an offer that has ended and would send the visitor to claim it. */
export const ENDED_OFFER_CTA = 'Ask About Current Pricing';

/**
 * An offer as its card shows it at `now`: the home page's offers, and the
 * owner's preview of an offer before it is published (/admin/site).
 */
export function offerCardOf(offer: Offer, now: Date): OfferCardData {
  const ended = offerHasEnded(offer.validUntil, now);
  return {
    id: offer.id,
    title: offer.title,
    discount: offer.discount,
    ...(offer.description ? { description: offer.description } : {}),
    ...(offer.originalPrice ? { originalPrice: offer.originalPrice } : {}),
    ...(offer.discountedPrice ? { discountedPrice: offer.discountedPrice } : {}),
    validUntil: { iso: offerDateIso(offer.validUntil), text: formatOfferDate(offer.validUntil) },
    ended,
    terms: offer.terms,
    // 'Claim This Offer' on an ended offer would promise what we no longer
    // give; its quote link stays, to ask what applies now.
    ctaText: ended && offer.ctaLink === '/quote' ? ENDED_OFFER_CTA : offer.ctaText,
    ctaLink: offer.ctaLink,
    featured: offer.featured === true,
  };
}

export function offerCards(now: Date): OfferCardData[] {
  return offers.map((offer) => offerCardOf(offer, now));
}

/** A review as its card shows it: the home page's, and the owner's preview (/admin/site). */
export function testimonialCardOf(testimonial: Testimonial): TestimonialCardData {
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

export function testimonialCards(): TestimonialCardData[] {
  return testimonials.map(testimonialCardOf);
}

export function glassTypeCards(): GlassTypeCardData[] {
  return glassTypes.map((glassType) => ({
    slug: glassType.slug,
    path: glassType.path,
    title: glassType.card.title,
    summary: glassType.card.summary,
    figures: glassType.card.keyFigures.map(splitKeyFigure),
    linkText: glassType.card.linkText,
    image: glassType.image,
  }));
}

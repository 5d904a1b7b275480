/**
 * The five special offers of docs/business-rules.md#offers, shown in the home page carousel.
 * Prices are in New Zealand dollars and include GST.
 *
 * The shipped offers are samples (`sample: true`): the owner replaces them
 * with real ones, or removes them, before launch (`npm run check:launch`).
 *
 * These are the defaults (`defaultOffers`): the offers the owner publishes
 * from /admin/site replace them once they are in place (`offers`, through
 * ./published.ts; docs/operations.md#site-content), without the ones past
 * their date.
 */
import { defaultBusiness } from './business.ts';
import { defaultFacts } from './facts.ts';
import { derived, published } from './published.ts';
import type { SiteOffer } from './site-content-schema.ts';

/** A site path, or 'tel' for the business phone (the offer card builds the tel: link). */
export type OfferLink = `/${string}` | 'tel';

export interface Offer {
  id: number;
  title: string;
  /** Display text, e.g. '$50 off'. */
  discount: string;
  description?: string;
  originalPrice?: string;
  discountedPrice?: string;
  /** Month/day/year, as displayed: '09/30/2025'. */
  validUntil: string;
  terms: string;
  ctaText: string;
  ctaLink: OfferLink;
  /** The featured card gets a highlight ring. */
  featured?: boolean;
  /**
   * Written for the demonstration, not an offer the business has made:
   * advertising it would mislead (Fair Trading Act 1986), so the launch check
   * fails while any offer is marked so.
   */
  sample?: true;
}

export const defaultOffers = [
  {
    id: 1,
    title: 'Home Window Repair of $250 or More',
    discount: '$50 off',
    description:
      'Save $50 on any home window repair or glass replacement worth $250 or more, from a single cracked pane to a fogged double-glazed unit.',
    validUntil: '09/30/2025',
    terms:
      'Applies to residential window repairs and glass replacements of $250 or more (GST inclusive). One discount per job. Cannot be combined with any other offer or the Advantage Plan discount. Mention this offer when you request your quote.',
    ctaText: 'Claim This Offer',
    ctaLink: '/quote',
    featured: true,
    sample: true,
  },
  {
    id: 2,
    title: 'Shower Glass Installation',
    discount: '15% off',
    description: `Take 15% off a new frameless or semi-frameless shower screen in ${defaultFacts.showers.glassThickness} toughened glass, measured, made and installed by our team.`,
    validUntil: '12/31/2025',
    terms:
      'Minimum order $1,500 (GST inclusive). Applies to the supply and installation of new shower glass and hardware; tiling, plumbing and building work are not included. Cannot be combined with any other offer.',
    ctaText: 'Get a Shower Quote',
    ctaLink: '/quote',
    sample: true,
  },
  {
    id: 3,
    title: 'Double Glazing Upgrade',
    discount: '$200 off',
    description:
      'Upgrading from single glass? Take $200 off new double-glazed windows or retrofit double glazing in your existing frames.',
    validUntil: '11/15/2025',
    terms:
      '$200 off orders over $3,000 (GST inclusive) for double glazing or retrofit double glazing. One discount per property. Cannot be combined with any other offer.',
    ctaText: 'Explore Double Glazing',
    ctaLink: '/services/windows',
    sample: true,
  },
  {
    id: 4,
    title: 'Emergency Glass Repair',
    discount: '20% off labour',
    description: `Broken glass at the worst possible time? Save 20% on the labour for your emergency glass repair, ${defaultBusiness.emergency.anyTime}.`,
    validUntil: '10/31/2025',
    terms:
      'Applies to labour on emergency glass repair callouts only; glass, boarding and materials are charged at our normal rates. Mention this offer when you call. Cannot be combined with any other offer or with work billed to an insurer.',
    ctaText: 'Call Now',
    ctaLink: 'tel',
    sample: true,
  },
  {
    id: 5,
    title: 'Kitchen Splashback Package',
    discount: '$100 off',
    description:
      'Save $100 on a back-painted toughened glass splashback for your kitchen, including measuring, colour matching and installation.',
    validUntil: '01/31/2026',
    terms:
      'Applies to the supply and installation of a glass splashback for one kitchen. Cannot be combined with any other offer.',
    ctaText: 'View Splashbacks',
    ctaLink: '/services/splashbacks',
    sample: true,
  },
] as const satisfies readonly Offer[];

/** 'YYYY-MM-DD' (how the site content stores a date) as the offers write it: '09/30/2025'. */
export function offerDateFromIso(iso: string): string {
  const [year, month, day] = iso.split('-');
  return `${month}/${day}/${year}`;
}

/** '09/30/2025' as 'YYYY-MM-DD'. */
export function isoFromOfferDate(text: string): string {
  const [month, day, year] = text.split('/');
  return `${year}-${month}-${day}`;
}

/** An offer of the site content (dates as 'YYYY-MM-DD') as the site shows it. */
export function offerOfSite({ validUntil, ...offer }: SiteOffer): Offer {
  return { ...offer, validUntil: offerDateFromIso(validUntil) };
}

/** The offers the home page shows: the published ones where there are some. */
export let offers: readonly Offer[] = defaultOffers;

derived(() => {
  const publishedOffers = published()?.content.offers;
  offers = publishedOffers ? publishedOffers.map(offerOfSite) : defaultOffers;
});

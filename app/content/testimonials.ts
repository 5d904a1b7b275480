/**
 * The seven customer testimonials of docs/business-rules.md#testimonials, shown
 * in the home page carousel.
 *
 * `avatar` is null for every entry: the card draws the customer's initials
 * rather than showing a photograph.
 *
 * The shipped testimonials are samples (`sample: true`), written for the
 * demonstration: the owner replaces them with real customers' words, given
 * with their permission, before launch (`npm run check:launch`).
 *
 * These are the defaults (`defaultTestimonials`): the reviews the owner
 * publishes from /admin/site, each with the customer's permission, replace
 * them once they are in place (`testimonials`, through ./published.ts;
 * docs/operations.md#site-content).
 */
import { derived, published } from './published.ts';

import type { TestimonialRole } from './content-names.ts';
import type { SiteTestimonial } from './site-content-schema.ts';

export type { TestimonialRole };

export type Rating = 1 | 2 | 3 | 4 | 5;

export interface Testimonial {
  id: number;
  /** First name and last initial. */
  name: string;
  role: TestimonialRole;
  /** A Bay of Plenty town or suburb. */
  location: string;
  rating: Rating;
  /** An image URL, or null to show the customer's initials. */
  avatar: string | null;
  review: string;
  /**
   * Invented for the demonstration, not a real customer's review: publishing
   * it as real would mislead (Fair Trading Act 1986), so the launch check
   * fails while any testimonial is marked so.
   */
  sample?: true;
}

export const defaultTestimonials = [
  {
    id: 1,
    name: 'Aroha T.',
    role: 'Homeowner',
    location: 'Papamoa',
    rating: 5,
    avatar: null,
    review:
      'A gust slammed our ranch slider shut on a Sunday night and the glass shattered across the lounge. They were at the door within the hour, cleaned up every last piece (they even checked under the couch) and boarded it up so we could sleep. The new glass went in on Thursday, for exactly the price they quoted.',
    sample: true,
  },
  {
    id: 2,
    name: 'Mark D.',
    role: 'Business Owner',
    location: 'Mount Maunganui',
    rating: 5,
    avatar: null,
    review:
      'A delivery trolley cracked the front window of our café. They made it safe before we opened, dealt with our insurer directly, and fitted the new pane early on a Monday so we did not lose a day of trade. Straightforward people to deal with.',
    sample: true,
  },
  {
    id: 3,
    name: 'Priya S.',
    role: 'Property Manager',
    location: 'Tauranga',
    rating: 5,
    avatar: null,
    review:
      'They are my first call for glass across our rentals. Quick quotes, tenants kept in the loop, and invoices that make sense.',
    sample: true,
  },
  {
    id: 4,
    name: 'Hemi W.',
    role: 'Contractor',
    location: 'Te Puke',
    rating: 5,
    avatar: null,
    review:
      'Showers and balustrades on three of our builds now. They measure once, turn up when they say, and the glass fits first time.',
    sample: true,
  },
  {
    id: 5,
    name: 'Sophie L.',
    role: 'Interior Designer',
    location: 'Bethlehem',
    rating: 5,
    avatar: null,
    review:
      'I specified a pale sage splashback and was nervous about the colour on glass. They suggested low-iron glass, made a sample for my client to approve, and the finished splashback matched the cabinetry perfectly. Every cut-out was spot on, too.',
    sample: true,
  },
  {
    id: 6,
    name: 'Graham R.',
    role: 'Homeowner',
    location: 'Katikati',
    rating: 5,
    avatar: null,
    review:
      'Our 1960s bungalow had lovely old timber windows and freezing bedrooms. Instead of selling us new joinery, they retrofitted double glazing into the frames that were sound and were honest about the two that were not. The house is warmer, the windows no longer run with condensation, and the old character is still there.',
    sample: true,
  },
  {
    id: 7,
    name: 'Mere K.',
    role: 'Homeowner',
    location: 'Omokoroa',
    rating: 5,
    avatar: null,
    review:
      'Our glass pool fence passed the council inspection first time, and the grandkids can be seen from the kitchen.',
    sample: true,
  },
] as const satisfies readonly Testimonial[];

/**
 * A review of the site content as the site shows it: the permission and the
 * enquiry it came from are the owner's record, not shown.
 */
export function testimonialOfSite({
  permission: _permission,
  leadId: _leadId,
  ...testimonial
}: SiteTestimonial): Testimonial {
  return { ...testimonial, avatar: null };
}

/** The reviews the home page shows: the published ones where there are some. */
export let testimonials: readonly Testimonial[] = defaultTestimonials;

derived(() => {
  const publishedTestimonials = published()?.content.testimonials;
  testimonials = publishedTestimonials
    ? publishedTestimonials.map(testimonialOfSite)
    : defaultTestimonials;
});

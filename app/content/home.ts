/**
 * Copy of the home page, in the order of docs/screens.md#home-page. The grey section
 * (item 3) is intentionally empty and has no copy. The service cards, offers,
 * testimonials and glass-type cards come from their own modules.
 */
import { derived } from './published.ts';
import { business } from './business.ts';
import { facts } from './facts.ts';

/** A link inside a paragraph. */
export interface InlineLink {
  text: string;
  path: string;
}

/** A paragraph made of plain text and inline links, rendered in order. */
export type RichParagraph = readonly (string | InlineLink)[];

export interface SectionIntro {
  heading: string;
  intro: string;
}

export interface OffersIntro extends SectionIntro {
  /** Shown instead of the intro when every offer has passed its end date. */
  endedIntro: string;
}

export interface HomeHero {
  /** docs/screens.md#home-page: exactly 'Glass Repairs, Replacement, and Installation'. */
  headline: string;
  intro: string;
  trustBadge: {
    /** e.g. '5/5 from 47 customer reviews' */
    text: string;
    reviewCount: number;
    rating: number;
    bestRating: number;
  };
  ctaText: string;
  ctaPath: '/quote';
}

export interface LocalExperts {
  heading: string;
  paragraphs: readonly RichParagraph[];
  /** The accessible label of the service carousel. */
  carouselLabel: string;
}

export type TrustBoxId = 'advantage-plan' | 'workmanship' | 'insurance' | 'pricing';

export interface TrustBox {
  id: TrustBoxId;
  title: string;
  description: string;
  items?: readonly string[];
}

export interface ReasonsToTrust extends SectionIntro {
  boxes: readonly [TrustBox, TrustBox, TrustBox, TrustBox];
}

export interface CtaBanner {
  heading: string;
  text: string;
  buttonText: string;
  buttonPath: string;
}

export interface ServiceAreaSection {
  heading: string;
  paragraphs: readonly string[];
  areasHeading: string;
  areas: readonly string[];
  radiusText: string;
  /** The title of the map iframe, read by screen readers. */
  mapTitle: string;
}

export interface FinalBanner {
  heading: string;
  text: string;
  estimateButtonText: string;
  estimatePath: '/quote';
  phoneLinkText: string;
}

export interface HomeContent {
  metaTitle: string;
  metaDescription: string;
  hero: HomeHero;
  /** The heading and intro of the 'Let Us Call You' form. */
  callBack: SectionIntro;
  localExperts: LocalExperts;
  reasonsToTrust: ReasonsToTrust;
  /** Item 6 and item 9 of the home page. */
  ctaBanners: readonly [CtaBanner, CtaBanner];
  offersSection: OffersIntro;
  testimonialsSection: SectionIntro;
  glassTypesSection: SectionIntro;
  serviceArea: ServiceAreaSection;
  finalBanner: FinalBanner;
}

function joinWithAnd(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

function homeStated() {
  const areas = joinWithAnd(business.areasServed);
  const reviews = business.reviews;
  return {
    metaTitle: 'Glass Repairs & Installation, Tauranga',
    metaDescription: `Glass repairs, replacement and installation for Tauranga homes and businesses since ${business.foundedYear}. ${business.emergency.hours} emergency service, free quotes, fixed prices.`,
    hero: {
      headline: 'Glass Repairs, Replacement, and Installation',
      intro: `Since ${business.foundedYear} we have repaired, replaced and installed glass for homes and businesses across Tauranga and the western Bay of Plenty. From a broken window at midnight to a new frameless shower, you get careful work and a price that does not change.`,
      trustBadge: {
        text: `${reviews.rating}/${reviews.bestRating} from ${reviews.count} customer reviews`,
        reviewCount: reviews.count,
        rating: reviews.rating,
        bestRating: reviews.bestRating,
      },
      ctaText: 'Request an Estimate',
      ctaPath: '/quote',
    },
    callBack: {
      heading: 'Let Us Call You',
      intro:
        'Leave your details and a member of our team will call you back to talk through your glass job and arrange a free quote.',
    },
    localExperts: {
      heading: 'Your Local Glass Experts in Tauranga',
      paragraphs: [
        [
          `${business.name} is a local glazing team that has looked after Bay of Plenty homes and businesses for ${facts.experience.inWords}. We handle everything from a single cracked pane to a full renovation, including new and replacement `,
          { text: 'glass doors', path: '/services/doors' },
          ', ranch sliders and frameless shopfront entries, all in safety glass fitted to NZS 4223.',
        ],
        [
          'If your home is cold, damp or noisy, our ',
          { text: 'windows and double glazing', path: '/services/windows' },
          ` service can help: double glazing can cut heating and cooling costs by ${facts.doubleGlazing.energySaving} and outside noise by ${facts.doubleGlazing.noiseReduction}. Whatever the job, we measure carefully, explain your options plainly and leave your place tidy.`,
        ],
      ],
      carouselLabel: 'Our glass services',
    },
    reasonsToTrust: {
      heading: 'Reasons to Trust',
      intro:
        'Glass work should be safe, tidy and priced fairly. These are the promises we make on every job.',
      boxes: [
        {
          id: 'advantage-plan',
          title: 'The Advantage Plan',
          description:
            'For homeowners, landlords and businesses who want their glass looked after, the Advantage Plan puts you at the front of the queue.',
          items: [
            'Priority scheduling',
            `${business.emergency.hours} emergency service`,
            `${facts.advantagePlan.discount} discount on future repairs`,
            'Breakage guarantee',
            'Transferable agreements',
            'Multi-property coverage',
          ],
        },
        {
          id: 'workmanship',
          title: 'Our Workmanship Promise',
          description: `If anything goes wrong with our installation within ${facts.workmanshipPromise.term} of completion, we come back and put it right at no charge.`,
        },
        {
          id: 'insurance',
          title: 'Help With Insurance Claims',
          description:
            'We provide the quotes, photos and invoices your insurer asks for, work with their assessor, and deal with them directly where they allow it.',
        },
        {
          id: 'pricing',
          title: 'Transparent Pricing',
          description:
            'Our final estimate is the final price. If we find something unexpected, we explain it and need your approval before doing any extra work.',
        },
      ],
    },
    ctaBanners: [
      {
        heading: `Broken glass? We answer ${business.emergency.hours}.`,
        text: `Call any time, ${business.emergency.anyTime}, and we aim to be with you within ${business.emergency.responseTime} to make your home or business safe.`,
        buttonText: 'Request an Estimate',
        buttonPath: '/quote',
      },
      {
        heading: 'Planning a new shower, splashback or balustrade?',
        text: 'Tell us what you have in mind. We will measure up, talk you through the options and give you a free, fixed-price quote.',
        buttonText: 'Get a Free Quote',
        buttonPath: '/quote',
      },
    ],
    offersSection: {
      heading: 'Special Offers',
      intro: 'Current savings on some of our most popular glass work. Terms apply to each offer.',
      endedIntro:
        'Our latest offers have all ended. Ask us about current pricing: we will always tell you about any saving that applies to your job, and every quote is free.',
    },
    testimonialsSection: {
      heading: 'What Our Customers Say',
      intro: `Rated ${reviews.rating} out of ${reviews.bestRating} across ${reviews.count} reviews by homeowners, businesses and builders around the Bay.`,
    },
    glassTypesSection: {
      heading: 'Premium Glass Types We Install',
      intro:
        'The right glass makes a room cooler in summer, warmer in winter and brighter all year. These are the two we recommend most.',
    },
    serviceArea: {
      heading: 'Serving Tauranga and Surrounding Areas',
      paragraphs: [
        `Our workshop is in ${business.address.suburb}, ${business.address.city}, and our vans are on the road every day across ${areas}.`,
        `We also take on work further afield, up to ${business.serviceRadiusKm}km from our ${business.address.city} base, for larger projects and for customers who want a glazier they already trust.`,
      ],
      areasHeading: 'Areas we serve',
      areas: business.areasServed,
      radiusText: `Service radius: ${business.serviceRadiusKm}km from ${business.address.city}`,
      mapTitle: `Map of ${business.name} in ${business.address.suburb}, ${business.address.city}`,
    },
    finalBanner: {
      heading: 'Ready to get started?',
      text: 'Request a free estimate online, or give us a call and talk to a glazier today.',
      estimateButtonText: 'Request an Estimate',
      estimatePath: '/quote',
      phoneLinkText: `Call ${business.phone.display}`,
    },
  } as const satisfies HomeContent;
}

export let home = homeStated();

derived(() => {
  home = homeStated();
});

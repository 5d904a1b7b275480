/**
 * The schema of the site's editable content (docs/operations.md#site-content):
 * the zod schemas of every section, their types and the checks the owner's
 * pages and the build run. It imports only zod, the plain names of
 * content-names.ts, and the phone and map rules of nz-phone.ts and
 * map-place.ts, so published.ts can name the content's types without a
 * circle; the defaults are in site-content.ts.
 *
 * Dates are New Zealand dates, 'YYYY-MM-DD', read in Pacific/Auckland.
 */
import { z } from 'zod';
import { SERVICE_SLUGS, type TestimonialRole, type Weekday } from './content-names.ts';
import { dialledNumber, isInternationalForm, PHONE_DISPLAY_MAX } from './nz-phone.ts';
import { addressQuery, mapPlace } from './map-place.ts';

// ---------------------------------------------------------------------------
// Building blocks

/** Control characters other than tab, and the line and paragraph separators. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f\u2028\u2029]/;

/** One line of text: trimmed, required, at most `max` characters. */
function line(label: string, max: number) {
  return z
    .string({ error: `${label}: enter it` })
    .trim()
    .min(1, `${label}: enter it`)
    .max(max, `${label}: at most ${max} characters`)
    .refine((text) => !CONTROL.test(text), `${label}: one line, without line breaks`);
}

/** A longer text: line breaks allowed, no other control characters. */
function paragraph(label: string, max: number) {
  return z
    .string({ error: `${label}: enter it` })
    .trim()
    .min(1, `${label}: enter it`)
    .max(max, `${label}: at most ${max} characters`)
    .refine(
      // eslint-disable-next-line no-control-regex
      (text) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text),
      `${label}: remove the invisible control characters`,
    );
}

function optionalLine(label: string, max: number) {
  return line(label, max).optional();
}

/** A calendar date as 'YYYY-MM-DD' (a New Zealand date). */
function date(label: string) {
  return z.iso.date({ error: `${label}: a date written YYYY-MM-DD, such as 2026-03-31` });
}

function httpsUrl(label: string) {
  return z
    .string({ error: `${label}: enter the address` })
    .trim()
    .max(2000, `${label}: at most 2000 characters`)
    .pipe(
      z.url({
        protocol: /^https$/,
        error: `${label}: a full web address starting with https://`,
      }),
    );
}

function email(label: string) {
  return z
    .string({ error: `${label}: enter the e-mail address` })
    .trim()
    .max(254, `${label}: at most 254 characters`)
    .pipe(z.email({ error: `${label}: an e-mail address such as office@your-business.co.nz` }));
}

const WEEKDAYS = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
] as const satisfies readonly Weekday[];

const TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

function time(label: string) {
  return z
    .string({ error: `${label}: a time such as 07:30` })
    .regex(TIME, `${label}: a time on the 24-hour clock, such as 07:30 or 17:00`);
}

// ---------------------------------------------------------------------------
// The sections

/**
 * The embedded map is framed from Google Maps only: the server's Content
 * Security Policy allows that one origin (server/csp.server.ts).
 */
export const MAP_EMBED_PREFIX = 'https://www.google.com/maps';

/**
 * The hosts Google gives a business's "write a review" link on: its short
 * link (g.page, maps.app.goo.gl), Search and Maps. Nothing else is linked
 * as the business's Google review page.
 */
export const GOOGLE_REVIEW_HOSTS: ReadonlySet<string> = new Set([
  'g.page',
  'maps.app.goo.gl',
  'goo.gl',
  'google.com',
  'www.google.com',
  'search.google.com',
  'maps.google.com',
  'google.co.nz',
  'www.google.co.nz',
  'maps.google.co.nz',
]);

export const identitySchema = z
  .object({
    name: line('Business name', 80),
    legalName: line('Legal name', 120),
    /**
     * The number is typed once, as visitors read it; its international form
     * (`e164`, what every tel: link dials) is worked out from it at every
     * check, so the two always agree (nz-phone.ts). Content saved before
     * carries both: where they disagree the number shown wins; where the
     * shown number gives no international form, a stored one is kept, so
     * older content still builds (the owner's next save asks for a number
     * that can be called).
     */
    phone: z
      .object({
        display: line('Phone number', PHONE_DISPLAY_MAX),
        e164: z.string().optional(),
      })
      .transform((phone, context) => {
        const dialled = dialledNumber(phone.display);
        if (dialled.ok) return { display: phone.display, e164: dialled.e164 };
        const stored = phone.e164?.trim();
        if (stored && isInternationalForm(stored)) return { display: phone.display, e164: stored };
        context.addIssue({ code: 'custom', path: ['display'], message: dialled.message });
        return z.NEVER;
      }),
    email: email('E-mail address'),
    address: z.object({
      street: line('Street address', 120),
      suburb: line('Suburb', 60),
      city: line('Town or city', 60),
      postcode: z
        .string({ error: 'Postcode: enter it' })
        .trim()
        .regex(/^\d{4}$/, 'Postcode: four digits, such as 3110'),
      region: line('Region', 60),
    }),
    /**
     * The map is set by what the owner gives (`map`: a Google Maps link or
     * the address in words, map-place.ts), or follows the street address
     * when they give nothing: the embedded map, the map link and, only when
     * the link carries them, the coordinates are worked out from it at every
     * check. Content saved before `map` keeps its own three.
     */
    map: z
      .string({ error: 'Map: a Google Maps link or the address' })
      .superRefine((text, context) => {
        // Checked here, beside the other fields; the address it may fall back on is not needed.
        const place = mapPlace(text, '');
        if (!place.ok) context.addIssue({ code: 'custom', message: place.message });
      })
      .optional(),
    geo: z
      .object({
        latitude: z
          .number({ error: 'Latitude: a number, such as -37.7512' })
          .min(-48, 'Latitude: a place in New Zealand, between -48 and -34')
          .max(-34, 'Latitude: a place in New Zealand, between -48 and -34'),
        longitude: z
          .number({ error: 'Longitude: a number, such as 176.1003' })
          .min(166, 'Longitude: a place in New Zealand, between 166 and 179')
          .max(179, 'Longitude: a place in New Zealand, between 166 and 179'),
      })
      .optional(),
    social: z.object({
      facebook: httpsUrl('Facebook page'),
      instagram: httpsUrl('Instagram page'),
    }),
    mapEmbedUrl: httpsUrl('Embedded map address')
      .refine(
        (address) =>
          address.startsWith(`${MAP_EMBED_PREFIX}?`) || address.startsWith(`${MAP_EMBED_PREFIX}/`),
        `Embedded map address: a Google Maps embed address, starting with ${MAP_EMBED_PREFIX}`,
      )
      .optional(),
    mapLinkUrl: httpsUrl('Map link').optional(),
    /**
     * Where a customer who has sent a review on the site may write one on
     * Google too (docs/operations.md, "Reviews"): the link Google gives the
     * business, on a Google host only.
     */
    googleReviewUrl: httpsUrl('Google review page')
      .refine(
        (address) => GOOGLE_REVIEW_HOSTS.has(new URL(address).hostname),
        'Google review page: the address Google gives for writing a review, such as https://g.page/r/…/review',
      )
      .optional(),
    privacyOfficer: z.object({
      role: line('Privacy Officer’s role', 60),
      name: optionalLine('Privacy Officer’s name', 80),
      email: email('Privacy Officer’s e-mail address'),
    }),
  })
  .transform((identity, context) => {
    const { map, geo, mapEmbedUrl, mapLinkUrl, ...rest } = identity;
    if (map === undefined && mapEmbedUrl !== undefined && mapLinkUrl !== undefined) {
      return { ...rest, ...(geo ? { geo } : {}), mapEmbedUrl, mapLinkUrl };
    }
    const place = mapPlace(map ?? '', addressQuery(identity.address));
    if (!place.ok) {
      context.addIssue({ code: 'custom', path: ['map'], message: place.message });
      return z.NEVER;
    }
    const given = map?.trim();
    return {
      ...rest,
      ...(given ? { map: given } : {}),
      ...(place.geo ? { geo: place.geo } : {}),
      mapEmbedUrl: place.mapEmbedUrl,
      mapLinkUrl: place.mapLinkUrl,
    };
  });

const openingHoursSchema = z
  .object({
    days: z
      .array(z.enum(WEEKDAYS, { error: 'Days: choose days of the week' }))
      .min(1, 'Days: choose at least one day')
      .refine((days) => new Set(days).size === days.length, 'Days: each day once'),
    opens: time('Opens at'),
    closes: time('Closes at'),
    label: line('Hours as shown', 40),
  })
  .refine((hours) => hours.closes > hours.opens, {
    path: ['closes'],
    error: 'Closes at: later than the opening time',
  });

/** The facts waiting for the owner's word (facts.ts), each with its figures and `confirmed`. */
export const ownerFactsSchema = z.object({
  leadTimes: z.object({
    madeToMeasure: line('Made-to-measure lead time', 60),
    cutFromStock: line('Cut-from-stock lead time', 60),
    confirmed: z.boolean(),
  }),
  installTimes: z.object({
    paneOrSplashback: line('Time to fit a pane or splashback', 60),
    showerScreen: line('Time to fit a shower screen', 60),
    retrofitRoom: line('Time to retrofit a room', 60),
    doubleGlazedUnit: line('Time to fit a double-glazed unit', 60),
    confirmed: z.boolean(),
  }),
  quoteValidity: z.object({ days: days('Days a quote stays valid', 365), confirmed: z.boolean() }),
  paymentTerms: z.object({ days: days('Days to pay an invoice', 120), confirmed: z.boolean() }),
  serverLogRetention: z.object({
    days: days('Days the server logs are kept', 3650),
    confirmed: z.boolean(),
  }),
  leadBackupRetention: z.object({
    days: days('Days backups are kept', 3650),
    confirmed: z.boolean(),
  }),
});

function days(label: string, max: number) {
  return z
    .number({ error: `${label}: a whole number of days` })
    .int(`${label}: a whole number of days`)
    .min(1, `${label}: at least 1`)
    .max(max, `${label}: at most ${max}`);
}

export const hoursSchema = z.object({
  openingHours: z.array(openingHoursSchema).max(7, 'Opening hours: at most 7 lines'),
  emergency: z.object({
    label: line('Emergency badge', 30),
    hours: line('Emergency hours', 30),
    anyTime: line('Emergency hours in words', 60),
    responseTime: line('Emergency response time', 30),
  }),
  facts: ownerFactsSchema,
});

/** A page of the site (not another site: '//host' is refused), or 'tel' for the phone. */
const SITE_PATH = /^\/(?:[a-z0-9-]+(?:\/[a-z0-9-]+)*)?$/;

const CTA_LINK_MESSAGE = 'Button leads to: a page of this site, such as /quote, or the phone';

const offerSchema = z
  .object({
    id: z.number().int().positive(),
    title: line('Offer title', 100),
    discount: line('Discount', 40),
    description: paragraph('Description', 400).optional(),
    originalPrice: optionalLine('Original price', 30),
    discountedPrice: optionalLine('Discounted price', 30),
    validUntil: date('Valid until'),
    terms: paragraph('Terms', 1000),
    ctaText: line('Button text', 40),
    ctaLink: z
      .string({ error: CTA_LINK_MESSAGE })
      .refine((link) => link === 'tel' || SITE_PATH.test(link), CTA_LINK_MESSAGE)
      .transform((link) => link as 'tel' | `/${string}`),
    featured: z.boolean().optional(),
    /** A shipped sample, not an offer the business made (check:launch reports it). */
    sample: z.literal(true).optional(),
  })
  .strict();

export const offersSchema = z
  .array(offerSchema)
  .max(20, 'Offers: at most 20')
  .superRefine((offers, context) => {
    const ids = new Set<number>();
    offers.forEach((offer, index) => {
      if (ids.has(offer.id)) {
        context.addIssue({
          code: 'custom',
          path: [index, 'id'],
          message: 'Offer: two offers share one number',
        });
      }
      ids.add(offer.id);
    });
    if (offers.filter((offer) => offer.featured === true).length > 1) {
      context.addIssue({
        code: 'custom',
        path: [],
        message: 'Featured: at most one offer can be featured',
      });
    }
  });

const ROLES = [
  'Homeowner',
  'Business Owner',
  'Property Manager',
  'Contractor',
  'Interior Designer',
] as const satisfies readonly TestimonialRole[];

const testimonialSchema = z
  .object({
    id: z.number().int().positive(),
    name: line('Customer’s name', 60),
    role: z.enum(ROLES, { error: `Customer is a: one of ${ROLES.join(', ')}` }),
    location: line('Where the customer is', 60),
    rating: z
      .number({ error: 'Rating: 1 to 5 stars' })
      .int('Rating: 1 to 5 stars')
      .min(1, 'Rating: 1 to 5 stars')
      .max(5, 'Rating: 1 to 5 stars') as z.ZodType<1 | 2 | 3 | 4 | 5>,
    review: paragraph('Review', 1000),
    /** The customer agreed to their review being published (required but for the shipped samples). */
    permission: z.boolean().optional(),
    /** A shipped sample, an invented review (check:launch reports it). */
    sample: z.literal(true).optional(),
    /**
     * The enquiry of a review the customer sent through the site's review
     * page: the owner's record of who it came from, never shown to visitors
     * (testimonialOfSite leaves it out). A review published this way keeps
     * it while the enquiry is kept; erasing that person's enquiries takes
     * the review off the site (docs/operations.md, "Reviews from customers").
     */
    leadId: z.uuid({ error: 'Enquiry: the enquiry the review came from' }).optional(),
  })
  .strict()
  .superRefine((testimonial, context) => {
    if (testimonial.sample !== true && testimonial.permission !== true) {
      context.addIssue({
        code: 'custom',
        path: ['permission'],
        message:
          'Permission: publish a review only once the customer has agreed to it; tick that they have',
      });
    }
  });

export const testimonialsSchema = z
  .array(testimonialSchema)
  .max(30, 'Testimonials: at most 30')
  .superRefine((testimonials, context) => {
    const ids = new Set<number>();
    testimonials.forEach((testimonial, index) => {
      if (ids.has(testimonial.id)) {
        context.addIssue({
          code: 'custom',
          path: [index, 'id'],
          message: 'Testimonial: two testimonials share one number',
        });
      }
      ids.add(testimonial.id);
    });
  });

/** The longest site notice: about a tweet, read at a glance on every page. */
export const NOTICE_MAX = 280;

/** Something that reads as a tag: the notice is shown as the text it is, never as HTML. */
const MARKUP = /<\/?[a-z!][^<>]*>/i;

export const noticeSchema = z
  .object({
    text: line('Notice', NOTICE_MAX).refine(
      (text) => !MARKUP.test(text),
      'Notice: plain words only; it is shown exactly as written, so HTML tags would appear as typed',
    ),
    startsOn: date('Show from').optional(),
    endsOn: date('Show until').optional(),
  })
  .strict()
  .refine((notice) => !notice.startsOn || !notice.endsOn || notice.endsOn >= notice.startsOn, {
    path: ['endsOn'],
    error: 'Show until: on or after the day it starts',
  })
  .nullable();

export { SERVICE_SLUGS };

/** The most job photos the site shows (and the draft keeps). */
export const JOB_PHOTOS_MAX = 60;

export const jobPhotosSchema = z
  .array(
    z
      .object({
        photoId: z.uuid({ error: 'Photo: an uploaded photo' }),
        service: z.enum(SERVICE_SLUGS, { error: 'Service: choose the service the photo shows' }),
        alt: z
          .string({ error: 'Description for screen readers: describe what the photo shows' })
          .trim()
          .min(5, 'Description for screen readers: at least 5 characters saying what it shows')
          .max(150, 'Description for screen readers: at most 150 characters')
          .refine((text) => !CONTROL.test(text), 'Description for screen readers: one line'),
        caption: optionalLine('Caption', 200),
      })
      .strict(),
  )
  .max(JOB_PHOTOS_MAX, `Job photos: at most ${JOB_PHOTOS_MAX}`)
  .superRefine((photos, context) => {
    const ids = new Set<string>();
    photos.forEach((photo, index) => {
      if (ids.has(photo.photoId)) {
        context.addIssue({
          code: 'custom',
          path: [index, 'photoId'],
          message: 'Photo: each photo once',
        });
      }
      ids.add(photo.photoId);
    });
  });

/** The sections, in the order the owner's page lists them; each is saved on its own. */
export const SITE_CONTENT_SECTIONS = [
  'identity',
  'hours',
  'offers',
  'testimonials',
  'notice',
  'jobPhotos',
] as const;

export type SiteContentSection = (typeof SITE_CONTENT_SECTIONS)[number];

export const sectionSchemas = {
  identity: identitySchema,
  hours: hoursSchema,
  offers: offersSchema,
  testimonials: testimonialsSchema,
  notice: noticeSchema,
  jobPhotos: jobPhotosSchema,
} as const satisfies Record<SiteContentSection, z.ZodType>;

export const siteContentSchema = z.object(sectionSchemas).strict();

export type SiteContent = z.infer<typeof siteContentSchema>;
export type SiteContentOf<S extends SiteContentSection> = SiteContent[S];
export type SiteIdentity = SiteContent['identity'];
export type SiteHours = SiteContent['hours'];
export type SiteOffer = SiteContent['offers'][number];
export type SiteTestimonial = SiteContent['testimonials'][number];
export type SiteNotice = NonNullable<SiteContent['notice']>;
export type JobPhoto = SiteContent['jobPhotos'][number];

export function isSiteContentSection(name: string): name is SiteContentSection {
  return (SITE_CONTENT_SECTIONS as readonly string[]).includes(name);
}

/** A problem with content, for people: where ('offers, 2nd, Valid until') and why. */
export interface ContentProblem {
  /** The path in the content: ['offers', 1, 'validUntil']. */
  path: ReadonlyArray<string | number>;
  message: string;
}

export type ContentCheck<T> = { ok: true; content: T } | { ok: false; problems: ContentProblem[] };

function check<T>(
  schema: z.ZodType<T>,
  value: unknown,
  prefix: ReadonlyArray<string>,
): ContentCheck<T> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, content: result.data };
  return {
    ok: false,
    problems: result.error.issues.map((issue) => ({
      path: [
        ...prefix,
        ...issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part)),
      ],
      message: issue.message,
    })),
  };
}

/** Checks the whole content (the build, a new version). */
export function checkSiteContent(value: unknown): ContentCheck<SiteContent> {
  return check(siteContentSchema, value, []);
}

/** Checks one section (the owner's page saves one at a time). */
export function checkSiteContentSection<S extends SiteContentSection>(
  section: S,
  value: unknown,
): ContentCheck<SiteContent[S]> {
  return check(sectionSchemas[section] as unknown as z.ZodType<SiteContent[S]>, value, [section]);
}

/** The problems as lines: 'offers.1.validUntil: Valid until: a date written …'. */
export function describeProblems(problems: readonly ContentProblem[]): string {
  return problems
    .map((problem) => `${problem.path.join('.') || 'content'}: ${problem.message}`)
    .join('\n');
}

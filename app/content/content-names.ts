/*
 * The plain names the site's content is made of: days, services, the roles
 * of a review's author. No import: the content's schema
 * (site-content-schema.ts) and the modules that read the published content
 * (business.ts, services.ts, testimonials.ts) both take them from here.
 */

/** A day as schema.org names it (the JSON-LD's opening hours). */
export type Weekday =
  'Monday' | 'Tuesday' | 'Wednesday' | 'Thursday' | 'Friday' | 'Saturday' | 'Sunday';

/** Every service's slug, in the order of services.ts (services.test.ts holds the two to one). */
export const SERVICE_SLUGS = [
  'shower-installations',
  'windows',
  'doors',
  'cat-doors',
  'splashbacks',
  'glass-repairs',
  'balustrades',
  'retrofit-glass',
  'pool-fences',
] as const;

export type ServiceSlug = (typeof SERVICE_SLUGS)[number];

export type TestimonialRole =
  'Homeowner' | 'Business Owner' | 'Property Manager' | 'Contractor' | 'Interior Designer';

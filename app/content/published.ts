/**
 * The site content the build was given (docs/operations.md#site-content),
 * one constant per section, or null when the build was given none. The
 * build (scripts/build.ts) writes the content it builds to a JSON file and
 * names it in SITE_CONTENT_FILE; astro.config.ts reads it and defines these
 * constants for the server and the browser bundles alike, so no module here
 * reads a file. Each section is its own constant, so an island that states
 * the phone number carries the identity, never the reviews.
 *
 * Node-run code (the server, the CLIs, Vitest) has no such definitions:
 * there every section is null, and the modules of app/content/ give their
 * shipped defaults.
 */
import type { SiteContent } from './site-content-schema.ts';

declare const __SITE_CONTENT_VERSION__: number | undefined;
declare const __SITE_CONTENT_IDENTITY__: SiteContent['identity'] | undefined;
declare const __SITE_CONTENT_HOURS__: SiteContent['hours'] | undefined;
declare const __SITE_CONTENT_OFFERS__: SiteContent['offers'] | undefined;
declare const __SITE_CONTENT_TESTIMONIALS__: SiteContent['testimonials'] | undefined;
declare const __SITE_CONTENT_NOTICE__: SiteContent['notice'] | undefined;
declare const __SITE_CONTENT_JOB_PHOTOS__: SiteContent['jobPhotos'] | undefined;

/** The content version the pages were built from; 0 for the shipped defaults. */
export const publishedVersion: number =
  typeof __SITE_CONTENT_VERSION__ === 'undefined' ? 0 : __SITE_CONTENT_VERSION__;

export const publishedIdentity: SiteContent['identity'] | null =
  typeof __SITE_CONTENT_IDENTITY__ === 'undefined' ? null : __SITE_CONTENT_IDENTITY__;

export const publishedHours: SiteContent['hours'] | null =
  typeof __SITE_CONTENT_HOURS__ === 'undefined' ? null : __SITE_CONTENT_HOURS__;

export const publishedOffers: SiteContent['offers'] | null =
  typeof __SITE_CONTENT_OFFERS__ === 'undefined' ? null : __SITE_CONTENT_OFFERS__;

export const publishedTestimonials: SiteContent['testimonials'] | null =
  typeof __SITE_CONTENT_TESTIMONIALS__ === 'undefined' ? null : __SITE_CONTENT_TESTIMONIALS__;

/** The site notice, already checked against its dates by the build (visibleContent). */
export const publishedNotice: SiteContent['notice'] =
  typeof __SITE_CONTENT_NOTICE__ === 'undefined' ? null : __SITE_CONTENT_NOTICE__;

export const publishedJobPhotos: SiteContent['jobPhotos'] =
  typeof __SITE_CONTENT_JOB_PHOTOS__ === 'undefined' ? [] : __SITE_CONTENT_JOB_PHOTOS__;

/** The names astro.config.ts defines, by section. */
export const PUBLISHED_DEFINES = {
  version: '__SITE_CONTENT_VERSION__',
  identity: '__SITE_CONTENT_IDENTITY__',
  hours: '__SITE_CONTENT_HOURS__',
  offers: '__SITE_CONTENT_OFFERS__',
  testimonials: '__SITE_CONTENT_TESTIMONIALS__',
  notice: '__SITE_CONTENT_NOTICE__',
  jobPhotos: '__SITE_CONTENT_JOB_PHOTOS__',
} as const;

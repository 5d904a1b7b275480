import { categorySlug } from './blog/category.ts';
import { postSummaries } from './blog/summaries.ts';
import { services } from './content/services.ts';
import { glassTypes } from './content/glass-types.ts';

/**
 * Every public page of the site, as a concrete path. This one list feeds
 * /sitemap.xml and the HTML /sitemap page, and the build checks that it
 * prerendered exactly these pages (scripts/build.ts), so a page cannot exist
 * in one and be missing from another.
 */

export type PageGroup = 'main' | 'services' | 'glass-types' | 'blog' | 'legal';

export interface SitePage {
  path: string;
  title: string;
  group: PageGroup;
  /** ISO date of the last meaningful change, when known (articles). */
  lastModified?: string;
  /** sitemap.xml priority, 0.0-1.0. */
  priority: number;
}

/** Blog categories in the order they first appear in the list of posts. */
export const blogCategories: readonly string[] = [
  ...new Set(postSummaries.flatMap((post) => post.categories)),
];

export const sitePages: readonly SitePage[] = [
  { path: '/', title: 'Home', group: 'main', priority: 1 },
  { path: '/services', title: 'Our Services', group: 'main', priority: 0.9 },
  { path: '/about', title: 'About Us', group: 'main', priority: 0.7 },
  { path: '/contact', title: 'Contact', group: 'main', priority: 0.8 },
  { path: '/quote', title: 'Request a Free Quote', group: 'main', priority: 0.9 },
  { path: '/blog', title: 'Blog', group: 'blog', priority: 0.6 },
  ...services.map((service): SitePage => ({
    path: service.path,
    title: service.title,
    group: 'services',
    priority: 0.8,
  })),
  ...glassTypes.map((glassType): SitePage => ({
    path: glassType.path,
    title: glassType.navTitle,
    group: 'glass-types',
    priority: 0.7,
  })),
  ...postSummaries.map((post): SitePage => ({
    path: `/blog/${post.slug}`,
    title: post.title,
    group: 'blog',
    lastModified: post.publishedAt,
    priority: 0.6,
  })),
  ...blogCategories.map((category): SitePage => ({
    path: `/blog/category/${categorySlug(category)}`,
    title: `${category} Articles`,
    group: 'blog',
    priority: 0.4,
  })),
  { path: '/privacy-policy', title: 'Privacy Policy', group: 'legal', priority: 0.2 },
  { path: '/terms', title: 'Terms', group: 'legal', priority: 0.2 },
  { path: '/sitemap', title: 'Sitemap', group: 'legal', priority: 0.2 },
];

/**
 * Pages that are built but kept out of search and of both sitemaps
 * (noindex): where an enquiry leads. The build lets a noindex page go
 * unlisted (scripts/build.ts); the browser tests walk these too
 * (e2e/support/pages.ts).
 */
export const unlistedPages: readonly Pick<SitePage, 'path' | 'title'>[] = [
  { path: '/thank-you', title: 'Thank You' },
  { path: '/thank-you/urgent', title: 'Urgent Request Received' },
];

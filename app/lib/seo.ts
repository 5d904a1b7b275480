import type { Thing, WithContext } from 'schema-dts';
import { business } from '../content/business.ts';
import { absoluteUrl } from './public-config.ts';

/** One tag of a page's head, as app/layouts/Document.astro renders it. */
export type MetaDescriptor =
  | { title: string }
  | { name: string; content: string }
  | { property: string; content: string }
  | { tagName: 'link'; rel: string; href: string }
  | { 'script:ld+json': WithContext<Thing> };

export interface PageSeo {
  /** The page's own title; the business name is appended. */
  title: string;
  description: string;
  /** The canonical path, e.g. '/services/windows'. */
  path: string;
  image?: { path: string; alt: string };
  type?: 'website' | 'article';
  article?: { publishedTime: string; section?: string; tags?: readonly string[] };
  /** Kept out of search results (thank-you, 404). */
  noindex?: boolean;
  /** schema.org data about the page (app/lib/json-ld.ts). */
  jsonLd?: readonly WithContext<Thing>[];
}

export const defaultShareImage = {
  path: '/og-image.png',
  alt: `${business.name}: glass repairs, replacement and installation in Tauranga`,
};

export function documentTitle(title: string): string {
  return title.includes(business.name) ? title : `${title} | ${business.name}`;
}

/** Every page's head tags come from here: title, description, canonical, OG, Twitter, JSON-LD. */
export function seo(page: PageSeo): MetaDescriptor[] {
  const title = documentTitle(page.title);
  const url = absoluteUrl(page.path);
  const image = page.image ?? defaultShareImage;
  const imageUrl = absoluteUrl(image.path);
  const tags: MetaDescriptor[] = [
    { title },
    { name: 'description', content: page.description },
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:type', content: page.type ?? 'website' },
    { property: 'og:site_name', content: business.name },
    { property: 'og:locale', content: 'en_NZ' },
    { property: 'og:title', content: title },
    { property: 'og:description', content: page.description },
    { property: 'og:url', content: url },
    { property: 'og:image', content: imageUrl },
    { property: 'og:image:alt', content: image.alt },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: title },
    { name: 'twitter:description', content: page.description },
    { name: 'twitter:image', content: imageUrl },
    { name: 'twitter:image:alt', content: image.alt },
  ];
  if (page.noindex) tags.push({ name: 'robots', content: 'noindex, follow' });
  if (page.article) {
    tags.push({ property: 'article:published_time', content: page.article.publishedTime });
    if (page.article.section) {
      tags.push({ property: 'article:section', content: page.article.section });
    }
    for (const tag of page.article.tags ?? []) tags.push({ property: 'article:tag', content: tag });
  }
  for (const thing of page.jsonLd ?? []) tags.push({ 'script:ld+json': thing });
  return tags;
}

/** For a page that answers 404 (no such service, article, …). */
export function notFoundMeta(): MetaDescriptor[] {
  return [
    { title: documentTitle('Page not found') },
    { name: 'robots', content: 'noindex, follow' },
  ];
}

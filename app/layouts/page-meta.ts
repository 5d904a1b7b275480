import type { Thing, WithContext } from 'schema-dts';
import { derived } from '../content/published.ts';
import { business } from '../content/business.ts';

/**
 * What a page says about itself, for its head (app/layouts/Head.astro):
 * title, description, canonical link, Open Graph and Twitter tags, and the
 * page's own JSON-LD. Each page file (app/pages) fills one in.
 */
export interface PageMeta {
  /** The page's own title; the business name is appended (documentTitle). */
  title: string;
  description: string;
  /** The canonical path, e.g. '/services/windows'. */
  path: string;
  /** The share image; the site's share card when absent. */
  image?: { path: string; alt: string };
  type?: 'website' | 'article';
  article?: { publishedTime: string; section?: string | undefined; tags?: readonly string[] };
  /** Kept out of search results (thank-you, 404). */
  noindex?: boolean;
  /** schema.org data about the page, after the business's own (app/layouts/json-ld.ts). */
  jsonLd?: readonly WithContext<Thing>[];
}

function defaultShareImageStated() {
  return {
    path: '/og-image.png',
    alt: `${business.name}: glass repairs, replacement and installation in Tauranga`,
  };
}

export let defaultShareImage = defaultShareImageStated();

derived(() => {
  defaultShareImage = defaultShareImageStated();
});

/** The title a browser tab and a share card show: the page's, then the business's name. */
export function documentTitle(title: string): string {
  return title.includes(business.name) ? title : `${title} | ${business.name}`;
}

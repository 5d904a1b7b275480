import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { glassTypes } from '../../app/content/glass-types.ts';
import { services } from '../../app/content/services.ts';
import { categorySlug } from '../../app/blog/category.ts';
import { parseArticleSource } from '../../app/blog/frontmatter.ts';

/**
 * Every public page, read from the site's own /sitemap.xml (which is built
 * from the one route list), plus the unlisted thank-you pages
 * (`unlistedPages` in app/site-pages.ts).
 */
export async function allPagePaths(request: APIRequestContext): Promise<string[]> {
  const response = await request.get('/sitemap.xml');
  const xml = await response.text();
  const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map(
    (match) => new URL((match[1] ?? '').replace(/&amp;/g, '&')).pathname,
  );
  return [...paths, ...UNLISTED_PATHS];
}

/** The pages an enquiry leads to: built, kept out of search and the sitemaps. */
export const UNLISTED_PATHS: readonly string[] = ['/thank-you', '/thank-you/urgent'];

const blogDir = path.resolve(import.meta.dirname, '../../app/content/blog');

/**
 * The same pages, known when the test files load, so that route-level checks
 * (axe, the HTML checker) can be one test per page: a slow page on a busy
 * machine then fails alone or not at all, instead of making one test walk
 * every route against one time limit. app/site-pages.ts cannot be imported
 * here (it reads the articles through Vite); e2e/pages.spec.ts checks that
 * this list and /sitemap.xml name the same pages.
 */
export const PAGE_PATHS: readonly string[] = (() => {
  const posts = readdirSync(blogDir)
    .filter((file) => file.endsWith('.md'))
    .map((file) => parseArticleSource(file, readFileSync(path.join(blogDir, file), 'utf8')));
  const categories = new Set(posts.flatMap((post) => post.frontmatter.categories));
  return [
    '/',
    '/services',
    '/about',
    '/contact',
    '/quote',
    '/blog',
    ...services.map((service) => service.path),
    ...glassTypes.map((glassType) => glassType.path),
    ...posts.map((post) => `/blog/${post.frontmatter.slug}`),
    ...[...categories].map((category) => `/blog/category/${categorySlug(category)}`),
    '/privacy-policy',
    '/terms',
    '/sitemap',
    ...UNLISTED_PATHS,
  ];
})();

/**
 * The analytics tag's address, for tests that answer it with a recording
 * stand-in. Elsewhere its host does not resolve (playwright.config.ts).
 */
export const GTAG_PATTERN = 'https://www.googletagmanager.com/**';

/**
 * Opens a page and waits until it does all it will do: the site's module has
 * run and every island (a lead form, the blog search) has hydrated
 * (`data-ready`, app/browser/site.ts). For tests that interact, or read what
 * scripts add or change; tests that only read the page as loaded use
 * `page.goto` alone.
 */
export async function ready(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('html[data-ready]')).toBeAttached();
}

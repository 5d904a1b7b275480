import { blogListData, categories } from '../../blog/articles.server.ts';
import { findCategory } from '../../blog/category.ts';
import type { PageMeta } from '../../layouts/page-meta.ts';
import { breadcrumbJsonLd } from '../../layouts/json-ld.ts';

/**
 * The list of one category (docs/blog.md#categories). The caller sends a retired category
 * (app/blog/redirects.ts) and a page query to /blog first.
 */
export function blogCategoryData(slug: string, query: string) {
  // docs/blog.md#categories: a category that matches none gives no filter (all posts, 'All Blogs').
  const category = findCategory(categories, slug);
  return blogListData(category, query);
}

export const blogCategoryMeta = (list: ReturnType<typeof blogCategoryData>): PageMeta => {
  const category = list.category;
  return {
    title: category ? `${category} Articles` : 'Glass Advice Blog',
    description: category
      ? `Articles on ${category.toLowerCase()} from Tauranga glaziers: practical advice for Bay of Plenty homes and businesses.`
      : 'Practical advice on windows, double glazing, glass repairs and care for Bay of Plenty homes and businesses.',
    path: list.path,
    jsonLd: [
      breadcrumbJsonLd([
        { name: 'Home', path: '/' },
        { name: 'Blog', path: '/blog' },
        ...(category ? [{ name: category, path: list.path }] : []),
      ]),
    ],
  };
};

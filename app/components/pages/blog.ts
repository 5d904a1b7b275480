import { blogListData } from '../../blog/articles.server.ts';
import type { PageMeta } from '../../layouts/page-meta.ts';
import { breadcrumbJsonLd } from '../../layouts/json-ld.ts';

/**
 * docs/blog.md#search: the whole list, or the search of a query (`/blog?q=…`,
 * rendered by the server).
 */
export function blogData(query = '') {
  // docs/blog.md#search, without JavaScript: /blog?q=… (app/pages/on-demand/blog-search.astro).
  return blogListData(null, query);
}

export const blogMeta = (): PageMeta => ({
  title: 'Glass Advice Blog',
  description:
    'Practical advice on windows, double glazing, glass repairs and care for Bay of Plenty homes and businesses, from local glaziers.',
  path: '/blog',
  jsonLd: [
    breadcrumbJsonLd([
      { name: 'Home', path: '/' },
      { name: 'Blog', path: '/blog' },
    ]),
  ],
});

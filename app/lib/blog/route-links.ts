import type { LinkDescriptor } from 'react-router';
import { business } from '../../content/business.ts';
import blogCss from '../../styles/blog.css?url';

/** The blog routes' stylesheet and, on every blog page, the RSS feed (issue 5). */
export const blogRouteLinks = (): LinkDescriptor[] => [
  { rel: 'stylesheet', href: blogCss },
  {
    rel: 'alternate',
    type: 'application/rss+xml',
    title: `${business.name} blog`,
    href: '/blog/rss.xml',
  },
];

import rss from '@astrojs/rss';
import { business } from '../../content/business.ts';
import { articles } from '../../blog/articles.server.ts';
import { postPath } from '../../blog/listing.ts';
import { absoluteUrl } from '../../public-config.ts';

/**
 * RSS 2.0 feed of every article, newest first
 * (docs/pages-and-routes.md#search-engines-and-feeds), prerendered to
 * /blog/rss.xml by @astrojs/rss and linked from every blog page. Links are
 * absolute, as feed readers need; dates are the articles' own, so the file only
 * changes when the articles do.
 */

/** An article's date at midnight UTC (RSS writes it as RFC 822: Mon, 15 Jan 2024 00:00:00 GMT). */
const articleDate = (isoDate: string) => new Date(`${isoDate}T00:00:00Z`);

export function GET() {
  const newest = articles[0]?.frontmatter.publishedAt;
  return rss({
    title: `${business.name} blog`,
    description: `Glass advice for Bay of Plenty homes and businesses from ${business.name}, glaziers in ${business.address.city}.`,
    // The channel's link: the blog itself.
    site: absoluteUrl('/blog'),
    xmlns: { atom: 'http://www.w3.org/2005/Atom' },
    customData: [
      '<language>en-nz</language>',
      `<atom:link href="${absoluteUrl('/blog/rss.xml')}" rel="self" type="application/rss+xml"/>`,
      newest ? `<lastBuildDate>${articleDate(newest).toUTCString()}</lastBuildDate>` : '',
    ].join(''),
    items: articles.map(({ frontmatter }) => ({
      title: frontmatter.title,
      link: absoluteUrl(postPath(frontmatter.slug)),
      pubDate: articleDate(frontmatter.publishedAt),
      description: frontmatter.excerpt,
      categories: [...frontmatter.categories],
    })),
  });
}

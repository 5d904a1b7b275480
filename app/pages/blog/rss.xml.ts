import { business } from '../../content/business.ts';
import { articles } from '../../lib/blog/articles.server.ts';
import { postPath } from '../../lib/blog/listing.ts';
import { absoluteUrl } from '../../lib/public-config.ts';

/**
 * RSS 2.0 feed of every article, newest first (issue 5), prerendered to
 * /blog/rss.xml and linked from every blog page. Links are absolute, as
 * feed readers need; dates are the articles' own, so the file only changes
 * when the articles do.
 */

function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** RFC 822 date, as RSS 2.0 asks: Mon, 15 Jan 2024 00:00:00 GMT. */
function rssDate(isoDate: string): string {
  return new Date(`${isoDate}T00:00:00Z`).toUTCString();
}

export function GET() {
  const feedUrl = absoluteUrl('/blog/rss.xml');
  const items = articles.map(({ frontmatter }) => {
    const url = absoluteUrl(postPath(frontmatter.slug));
    return [
      '    <item>',
      `      <title>${escapeXml(frontmatter.title)}</title>`,
      `      <link>${escapeXml(url)}</link>`,
      `      <guid isPermaLink="true">${escapeXml(url)}</guid>`,
      `      <pubDate>${rssDate(frontmatter.publishedAt)}</pubDate>`,
      `      <description>${escapeXml(frontmatter.excerpt)}</description>`,
      ...frontmatter.categories.map(
        (category) => `      <category>${escapeXml(category)}</category>`,
      ),
      '    </item>',
    ].join('\n');
  });
  const newest = articles[0]?.frontmatter.publishedAt;
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '  <channel>',
    `    <title>${escapeXml(`${business.name} blog`)}</title>`,
    `    <link>${escapeXml(absoluteUrl('/blog'))}</link>`,
    `    <description>${escapeXml(`Glass advice for Bay of Plenty homes and businesses from ${business.name}, glaziers in ${business.address.city}.`)}</description>`,
    '    <language>en-nz</language>',
    `    <atom:link href="${escapeXml(feedUrl)}" rel="self" type="application/rss+xml"/>`,
    ...(newest ? [`    <lastBuildDate>${rssDate(newest)}</lastBuildDate>`] : []),
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
  return new Response(body, {
    headers: { 'Content-Type': 'application/rss+xml; charset=utf-8' },
  });
}

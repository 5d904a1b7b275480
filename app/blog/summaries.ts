import { compareListOrder, parseArticleSource, type Frontmatter } from './frontmatter.ts';

/**
 * Every article's validated frontmatter, newest first (the list order of
 * docs/blog.md#articles). Read as raw text through Vite for the one page list
 * (app/site-pages.ts: the sitemaps and the build's check); the Markdown body
 * is turned into HTML by the blog collection (collection.ts), at build time
 * only.
 */
const sources = import.meta.glob<string>('../content/blog/*.md', {
  query: '?raw',
  import: 'default',
  eager: true,
});

export const postSummaries: readonly Frontmatter[] = Object.entries(sources)
  .map(([file, source]) => parseArticleSource(file, source).frontmatter)
  .sort(compareListOrder);

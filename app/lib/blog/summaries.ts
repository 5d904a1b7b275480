import { compareListOrder, parseArticleSource, type Frontmatter } from './frontmatter.ts';

/**
 * Every article's validated frontmatter, newest first (the list order of
 * SPEC §3). Read as raw text through Vite so the same list is available to
 * the route config, the sitemap and the loaders; the Markdown body is turned
 * into HTML elsewhere, at build time only.
 */
const sources = import.meta.glob<string>('../../content/blog/*.md', {
  query: '?raw',
  import: 'default',
  eager: true,
});

export const postSummaries: readonly Frontmatter[] = Object.entries(sources)
  .map(([file, source]) => parseArticleSource(file, source).frontmatter)
  .sort(compareListOrder);

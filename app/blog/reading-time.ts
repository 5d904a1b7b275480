/**
 * The one word rule of the blog (readTimeMinutes, docs/blog.md#articles): words are counted
 * on the article body with the Markdown syntax removed, and reading time is
 * ceil(words / 200). The build (app/blog/compile.ts) and the writers'
 * script (scripts/blog-wordcount.ts) both use it, so they cannot disagree.
 */

export const WORDS_PER_MINUTE = 200;

/** The Markdown after the frontmatter block, or the whole text when there is none. */
export function stripFrontmatter(source: string): string {
  const match = /^---\r?\n[\s\S]*?\r?\n---\r?\n?/.exec(source);
  return match ? source.slice(match[0].length) : source;
}

/** Words a reader reads: prose, list items, table cells and link text, not syntax or URLs. */
export function countWords(markdown: string): number {
  let text = stripFrontmatter(markdown);
  // Fenced code blocks, inline code and HTML tags.
  text = text.replace(/```[\s\S]*?```/g, ' ');
  text = text.replace(/`[^`]*`/g, ' ');
  text = text.replace(/<[^>]+>/g, ' ');
  // Images and links: keep the text, drop the URL.
  text = text.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1');
  const lines = text.split(/\r?\n/).filter(
    // Table separator rows such as | --- | :---: |
    (line) => !/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line),
  );
  text = lines
    // List markers: "- ", "* ", "+ ", "1. "
    .map((line) => line.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, ''))
    .join('\n');
  text = text.replace(/[#*_>|]/g, ' ');
  return text.split(/\s+/).filter((token) => token.length > 0 && /[\p{L}\p{N}]/u.test(token))
    .length;
}

/** Whole minutes, rounded up: a 201-word article is a 2-minute read. */
export function readingMinutes(words: number): number {
  return Math.ceil(words / WORDS_PER_MINUTE);
}

/**
 * Prints the body word count and reading time of each blog article.
 *
 * Usage: node scripts/blog-wordcount.ts [files...]
 * Without arguments, checks every app/content/blog/*.md file.
 *
 * Rule: reading time = ceil(words / 200), where words are counted on the
 * article body (after the frontmatter) with Markdown syntax removed. The rule
 * lives in app/blog/reading-time.ts, shared with the build.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fillArticleFacts } from '../app/blog/article-facts.ts';
import { countWords, readingMinutes } from '../app/blog/reading-time.ts';

function main(): void {
  const args = process.argv.slice(2);
  const dir = resolve(import.meta.dirname, '../app/content/blog');
  const files =
    args.length > 0
      ? args.map((file) => resolve(file))
      : readdirSync(dir)
          .filter((name) => name.endsWith('.md'))
          .sort()
          .map((name) => join(dir, name));
  for (const file of files) {
    // Counted as the reader sees it: the {{fact}} tokens filled in, as the build does.
    const words = countWords(fillArticleFacts(file, readFileSync(file, 'utf8')));
    console.log(
      `${basename(file).padEnd(48)} ${String(words).padStart(5)} words  ${readingMinutes(words)} min`,
    );
  }
}

main();

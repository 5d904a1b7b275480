import { articleFacts } from '../content/facts.ts';
import { ArticleError } from './frontmatter.ts';

const TOKEN = /\{\{\s*([^{}\s]*)\s*\}\}/g;

/**
 * Fills the `{{name}}` tokens of an article with the business's facts
 * (app/content/facts.ts: each fact is written once), so an article
 * never states a lead time or a figure of its own. An unknown name fails the
 * build with the file and the names it may use.
 */
export function fillArticleFacts(
  file: string,
  source: string,
  values: Readonly<Record<string, string>> = articleFacts,
): string {
  return source.replace(TOKEN, (_token, name: string) => {
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (value === undefined) {
      throw new ArticleError(
        `${file}: body: unknown fact {{${name}}}; the facts are ${Object.keys(values).join(', ')} (app/content/facts.ts)`,
      );
    }
    return value;
  });
}

import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

/**
 * The strict frontmatter schema of an article (docs/blog.md#articles).
 * A missing or malformed field fails the build with the file and field named;
 * nothing silently defaults (an undated post must not become "today").
 */
export const frontmatterSchema = z
  .object({
    slug: z
      .string()
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lower-case words joined by hyphens'),
    title: z.string().min(10).max(120),
    excerpt: z.string().min(40).max(300),
    metaTitle: z.string().min(10).max(70),
    metaDescription: z.string().min(50).max(170),
    coverImage: z
      .string()
      .regex(/^\/images\/blog\/[a-z0-9-]+\.svg$/, 'must be /images/blog/<name>.svg'),
    coverAlt: z.string().min(10),
    publishedAt: z.iso.date('must be an ISO date such as 2024-01-15'),
    author: z.string().min(2),
    categories: z.array(z.string().min(2)).min(1).max(4),
  })
  .strict();

export type Frontmatter = z.output<typeof frontmatterSchema>;

export class ArticleError extends Error {
  override name = 'ArticleError';
}

/** Splits a Markdown file into its validated frontmatter and its body. */
export function parseArticleSource(
  file: string,
  source: string,
): { frontmatter: Frontmatter; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(source);
  if (!match) throw new ArticleError(`${file}: missing frontmatter block (--- … ---)`);
  let data: unknown;
  try {
    // YAML reads an unquoted 2024-01-15 as a string with the core schema.
    data = parseYaml(match[1] ?? '', { schema: 'core' });
  } catch (error) {
    throw new ArticleError(`${file}: frontmatter is not valid YAML: ${(error as Error).message}`);
  }
  const result = frontmatterSchema.safeParse(data);
  if (!result.success) {
    const problems = result.error.issues
      .map((issue) => `${issue.path.join('.') || '(frontmatter)'}: ${issue.message}`)
      .join('; ');
    throw new ArticleError(`${file}: ${problems}`);
  }
  const expectedSlug = file.replace(/^.*\//, '').replace(/\.md$/, '');
  if (result.data.slug !== expectedSlug) {
    throw new ArticleError(
      `${file}: slug "${result.data.slug}" must match the file name "${expectedSlug}"`,
    );
  }
  return { frontmatter: result.data, body: match[2] ?? '' };
}

/**
 * docs/blog.md#articles: list order is newest first; the slug breaks a tie so
 * the order never depends on the file system.
 */
export function compareListOrder(
  a: Pick<Frontmatter, 'publishedAt' | 'slug'>,
  b: Pick<Frontmatter, 'publishedAt' | 'slug'>,
): number {
  return b.publishedAt.localeCompare(a.publishedAt) || a.slug.localeCompare(b.slug);
}

import { describe, expect, it } from 'vitest';
import { compileArticle, helpBoxPosition, type CompileOptions } from './compile.ts';
import { ArticleError } from './frontmatter.ts';

const FILE = 'app/content/blog/test-article.md';
const cover =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 630" width="1200" height="630"></svg>';
const options: CompileOptions = {
  siteUrl: 'https://glass.example.com',
  readPublicFile: (path) => (path === '/images/blog/test-article.svg' ? cover : null),
};

const frontmatter: Record<string, string> = {
  slug: 'test-article',
  title: '"A test article about glass"',
  excerpt: '"An excerpt that is long enough to pass the schema check for excerpts."',
  metaTitle: '"A test article | Glaziers"',
  metaDescription:
    '"A meta description that is long enough to pass the schema check for descriptions."',
  coverImage: '/images/blog/test-article.svg',
  coverAlt: '"A drawing of a window pane"',
  publishedAt: '2024-01-15',
  author: 'Our glazing team',
};

function source(body: string, fields: Record<string, string | null> = {}): string {
  const lines = Object.entries({ ...frontmatter, ...fields })
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([key, value]) => `${key}: ${value}`);
  return `---\n${lines.join('\n')}\ncategories:\n  - Windows\n---\n\n${body}`;
}

const paragraphs = (count: number) =>
  Array.from({ length: count }, (_, index) => `Paragraph ${index + 1}.`).join('\n\n');

function compileError(text: string, compileOptions: CompileOptions = options): string {
  try {
    compileArticle(FILE, text, compileOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(ArticleError);
    return (error as Error).message;
  }
  throw new Error('expected the article to fail');
}

describe('the frontmatter schema fails the build with the file and field named', () => {
  it('names a missing field', () => {
    expect(compileError(source('Body.', { publishedAt: null }))).toMatch(
      /^app\/content\/blog\/test-article\.md: publishedAt: /,
    );
  });

  it('names a malformed field', () => {
    expect(compileError(source('Body.', { publishedAt: '15/01/2024' }))).toBe(
      `${FILE}: publishedAt: must be an ISO date such as 2024-01-15`,
    );
    expect(compileError(source('Body.', { coverImage: 'https://cdn.example.com/x.jpg' }))).toBe(
      `${FILE}: coverImage: must be /images/blog/<name>.svg`,
    );
    expect(compileError(source('Body.', { title: 'Short' }))).toMatch(/: title: /);
  });

  it('rejects an unknown field (strict) and a slug that is not the file name', () => {
    expect(compileError(source('Body.', { readTime: '5' }))).toMatch(
      /test-article\.md: .*readTime/,
    );
    expect(compileError(source('Body.', { slug: 'another-slug' }))).toBe(
      `${FILE}: slug "another-slug" must match the file name "test-article"`,
    );
  });

  it('rejects a file without frontmatter and a cover that does not exist', () => {
    expect(compileError('Just a body.')).toBe(`${FILE}: missing frontmatter block (--- … ---)`);
    expect(compileError(source('Body.'), { ...options, readPublicFile: () => null })).toBe(
      `${FILE}: coverImage: /images/blog/test-article.svg does not exist in public/`,
    );
  });

  it('rejects a level-1 heading in the body: the title is the page h1', () => {
    expect(compileError(source('# Another title\n\nBody.'))).toMatch(/test-article\.md: body: /);
  });
});

describe('the body HTML', () => {
  it('turns Markdown into HTML with GFM tables and heading ids, dropping raw HTML', () => {
    const article = compileArticle(
      FILE,
      source(
        '## Section one\n\nText with **bold**.\n\n<script>alert(1)</script>\n\n| A | B |\n| --- | --- |\n| 1 | 2 |\n',
      ),
      options,
    );
    expect(article.html).toContain('<h2 id="section-one">Section one</h2>');
    expect(article.html).toContain('<strong>bold</strong>');
    expect(article.html).not.toContain('<script');
    expect(article.html).toContain(
      '<div class="table-scroll" role="region" tabindex="0" aria-label="Table: Section one"><table>',
    );
    expect(article.cover).toEqual({
      src: '/images/blog/test-article.svg',
      alt: 'A drawing of a window pane',
      width: 1200,
      height: 630,
    });
  });

  it('keeps internal links relative and makes external links safe', () => {
    const { html } = compileArticle(
      FILE,
      source(
        '[quote](/quote), [ours](https://glass.example.com/services/windows?x=1#top), [them](https://www.example.org/page), [mail](mailto:a@example.com)',
      ),
      options,
    );
    expect(html).toContain('<a href="/quote">quote</a>');
    expect(html).toContain('<a href="/services/windows?x=1#top">ours</a>');
    expect(html).toContain(
      '<a href="https://www.example.org/page" rel="external noopener noreferrer">them</a>',
    );
    expect(html).toContain('<a href="mailto:a@example.com">mail</a>');
  });

  it('fails on a link that would break or run script', () => {
    expect(compileError(source('[x](javascript:alert(1))'))).toMatch(/link "javascript:/);
    expect(compileError(source('[x](quote)'))).toMatch(/link "quote" must be a site path/);
  });
});

describe("the 'Need help now?' box (after min(3, floor(paragraphs / 3)) paragraphs)", () => {
  it('computes the position from the paragraph count', () => {
    expect([0, 1, 2, 3, 5, 6, 8, 9, 10, 24, 48].map(helpBoxPosition)).toEqual([
      0, 0, 0, 1, 1, 2, 2, 3, 3, 3, 3,
    ]);
  });

  it.each([
    [2, 0],
    [3, 1],
    [7, 2],
    [12, 3],
  ])('with %i paragraphs it goes after paragraph %i', (count, after) => {
    const article = compileArticle(FILE, source(paragraphs(count)), options);
    expect(article.paragraphs).toBe(count);
    expect(article.helpBoxAfterParagraphs).toBe(after);
    const before = article.html.slice(0, article.helpBoxOffset);
    expect(before.match(/<p>/g) ?? []).toHaveLength(after);
    if (after > 0) expect(before.trimEnd()).toMatch(new RegExp(`Paragraph ${after}\\.</p>$`));
  });

  it('counts top-level paragraphs only, and never splits a block', () => {
    const body = [
      '## Heading',
      'First.',
      '- a list item',
      '- another item',
      'Second.',
      '> A quoted paragraph, not top level.',
      'Third.',
      'Fourth.',
      '| A | B |\n| --- | --- |\n| 1 | 2 |',
      'Fifth.',
      'Sixth.',
    ].join('\n\n');
    const article = compileArticle(FILE, source(body), options);
    expect(article.paragraphs).toBe(6);
    expect(article.helpBoxAfterParagraphs).toBe(2);
    const before = article.html.slice(0, article.helpBoxOffset);
    const after = article.html.slice(article.helpBoxOffset);
    expect(before.trimEnd()).toMatch(/<p>Second\.<\/p>$/);
    expect(after.trimStart()).toMatch(/^<blockquote>/);
  });

  it('records the word count and the reading time', () => {
    const article = compileArticle(FILE, source('word '.repeat(401)), options);
    expect(article.wordCount).toBe(401);
    expect(article.readTimeMinutes).toBe(3);
  });
});

describe('the business facts an article states (each written once)', () => {
  it('fills {{name}} with the value from app/content/facts.ts, counted as the reader sees it', () => {
    const article = compileArticle(
      FILE,
      source('We answer {{emergencyHours}} and reach you within {{ emergencyResponse }}.'),
      { ...options, facts: { emergencyHours: '24/7', emergencyResponse: 'one to two hours' } },
    );
    expect(article.html).toBe('<p>We answer 24/7 and reach you within one to two hours.</p>');
    expect(article.wordCount).toBe(11);
  });

  it('reads the real facts by default', () => {
    const article = compileArticle(FILE, source('Since {{foundedYear}}.'), options);
    expect(article.html).toMatch(/^<p>Since \d{4}\.<\/p>$/);
  });

  it('fails the build on a name it does not know, naming the file and the known names', () => {
    expect(
      compileError(source('Within {{leadTime}}.'), { ...options, facts: { foundedYear: '2008' } }),
    ).toBe(
      `${FILE}: body: unknown fact {{leadTime}}; the facts are foundedYear (app/content/facts.ts)`,
    );
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileArticles, compiledArticleSchema } from './collection.ts';

/** The blog collection's compile step on a project of its own: a good article, then a bad one. */
const root = mkdtempSync(path.join(tmpdir(), 'blog-collection-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const frontmatter = (slug: string, date: string) => `---
slug: ${slug}
title: "An article for the collection test"
excerpt: "An excerpt that is long enough to pass the schema check for excerpts."
metaTitle: "Collection test article"
metaDescription: "A meta description that is long enough to pass the schema check for it."
coverImage: /images/blog/${slug}.svg
coverAlt: "A drawing used by the collection test"
publishedAt: ${date}
author: Our glazing team
categories:
  - Windows
---
`;

function project(slug: string, date: string) {
  const dir = path.join(root, slug);
  mkdirSync(path.join(dir, 'app/content/blog'), { recursive: true });
  mkdirSync(path.join(dir, 'public/images/blog'), { recursive: true });
  writeFileSync(
    path.join(dir, 'public/images/blog', `${slug}.svg`),
    '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630"></svg>',
  );
  writeFileSync(
    path.join(dir, 'app/content/blog', `${slug}.md`),
    `${frontmatter(slug, date)}\nFirst.\n\nSecond.\n\nThird, with a [link](/quote).\n`,
  );
  const watched: string[] = [];
  const compile = () =>
    compileArticles({
      dir: path.join(dir, 'app/content/blog'),
      publicDir: path.join(dir, 'public'),
      root: dir,
      siteUrl: 'https://glass.example.com',
      watch: (file) => watched.push(path.relative(dir, file)),
    });
  return { compile, watched };
}

describe('the blog collection (app/content.config.ts)', () => {
  it('compiles every article into HTML and figures that the collection schema accepts', () => {
    const { compile, watched } = project('good-article', '2024-01-15');
    const [article] = compile();
    expect(article!.html).toContain('Third, with a <a href="/quote">link</a>.');
    expect(article!.readTimeMinutes).toBe(1);
    expect(article!.helpBoxAfterParagraphs).toBe(1);
    expect(article!.cover).toMatchObject({ width: 1200, height: 630 });
    expect(compiledArticleSchema.parse(article)).toEqual(article);
    // The dev server reloads when the article or its cover changes.
    expect(watched).toEqual([
      'app/content/blog/good-article.md',
      'public/images/blog/good-article.svg',
    ]);
  });

  it('fails naming the file and the field', () => {
    const { compile } = project('bad-article', '2024-13-45');
    expect(compile).toThrow(
      /app\/content\/blog\/bad-article\.md: publishedAt: must be an ISO date such as 2024-01-15/,
    );
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build, type Rollup } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { blogArticles } from './vite-plugin.ts';

/** The plugin inside a real Vite build: a good article compiles, a bad one fails the build. */
const root = mkdtempSync(path.join(tmpdir(), 'blog-plugin-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const frontmatter = (slug: string, date: string) => `---
slug: ${slug}
title: "An article for the plugin test"
excerpt: "An excerpt that is long enough to pass the schema check for excerpts."
metaTitle: "Plugin test article"
metaDescription: "A meta description that is long enough to pass the schema check for it."
coverImage: /images/blog/${slug}.svg
coverAlt: "A drawing used by the plugin test"
publishedAt: ${date}
author: Our glazing team
categories:
  - Windows
---
`;

function project(slug: string, date: string): string {
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
  writeFileSync(
    path.join(dir, 'main.js'),
    `import articles from 'virtual:blog-articles';\nexport default articles;\n`,
  );
  return dir;
}

function buildProject(dir: string) {
  return build({
    root: dir,
    configFile: false,
    logLevel: 'silent',
    plugins: [blogArticles({ siteUrl: 'https://glass.example.com' })],
    build: {
      write: false,
      minify: false,
      lib: { entry: path.join(dir, 'main.js'), formats: ['es'], fileName: 'main' },
    },
  });
}

describe('the blogArticles Vite plugin', () => {
  it('compiles every article into HTML and figures, with no Markdown parser in the output', async () => {
    const output = (await buildProject(project('good-article', '2024-01-15'))) as
      Rollup.RollupOutput | Rollup.RollupOutput[];
    const chunk = (Array.isArray(output) ? output[0]! : output).output[0];
    expect(chunk.code).toContain('Third, with a <a href=\\"/quote\\">link</a>.');
    expect(chunk.code).toContain('"readTimeMinutes": 1');
    expect(chunk.code).toContain('"helpBoxAfterParagraphs": 1');
    expect(chunk.code).not.toMatch(/micromark|remark|unified/);
  });

  it('fails the build naming the file and the field', async () => {
    await expect(buildProject(project('bad-article', '2024-13-45'))).rejects.toThrow(
      /app\/content\/blog\/bad-article\.md: publishedAt: must be an ISO date such as 2024-01-15/,
    );
  });
});

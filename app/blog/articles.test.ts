import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { business } from '../content/business.ts';
import { sitePages } from '../site-pages.ts';
import { compileArticle } from './compile.ts';
import { compareListOrder } from './frontmatter.ts';

/**
 * The six articles of docs/blog.md#articles as the build compiles them (the same function
 * the Vite plugin runs): list order, dates, reading times, categories, covers
 * and links.
 */
const root = path.resolve(import.meta.dirname, '../..');
const dir = path.join(root, 'app/content/blog');
const articles = readdirSync(dir)
  .filter((name) => name.endsWith('.md'))
  .map((name) =>
    compileArticle(`app/content/blog/${name}`, readFileSync(path.join(dir, name), 'utf8'), {
      siteUrl: 'https://glass.example.com',
      readPublicFile: (publicPath) => {
        const file = path.join(root, 'public', publicPath);
        return existsSync(file) ? readFileSync(file, 'utf8') : null;
      },
    }),
  )
  .sort((a, b) => compareListOrder(a.frontmatter, b.frontmatter));

describe('the six articles', () => {
  it('are the six, in list order, with their dates and reading times', () => {
    expect(
      articles.map(({ frontmatter, readTimeMinutes }) => [
        frontmatter.slug,
        frontmatter.publishedAt,
        readTimeMinutes,
      ]),
    ).toEqual([
      ['double-pane-window-repair', '2024-01-15', 8],
      ['emergency-board-up-weather-preparation', '2024-01-10', 9],
      ['replace-entire-window-fact-or-fiction', '2024-01-05', 10],
      ['clean-cloudy-glass-windows', '2023-12-28', 12],
      ['energy-efficient-glass-benefits', '2023-12-20', 15],
      ['remove-scratches-glass-stove-tops', '2023-12-15', 14],
    ]);
  });

  it('use every documented category, with the stove-top article in Kitchen Glass and Tips & DIY', () => {
    const used = new Set(articles.flatMap((article) => article.frontmatter.categories));
    for (const category of [
      'Windows',
      'Tips & DIY',
      'Emergency Services',
      'Business Glass',
      'Energy Efficiency',
      'Kitchen Glass',
    ]) {
      expect(used.has(category), category).toBe(true);
    }
    expect(articles.at(-1)?.frontmatter.categories).toEqual(['Kitchen Glass', 'Tips & DIY']);
  });

  it('each link to /quote, and every internal link leads to a page of the site', () => {
    const pages = new Set(sitePages.map((page) => page.path));
    for (const { frontmatter, html } of articles) {
      const hrefs = [...html.matchAll(/<a href="([^"]+)"/g)].map((match) => match[1]!);
      expect(hrefs, frontmatter.slug).toContain('/quote');
      for (const href of hrefs.filter((href) => href.startsWith('/'))) {
        expect(pages.has(href.replace(/[?#].*$/, '')), `${frontmatter.slug} → ${href}`).toBe(true);
      }
    }
  });

  it('each have their own described SVG cover and room for the help box after paragraph 3', () => {
    const covers = articles.map((article) => article.cover.src);
    expect(new Set(covers).size).toBe(articles.length);
    for (const article of articles) {
      expect(article.cover.src).toBe(`/images/blog/${article.frontmatter.slug}.svg`);
      expect(article.cover.width).toBeGreaterThan(0);
      expect(article.frontmatter.coverAlt.length).toBeGreaterThan(20);
      expect(article.paragraphs).toBeGreaterThanOrEqual(9);
      expect(article.helpBoxAfterParagraphs).toBe(3);
    }
  });

  it('never hard-code the business identity (it lives in app/content/business.ts)', () => {
    for (const { frontmatter, html } of articles) {
      for (const value of [business.name, business.phone.display, business.email]) {
        expect(html.includes(value), `${frontmatter.slug} contains ${value}`).toBe(false);
      }
    }
  });
});

import { describe, expect, it } from 'vitest';
import type { CompiledArticle } from './compile.ts';
import { adjacentArticles, formatPostDate, postCard, relatedArticles } from './listing.ts';

function article(slug: string, categories: string[]): Pick<CompiledArticle, 'frontmatter'> {
  return { frontmatter: { slug, categories } as unknown as CompiledArticle['frontmatter'] };
}

const list = [
  article('a', ['Windows', 'Energy Efficiency']),
  article('b', ['Emergency Services', 'Business Glass']),
  article('c', ['Windows', 'Tips & DIY']),
  article('d', ['Tips & DIY', 'Windows']),
  article('e', ['Energy Efficiency', 'Windows', 'Business Glass']),
  article('f', ['Kitchen Glass', 'Tips & DIY']),
];
const slugs = (items: readonly Pick<CompiledArticle, 'frontmatter'>[]) =>
  items.map((item) => item.frontmatter.slug);

describe('related articles', () => {
  it('share a category, exclude the article itself, and stop at three, in list order', () => {
    expect(slugs(relatedArticles(list, 'a'))).toEqual(['c', 'd', 'e']);
    expect(slugs(relatedArticles(list, 'b'))).toEqual(['e']);
    expect(slugs(relatedArticles(list, 'f'))).toEqual(['c', 'd']);
    expect(relatedArticles(list, 'nope')).toEqual([]);
  });
});

describe('previous and next (list order, newest first)', () => {
  it('previous is the newer neighbour, next the older one', () => {
    expect(adjacentArticles(list, 'a')).toEqual({ previous: null, next: list[1] });
    expect(adjacentArticles(list, 'c')).toEqual({ previous: list[1], next: list[3] });
    expect(adjacentArticles(list, 'f')).toEqual({ previous: list[4], next: null });
  });
});

describe('dates', () => {
  it('are en-NZ short on cards and long on the article, never shifted by a time zone', () => {
    expect(formatPostDate('2024-01-15')).toEqual({
      iso: '2024-01-15',
      short: '15 Jan 2024',
      long: '15 January 2024',
    });
    expect(formatPostDate('2023-12-28').long).toBe('28 December 2023');
  });
});

describe('cards', () => {
  it('hide automotive categories and cap them on related cards', () => {
    const compiled = {
      frontmatter: {
        slug: 'x',
        title: 'Title',
        excerpt: 'Excerpt',
        publishedAt: '2024-01-05',
        categories: ['Auto Glass', 'Windows', 'Tips & DIY', 'Business Glass'],
      },
      cover: { src: '/images/blog/x.svg', alt: 'Alt', width: 1200, height: 630 },
    } as unknown as CompiledArticle;
    expect(postCard(compiled).categoryLinks.map((link) => link.name)).toEqual([
      'Windows',
      'Tips & DIY',
      'Business Glass',
    ]);
    expect(postCard(compiled, 2)).toMatchObject({
      path: '/blog/x',
      categoryLinks: [
        { name: 'Windows', path: '/blog/category/windows' },
        { name: 'Tips & DIY', path: '/blog/category/tips-&-diy' },
      ],
      date: { short: '5 Jan 2024' },
    });
  });
});

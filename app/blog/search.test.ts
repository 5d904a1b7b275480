import { describe, expect, it } from 'vitest';
import { BLOG_PAGE_SIZE, filterPosts, matchesSearch, pageOf } from './search.ts';

const posts = [
  {
    slug: 'a',
    title: 'Double-Pane Window Repair',
    excerpt: 'Fog between the panes.',
    categories: ['Windows', 'Energy Efficiency'],
  },
  {
    slug: 'b',
    title: 'Emergency Board-Up',
    excerpt: 'A smashed WINDOW at 2am?',
    categories: ['Emergency Services'],
  },
  {
    slug: 'c',
    title: 'Glass Stove Tops',
    excerpt: 'Scratches on a cooktop.',
    categories: ['Kitchen Glass', 'Tips & DIY'],
  },
];

describe('blog search', () => {
  it('is a case-insensitive substring match on the title or the excerpt', () => {
    expect(matchesSearch(posts[0]!, 'double-pane')).toBe(true);
    expect(matchesSearch(posts[0]!, 'BETWEEN THE')).toBe(true);
    expect(matchesSearch(posts[1]!, 'window')).toBe(true);
    expect(matchesSearch(posts[2]!, 'window')).toBe(false);
    expect(matchesSearch(posts[2]!, 'ooktop')).toBe(true);
  });

  it('matches everything when the search is empty or blank', () => {
    expect(filterPosts(posts, { query: '', category: null })).toHaveLength(3);
    expect(filterPosts(posts, { query: '   ', category: null })).toHaveLength(3);
  });

  it('requires the chosen category, together with the search', () => {
    expect(filterPosts(posts, { query: '', category: 'Windows' }).map((p) => p.slug)).toEqual([
      'a',
    ]);
    expect(filterPosts(posts, { query: 'window', category: null }).map((p) => p.slug)).toEqual([
      'a',
      'b',
    ]);
    expect(filterPosts(posts, { query: 'window', category: 'Kitchen Glass' })).toEqual([]);
    expect(filterPosts(posts, { query: 'nothing like this', category: null })).toEqual([]);
  });
});

describe('pages of the list (100 a page)', () => {
  const many = Array.from({ length: 250 }, (_, index) => index);

  it('has one page for the six articles', () => {
    expect(BLOG_PAGE_SIZE).toBe(100);
    expect(pageOf(posts, 1)).toEqual({ items: posts, page: 1, pageCount: 1 });
    expect(pageOf([], 1)).toEqual({ items: [], page: 1, pageCount: 1 });
  });

  it('slices 100 at a time and keeps the page within range', () => {
    expect(pageOf(many, 1).items).toHaveLength(100);
    expect(pageOf(many, 3)).toMatchObject({ page: 3, pageCount: 3 });
    expect(pageOf(many, 3).items).toEqual(many.slice(200));
    expect(pageOf(many, 9).page).toBe(3);
    expect(pageOf(many, 0).page).toBe(1);
  });
});

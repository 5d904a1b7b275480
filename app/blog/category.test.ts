import { describe, expect, it } from 'vitest';
import { categoryLinks, categorySlug, findCategory, isHiddenCategory } from './category.ts';

const known = [
  'Windows',
  'Energy Efficiency',
  'Emergency Services',
  'Business Glass',
  'Tips & DIY',
  'Kitchen Glass',
];

describe('blog categories', () => {
  it('slugs: lower case, spaces turned into hyphens', () => {
    expect(categorySlug('Energy Efficiency')).toBe('energy-efficiency');
    expect(categorySlug('Tips & DIY')).toBe('tips-&-diy');
  });

  it('hides automotive and auto-glass categories from card links', () => {
    for (const name of ['Automotive', 'Auto Glass', 'auto-glass', 'AUTO']) {
      expect(isHiddenCategory(name), name).toBe(true);
    }
    for (const name of known) expect(isHiddenCategory(name), name).toBe(false);
    expect(categoryLinks(['Automotive', 'Windows', 'Auto-Glass', 'Tips & DIY'])).toEqual([
      { name: 'Windows', path: '/blog/category/windows' },
      { name: 'Tips & DIY', path: '/blog/category/tips-&-diy' },
    ]);
  });

  it('caps the links, after hiding (two on a related card)', () => {
    expect(
      categoryLinks(['Auto Glass', 'Energy Efficiency', 'Windows', 'Business Glass'], 2).map(
        (link) => link.name,
      ),
    ).toEqual(['Energy Efficiency', 'Windows']);
  });

  it('reads a URL case-insensitively with hyphens as spaces; no match is no filter', () => {
    expect(findCategory(known, 'windows')).toBe('Windows');
    expect(findCategory(known, 'Energy-Efficiency')).toBe('Energy Efficiency');
    expect(findCategory(known, 'energy efficiency')).toBe('Energy Efficiency');
    expect(findCategory(known, 'tips-&-diy')).toBe('Tips & DIY');
    expect(findCategory(known, 'TIPS-&-DIY')).toBe('Tips & DIY');
    expect(findCategory(known, 'gardening')).toBeNull();
    expect(findCategory(known, '')).toBeNull();
  });
});

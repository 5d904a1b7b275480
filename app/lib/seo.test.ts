import { describe, expect, it } from 'vitest';
import { business } from '../content/business.ts';
import { seo } from './seo.ts';

describe('seo()', () => {
  it('builds title, description, canonical, Open Graph and Twitter tags from one description', () => {
    const tags = seo({
      title: 'Windows',
      description: 'About windows.',
      path: '/services/windows',
    });
    expect(tags).toContainEqual({ title: `Windows | ${business.name}` });
    expect(tags).toContainEqual({ name: 'description', content: 'About windows.' });
    expect(tags).toContainEqual({
      tagName: 'link',
      rel: 'canonical',
      href: 'http://localhost:3000/services/windows',
    });
    expect(tags).toContainEqual({
      property: 'og:url',
      content: 'http://localhost:3000/services/windows',
    });
    expect(tags).toContainEqual({
      property: 'og:image',
      content: 'http://localhost:3000/og-image.png',
    });
    expect(tags).toContainEqual({ name: 'twitter:card', content: 'summary_large_image' });
    expect(tags.some((tag) => 'name' in tag && tag.name === 'robots')).toBe(false);
  });

  it('adds noindex, article tags and JSON-LD when asked', () => {
    const tags = seo({
      title: 'A post',
      description: 'Words.',
      path: '/blog/a-post',
      type: 'article',
      noindex: true,
      article: { publishedTime: '2024-01-15', section: 'Windows', tags: ['Windows', 'Tips & DIY'] },
      jsonLd: [{ '@context': 'https://schema.org', '@type': 'BlogPosting' }],
    });
    expect(tags).toContainEqual({ name: 'robots', content: 'noindex, follow' });
    expect(tags).toContainEqual({ property: 'og:type', content: 'article' });
    expect(tags).toContainEqual({ property: 'article:published_time', content: '2024-01-15' });
    expect(tags.filter((tag) => 'property' in tag && tag.property === 'article:tag')).toHaveLength(
      2,
    );
    expect(tags).toContainEqual({
      'script:ld+json': { '@context': 'https://schema.org', '@type': 'BlogPosting' },
    });
  });

  it('takes only JSON-LD that schema.org defines (checked by the type check)', () => {
    const tags = seo({
      title: 'Blog',
      description: 'Advice.',
      path: '/blog',
      jsonLd: [
        // @ts-expect-error schema.org has no such type
        { '@context': 'https://schema.org', '@type': 'GlassPane', name: 'A pane' },
        // @ts-expect-error a BlogPosting has no such property
        { '@context': 'https://schema.org', '@type': 'BlogPosting', headlin: 'Misspelt' },
      ],
    });
    expect(tags.filter((tag) => 'script:ld+json' in tag)).toHaveLength(2);
  });
});

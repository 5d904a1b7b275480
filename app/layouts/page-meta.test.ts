import { describe, expect, it } from 'vitest';
import { business } from '../content/business.ts';
import { breadcrumbJsonLd } from './json-ld.ts';
import { documentTitle, type PageMeta } from './page-meta.ts';

describe('page metadata', () => {
  it("appends the business name to a page's title, once", () => {
    expect(documentTitle('Windows')).toBe(`Windows | ${business.name}`);
    expect(documentTitle(`About ${business.name}`)).toBe(`About ${business.name}`);
  });

  it('takes only JSON-LD that schema.org defines (checked by the type check)', () => {
    const meta: PageMeta = {
      title: 'Blog',
      description: 'Advice.',
      path: '/blog',
      jsonLd: [
        breadcrumbJsonLd([{ name: 'Home', path: '/' }]),
        // @ts-expect-error schema.org has no such type
        { '@context': 'https://schema.org', '@type': 'GlassPane', name: 'A pane' },
        // @ts-expect-error a BlogPosting has no such property
        { '@context': 'https://schema.org', '@type': 'BlogPosting', headlin: 'Misspelt' },
      ],
    };
    expect(meta.jsonLd).toHaveLength(3);
  });
});

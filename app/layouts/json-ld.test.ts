import { describe, expect, it } from 'vitest';
import { business } from '../content/business.ts';
import { businessId, faqPageJsonLd, organizationJsonLd, serviceJsonLd } from './json-ld.ts';
import { absoluteUrl } from '../public-config.ts';

describe('structured data builders for the content pages', () => {
  it('serviceJsonLd has every documented field of a service', () => {
    const data = serviceJsonLd({
      title: 'Glass Splashbacks',
      description: 'Back-painted glass.',
      serviceType: 'Glass splashback installation',
      path: '/services/splashbacks',
    });
    expect(data).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Service',
      '@id': absoluteUrl('/services/splashbacks#service'),
      name: 'Glass Splashbacks',
      description: 'Back-painted glass.',
      serviceType: 'Glass splashback installation',
      provider: {
        '@type': 'HomeAndConstructionBusiness',
        '@id': businessId(),
        name: business.name,
      },
      areaServed: business.areasServed.map((name) => ({ '@type': 'City', name })),
      url: absoluteUrl('/services/splashbacks'),
    });
  });

  it('organizationJsonLd and faqPageJsonLd', () => {
    expect(organizationJsonLd('About us')).toMatchObject({
      '@type': 'Organization',
      name: business.name,
      telephone: business.phone.e164,
      address: { postalCode: business.address.postcode },
    });
    expect(faqPageJsonLd([{ question: 'Q?', answer: 'A.' }], '/about')).toEqual({
      '@context': 'https://schema.org',
      '@type': 'FAQPage',
      url: absoluteUrl('/about'),
      mainEntity: [
        { '@type': 'Question', name: 'Q?', acceptedAnswer: { '@type': 'Answer', text: 'A.' } },
      ],
    });
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { business } from '../content/business.ts';
import { refreshPublishedContent, usePublishedContent } from '../content/published.ts';
import { checkSiteContentSection, defaultSiteContent } from '../content/site-content.ts';
import {
  businessId,
  faqPageJsonLd,
  localBusinessJsonLd,
  organizationJsonLd,
  serviceJsonLd,
} from './json-ld.ts';
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

  describe('the business’s coordinates', () => {
    const localBusiness = () => localBusinessJsonLd() as unknown as Record<string, unknown>;
    afterEach(() => {
      usePublishedContent(null);
      refreshPublishedContent();
    });

    const publish = (map: string) => {
      const {
        geo: _geo,
        mapEmbedUrl: _embed,
        mapLinkUrl: _link,
        ...rest
      } = defaultSiteContent.identity;
      const identity = checkSiteContentSection('identity', { ...rest, map });
      if (!identity.ok) throw new Error('identity refused');
      usePublishedContent({
        version: 1,
        content: { ...defaultSiteContent, identity: identity.content },
      });
      refreshPublishedContent();
    };

    it('are stated when the pasted map link carries them', () => {
      publish('https://www.google.com/maps/place/Harbourside+Glass/@-37.7512,176.1003,17z');
      expect(localBusiness().geo).toEqual({
        '@type': 'GeoCoordinates',
        latitude: -37.7512,
        longitude: 176.1003,
      });
    });

    it('are left out when the map is set by the address alone', () => {
      publish('18 Taurikura Drive, Tauriko, Tauranga 3110');
      expect(localBusiness()).not.toHaveProperty('geo');
      expect(localBusiness().hasMap).toBe(
        'https://www.google.com/maps/search/?api=1&query=18%20Taurikura%20Drive%2C%20Tauriko%2C%20Tauranga%203110',
      );
    });
  });
});

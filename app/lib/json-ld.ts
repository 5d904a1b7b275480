import { business } from '../content/business.ts';
import { absoluteUrl } from './public-config.ts';

/**
 * Typed builders for the schema.org structured data the site emits. Each
 * returns a plain object; routes hand it to `jsonLdMeta` (app/lib/seo.ts).
 */

export interface JsonLdThing {
  '@context'?: 'https://schema.org';
  '@type': string;
  [key: string]: unknown;
}

export const businessId = () => absoluteUrl('/#business');

export function postalAddress() {
  return {
    '@type': 'PostalAddress',
    streetAddress: business.address.street,
    addressLocality: business.address.city,
    addressRegion: business.address.region,
    postalCode: business.address.postcode,
    addressCountry: business.address.country,
  } as const;
}

export function areasServed() {
  return business.areasServed.map((name) => ({ '@type': 'City', name }));
}

/** The site-wide LocalBusiness block (HomeAndConstructionBusiness). */
export function localBusinessJsonLd(): JsonLdThing {
  return {
    '@context': 'https://schema.org',
    '@type': 'HomeAndConstructionBusiness',
    '@id': businessId(),
    name: business.name,
    legalName: business.legalName,
    description: business.tagline,
    url: absoluteUrl('/'),
    telephone: business.phone.e164,
    email: business.email,
    foundingDate: String(business.foundedYear),
    image: absoluteUrl('/og-image.png'),
    logo: absoluteUrl('/favicon.svg'),
    address: postalAddress(),
    geo: {
      '@type': 'GeoCoordinates',
      latitude: business.geo.latitude,
      longitude: business.geo.longitude,
    },
    areaServed: areasServed(),
    openingHoursSpecification: [
      ...business.hours.map((hours) => ({
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: hours.days.map((day) => `https://schema.org/${day}`),
        opens: hours.opens,
        closes: hours.closes,
      })),
    ],
    aggregateRating: {
      '@type': 'AggregateRating',
      ratingValue: business.reviews.rating,
      bestRating: business.reviews.bestRating,
      reviewCount: business.reviews.count,
    },
    sameAs: [business.social.facebook, business.social.instagram],
    hasMap: business.mapLinkUrl,
  };
}

/** A reference to the business, for `provider`, `publisher` and `author`. */
export function businessReference() {
  return { '@type': 'HomeAndConstructionBusiness', '@id': businessId(), name: business.name };
}

export function breadcrumbJsonLd(items: readonly { name: string; path: string }[]): JsonLdThing {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: items.map((item, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: item.name,
      item: absoluteUrl(item.path),
    })),
  };
}

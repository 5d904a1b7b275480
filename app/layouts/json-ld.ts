import type {
  BlogPosting,
  BreadcrumbList,
  City,
  FAQPage,
  HomeAndConstructionBusiness,
  ImageObject,
  OpeningHoursSpecification,
  Organization,
  PostalAddress,
  Service,
  WithContext,
} from 'schema-dts';
import { business } from '../content/business.ts';
import { absoluteUrl } from '../public-config.ts';

/**
 * Builders for the schema.org structured data the site emits, typed by
 * schema-dts. A page puts what they return in its metadata's `jsonLd`
 * (app/layouts/page-meta.ts), and app/layouts/Head.astro writes it into the
 * head after the business's own block.
 */

export const businessId = () => absoluteUrl('/#business');

export function postalAddress(): PostalAddress {
  return {
    '@type': 'PostalAddress',
    streetAddress: business.address.street,
    addressLocality: business.address.city,
    addressRegion: business.address.region,
    postalCode: business.address.postcode,
    addressCountry: business.address.country,
  };
}

export function areasServed(): City[] {
  return business.areasServed.map((name) => ({ '@type': 'City', name }));
}

/** The site-wide LocalBusiness block (HomeAndConstructionBusiness). */
export function localBusinessJsonLd(): WithContext<HomeAndConstructionBusiness> {
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
    // Only where it is known: a map set by the address alone claims no coordinates.
    ...(business.geo
      ? {
          geo: {
            '@type': 'GeoCoordinates' as const,
            latitude: business.geo.latitude,
            longitude: business.geo.longitude,
          },
        }
      : {}),
    areaServed: areasServed(),
    openingHoursSpecification: [
      ...business.hours.map((hours): OpeningHoursSpecification => ({
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: hours.days.map((day) => `https://schema.org/${day}` as const),
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
export function businessReference(): HomeAndConstructionBusiness {
  return { '@type': 'HomeAndConstructionBusiness', '@id': businessId(), name: business.name };
}

export function breadcrumbJsonLd(
  items: readonly { name: string; path: string }[],
): WithContext<BreadcrumbList> {
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

/**
 * docs/screens.md#service-pages: name, description, provider, area served,
 * service type and URL.
 */
export function serviceJsonLd(service: {
  title: string;
  description: string;
  serviceType: string;
  path: string;
  image?: string | undefined;
}): WithContext<Service> {
  return {
    '@context': 'https://schema.org',
    '@type': 'Service',
    '@id': absoluteUrl(`${service.path}#service`),
    name: service.title,
    description: service.description,
    serviceType: service.serviceType,
    provider: businessReference(),
    areaServed: areasServed(),
    url: absoluteUrl(service.path),
    ...(service.image ? { image: absoluteUrl(service.image) } : {}),
  };
}

/** docs/screens.md#about-page: the business as an organisation. */
export function organizationJsonLd(description: string): WithContext<Organization> {
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    '@id': absoluteUrl('/#organization'),
    name: business.name,
    legalName: business.legalName,
    description,
    url: absoluteUrl('/'),
    logo: absoluteUrl('/favicon.svg'),
    foundingDate: String(business.foundedYear),
    telephone: business.phone.e164,
    email: business.email,
    address: postalAddress(),
    areaServed: areasServed(),
    sameAs: [business.social.facebook, business.social.instagram],
  };
}

/** docs/screens.md#about-page: the FAQ accordion, question by question (answers are plain text). */
export function faqPageJsonLd(
  items: readonly { question: string; answer: string }[],
  path: string,
): WithContext<FAQPage> {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    url: absoluteUrl(path),
    mainEntity: items.map((item) => ({
      '@type': 'Question',
      name: item.question,
      acceptedAnswer: { '@type': 'Answer', text: item.answer },
    })),
  };
}

/** One blog article (docs/blog.md#article-page); the business is its author and publisher. */
export function blogPostingJsonLd(post: {
  path: string;
  headline: string;
  description: string;
  image: { path: string; width: number; height: number };
  datePublished: string;
  wordCount: number;
  categories: readonly string[];
}): WithContext<BlogPosting> {
  const url = absoluteUrl(post.path);
  return {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: post.headline,
    description: post.description,
    // schema.org types an image's width and height as text or a
    // QuantitativeValue; search engines read the plain pixel numbers given here.
    image: {
      '@type': 'ImageObject',
      url: absoluteUrl(post.image.path),
      width: post.image.width,
      height: post.image.height,
    } as unknown as ImageObject,
    datePublished: post.datePublished,
    author: businessReference(),
    publisher: businessReference(),
    mainEntityOfPage: { '@type': 'WebPage', '@id': url },
    url,
    inLanguage: 'en-NZ',
    wordCount: post.wordCount,
    articleSection: post.categories[0],
    keywords: post.categories.join(', '),
  };
}

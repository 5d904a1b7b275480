import { ServiceLayout } from '../services/ServiceLayout.tsx';
import { glassTypes } from '../../content/glass-types.ts';
import { getService, type Service } from '../../content/services.ts';
import { breadcrumbJsonLd, serviceJsonLd } from '../../lib/json-ld.ts';
import type { PageMeta } from '../../layouts/page-meta.ts';

/**
 * The glass types a service's copy recommends by name, so the page can link
 * to them ('Low-E glass such as Planitherm XN' on the windows page).
 */
function relatedGlassTypes(service: Service) {
  const copy = [service.introText, ...service.details, ...service.features].join(' ');
  return glassTypes
    .filter((glassType) => copy.includes(glassType.productName))
    .map((glassType) => ({
      path: glassType.path,
      title: glassType.card.title,
      summary: glassType.card.summary,
    }));
}

export function serviceData(slug: string) {
  const service = getService(slug);
  if (!service) return null;
  return {
    service: {
      slug: service.slug,
      path: service.path,
      title: service.title,
      icon: service.icon,
      introText: service.introText,
      images: service.images,
      placeholderLabel: service.placeholderLabel,
      pauseOnHover: service.pauseOnHover,
      details: service.details,
      features: service.features,
      benefits: service.benefits,
      relatedGlassTypes: relatedGlassTypes(service),
    },
    seo: {
      metaTitle: service.metaTitle,
      metaDescription: service.metaDescription,
      serviceType: service.serviceType,
    },
  };
}

export const serviceMeta = (loaderData: NonNullable<ReturnType<typeof serviceData>>): PageMeta => {
  const { service, seo: pageSeo } = loaderData;
  return {
    title: pageSeo.metaTitle,
    description: pageSeo.metaDescription,
    path: service.path,
    jsonLd: [
      serviceJsonLd({
        title: service.title,
        description: service.introText,
        serviceType: pageSeo.serviceType,
        path: service.path,
        image: service.images[0]?.src,
      }),
      breadcrumbJsonLd([
        { name: 'Home', path: '/' },
        { name: 'Services', path: '/services' },
        { name: service.title, path: service.path },
      ]),
    ],
  };
};

export function ServicePage({
  loaderData,
}: {
  loaderData: NonNullable<ReturnType<typeof serviceData>>;
}) {
  return <ServiceLayout service={loaderData.service} />;
}

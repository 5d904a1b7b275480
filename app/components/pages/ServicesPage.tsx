import { ServiceCard } from '../services/ServiceCard.tsx';
import { CallToAction } from '../ui/CallToAction.tsx';
import { PageHeader } from '../ui/PageHeader.tsx';
import { services } from '../../content/services.ts';
import { breadcrumbJsonLd } from '../../lib/json-ld.ts';
import type { PageMeta } from '../../layouts/page-meta.ts';
import { business } from '../../content/business.ts';

export function servicesData() {
  return {
    services: services.map((service) => ({
      slug: service.slug,
      path: service.path,
      title: service.title,
      icon: service.icon,
      description: service.cardDescription,
      image: service.images[0],
      placeholderLabel: service.placeholderLabel,
    })),
  };
}

export const servicesMeta = (): PageMeta => ({
  title: 'Our Services',
  description: `Nine glass services for Tauranga homes and businesses: showers, windows and double glazing, doors, cat doors, splashbacks, ${business.emergency.hours} repairs, balustrades, retrofit and pool fences.`,
  path: '/services',
  jsonLd: [
    breadcrumbJsonLd([
      { name: 'Home', path: '/' },
      { name: 'Our Services', path: '/services' },
    ]),
  ],
});

/** SPEC §2 'Services overview': the heading, the nine cards and 'Get a Free Quote'. */
export function ServicesPage({ loaderData }: { loaderData: ReturnType<typeof servicesData> }) {
  return (
    <>
      <PageHeader
        eyebrow="What we do"
        title="Our Services"
        intro={
          <p>
            From a cracked pane at midnight to a frameless shower or a glass pool fence, our team
            measures, supplies and installs the glass a home or business needs, across Tauranga and
            the western Bay of Plenty.
          </p>
        }
      />
      <section className="section section--plain" aria-label="All services">
        <div className="container">
          <ul className="service-grid">
            {loaderData.services.map((service) => (
              <li key={service.slug}>
                <ServiceCard service={service} headingId={`service-${service.slug}`} />
              </li>
            ))}
          </ul>
        </div>
      </section>
      <CallToAction
        id="services-cta"
        title="Not sure which service you need?"
        quoteText="Get a Free Quote"
      >
        <p>
          Tell us about the glass and we will recommend the right fix, with a free, fixed-price
          quote. The final estimate is the final price.
        </p>
      </CallToAction>
    </>
  );
}

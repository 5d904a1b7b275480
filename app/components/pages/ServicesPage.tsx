import { ServiceCard, type ServiceCardData } from '../services/ServiceCard.tsx';
import { CallToAction } from '../ui/CallToAction.tsx';
import { PageHeader } from '../ui/PageHeader.tsx';

/** docs/screens.md#services-overview: the heading, the nine cards and 'Get a Free Quote'. */
export function ServicesPage({ services }: { services: readonly ServiceCardData[] }) {
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
            {services.map((service) => (
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

import { Link } from 'react-router';
import { ButtonLink } from '../components/ui/ButtonLink.tsx';
import { PageHeader } from '../components/ui/PageHeader.tsx';
import { services } from '../content/services.ts';
import { seo } from '../lib/seo.ts';
import type { Route } from './+types/services';

export function loader() {
  return {
    services: services.map(({ slug, path, title, cardDescription }) => ({ slug, path, title, cardDescription })),
  };
}

export const meta = () =>
  seo({
    title: 'Our Services',
    description:
      'Nine glass services for Tauranga homes and businesses: showers, windows and double glazing, doors, cat doors, splashbacks, 24/7 repairs, balustrades, retrofit and pool fences.',
    path: '/services',
  });

export default function Services({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHeader
        title="Our Services"
        intro={
          <p>
            From a cracked pane at midnight to a frameless shower or a glass pool fence, our team
            measures, supplies and installs every kind of glass a home or business needs.
          </p>
        }
      />
      <section className="section section--plain" aria-label="Services">
        <div className="container">
          <ul className="link-grid">
            {loaderData.services.map((service) => (
              <li key={service.slug}>
                <Link to={service.path}>{service.title}</Link>
                <p>{service.cardDescription}</p>
              </li>
            ))}
          </ul>
          <ButtonLink to="/quote">Get a Free Quote</ButtonLink>
        </div>
      </section>
    </>
  );
}

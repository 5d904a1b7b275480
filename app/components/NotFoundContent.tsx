import { business } from '../content/business.ts';
import type { NavEntry } from '../content/navigation.ts';
import { ButtonLink, CallButton } from './ui/ButtonLink.tsx';

/** The helpful page behind every unknown address (a real 404 status). */
export function NotFoundContent({ serviceLinks }: { serviceLinks: readonly NavEntry[] }) {
  return (
    <>
      <div className="page-header">
        <div className="container page-header__inner">
          <div className="page-header__text">
            <p className="eyebrow">Error 404</p>
            <h1>We couldn’t find that page</h1>
            <p className="page-header__intro">
              The address may be mistyped, or the page has moved. Our services are listed below, and
              if glass needs attention now, call us on {business.phone.display}: we answer{' '}
              {business.emergency.hours} for emergencies.
            </p>
            <div className="button-row">
              <ButtonLink to="/quote" size="lg">
                Request a Free Quote
              </ButtonLink>
              <CallButton size="lg" />
            </div>
          </div>
        </div>
      </div>
      <section className="section section--plain" aria-labelledby="not-found-services">
        <div className="container">
          <h2 id="not-found-services">Our services</h2>
          <ul className="link-grid">
            {serviceLinks.map((link) => (
              <li key={link.path}>
                <a href={link.path}>{link.title}</a>
              </li>
            ))}
          </ul>
          <p className="not-found__more">
            Or start again from the <a href="/">home page</a>, or find any page of the site on the{' '}
            <a href="/sitemap">site map</a>.
          </p>
        </div>
      </section>
    </>
  );
}

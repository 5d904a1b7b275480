import { business, fullAddress, mailHref, telHref } from '../../content/business.ts';
import { footerQuickLinks, legalLinks, type SiteLinks } from '../../content/navigation.ts';
import { Icon } from '../ui/Icon.tsx';

/**
 * docs/pages-and-routes.md#footer. The content links and the year the page was rendered in
 * come as props (from app/layouts/Document.astro). The year is the build's
 * in the HTML, then the visitor's once the page's module script runs
 * (footer-year.ts, started by app/browser/site.ts): right on 1 January.
 */
export function SiteFooter({ links, renderedYear }: { links: SiteLinks; renderedYear: number }) {
  const { services: serviceLinks, glassTypes: glassTypeLinks } = links;
  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        <section className="site-footer__about" aria-labelledby="footer-about">
          <h2 id="footer-about" className="site-footer__heading">
            {business.name}
          </h2>
          <p>
            Local glaziers serving Tauranga and the western Bay of Plenty since{' '}
            {business.foundedYear}. Repairs, replacement glass, double glazing, showers,
            splashbacks, balustrades and pool fences for homes and businesses, with a{' '}
            {business.emergency.hours} emergency service.
          </p>
          <ul className="social-links">
            <li>
              <a href={business.social.facebook} rel="noopener" className="icon-button">
                <Icon name="facebook" />
                <span className="sr-only">{business.name} on Facebook</span>
              </a>
            </li>
            <li>
              <a href={business.social.instagram} rel="noopener" className="icon-button">
                <Icon name="instagram" />
                <span className="sr-only">{business.name} on Instagram</span>
              </a>
            </li>
          </ul>
        </section>

        <nav
          id="footer-navigation"
          aria-labelledby="footer-quick-links"
          className="site-footer__nav"
        >
          <div>
            <h2 id="footer-quick-links" className="site-footer__heading">
              Quick Links
            </h2>
            <ul className="footer-links">
              {footerQuickLinks.map((link) => (
                <li key={link.path}>
                  <a href={link.path}>{link.title}</a>
                </li>
              ))}
            </ul>
          </div>
          <div>
            <h2 className="site-footer__heading">Services</h2>
            <ul className="footer-links">
              {serviceLinks.map((link) => (
                <li key={link.path}>
                  <a href={link.path}>{link.title}</a>
                </li>
              ))}
            </ul>
          </div>
          <div>
            <h2 className="site-footer__heading">Glass Types</h2>
            <ul className="footer-links">
              {glassTypeLinks.map((link) => (
                <li key={link.path}>
                  <a href={link.path}>{link.title}</a>
                </li>
              ))}
            </ul>
          </div>
        </nav>

        <section aria-labelledby="footer-contact" className="site-footer__contact">
          <h2 id="footer-contact" className="site-footer__heading">
            Contact
          </h2>
          <address>
            <ul className="contact-list">
              <li>
                <Icon name="map-pin" />
                <a href={business.mapLinkUrl} rel="noopener">
                  {fullAddress}
                </a>
              </li>
              <li>
                <Icon name="phone" />
                <a href={telHref}>{business.phone.display}</a>
              </li>
              <li>
                <Icon name="mail" />
                <a href={mailHref}>{business.email}</a>
              </li>
              <li>
                <Icon name="clock" />
                <span>{business.emergency.label}</span>
              </li>
            </ul>
          </address>
        </section>
      </div>
      <div className="site-footer__bottom">
        <div className="container site-footer__bottom-inner">
          <p>
            © <span data-current-year="">{renderedYear}</span> {business.legalName}. All rights
            reserved.
          </p>
          <ul className="legal-links">
            {legalLinks.map((link) => (
              <li key={link.path}>
                <a href={link.path}>{link.title}</a>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}

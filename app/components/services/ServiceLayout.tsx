import { business } from '../../content/business.ts';
import { ButtonLink, CallButton } from '../ui/ButtonLink.tsx';
import { Breadcrumbs } from '../ui/Breadcrumbs.tsx';
import { CallToAction } from '../ui/CallToAction.tsx';
import { Icon, type IconName } from '../ui/Icon.tsx';
import { ServiceDisclosure } from './ServiceDisclosure.tsx';
import { RecentWork, type RecentWorkPhoto } from './RecentWork.tsx';
import { ServiceGallery, type GalleryImage } from './ServiceGallery.tsx';

/** Everything one service page shows: its entry of services.ts and the glass types it names (app/pages/services/[slug].astro). */
export interface ServicePageData {
  slug: string;
  path: string;
  title: string;
  icon: IconName;
  introText: string;
  images: readonly GalleryImage[];
  placeholderLabel: string;
  pauseOnHover: boolean;
  details: readonly string[];
  features: readonly string[];
  benefits: readonly { title: string; description: string }[];
  /** Glass types the copy recommends, linked from the page. */
  relatedGlassTypes: readonly { path: string; title: string; summary: string }[];
}

const benefitIcons: readonly IconName[] = ['award', 'shield', 'check'];

/**
 * The one layout of the nine service pages (docs/screens.md#service-pages, in order): title, image
 * carousel, intro, the collapsible 'Details', 'Features' (collapsible on
 * mobile only), 'Recent work' when the owner has published photos of jobs
 * for this service, 'Why Choose Our Service?' with three benefits and 'Get
 * a Free Quote'.
 */
export function ServiceLayout({
  service,
  recentWork = [],
}: {
  service: ServicePageData;
  /** The owner's photos of jobs for this service, when there are any. */
  recentWork?: readonly RecentWorkPhoto[];
}) {
  const benefitsId = `${service.slug}-benefits`;
  return (
    <>
      <div className="service-hero">
        <div className="container">
          <Breadcrumbs
            items={[
              { name: 'Home', path: '/' },
              { name: 'Services', path: '/services' },
              { name: service.title, path: service.path },
            ]}
          />
          <div className="service-hero__grid">
            <div className="service-hero__title">
              <p className="eyebrow">
                <Icon name={service.icon} size={18} /> Our Services
              </p>
              <h1>{service.title}</h1>
            </div>
            <div className="service-hero__media">
              <ServiceGallery
                title={service.title}
                images={service.images}
                placeholderLabel={service.placeholderLabel}
                pauseOnHover={service.pauseOnHover}
              />
            </div>
            <div className="service-hero__intro">
              <p className="service-hero__lead">{service.introText}</p>
              <div className="button-row">
                <ButtonLink to="/quote" size="lg">
                  Get a Free Quote
                </ButtonLink>
                <CallButton size="lg" />
              </div>
            </div>
          </div>
        </div>
      </div>

      <section className="section section--plain service-body" aria-label="About this service">
        <div className="container service-body__grid">
          <div className="service-body__main">
            <ServiceDisclosure id={`${service.slug}-details`} title="Details">
              {service.details.map((paragraph) => (
                <p key={paragraph.slice(0, 40)}>{paragraph}</p>
              ))}
            </ServiceDisclosure>
            <ServiceDisclosure id={`${service.slug}-features`} title="Features" mobileOnly>
              <ul className="feature-list">
                {service.features.map((feature) => (
                  <li key={feature}>
                    <Icon name="check" size={20} className="feature-list__icon" />
                    <span>{feature}</span>
                  </li>
                ))}
              </ul>
            </ServiceDisclosure>
          </div>
          <aside className="service-aside" aria-label="Free quote and related glass">
            <div className="service-aside__card">
              <h2 className="service-aside__title">Free, fixed-price quote</h2>
              <p>
                Tell us about the job and we will measure, advise and give you a price that will not
                change without your approval.
              </p>
              <ButtonLink to="/quote" className="service-aside__button">
                Get a Free Quote
              </ButtonLink>
              <CallButton className="service-aside__button" />
            </div>
            {service.relatedGlassTypes.length > 0 ? (
              <div className="service-aside__card service-aside__card--tint">
                <h2 className="service-aside__title">Glass we recommend</h2>
                <ul className="related-glass">
                  {service.relatedGlassTypes.map((glassType) => (
                    <li key={glassType.path}>
                      <a href={glassType.path} className="related-glass__link">
                        {glassType.title}
                        <Icon name="chevron-right" size={18} />
                      </a>
                      <p>{glassType.summary}</p>
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </aside>
        </div>
      </section>

      <RecentWork id={service.slug} photos={recentWork} />

      <section className="section section--tint" aria-labelledby={benefitsId}>
        <div className="container">
          <header className="section-heading section-heading--center">
            <h2 id={benefitsId}>Why Choose Our Service?</h2>
          </header>
          <ul className="benefit-grid">
            {service.benefits.map((benefit, index) => (
              <li key={benefit.title} className="benefit-card">
                <span className="icon-badge">
                  <Icon name={benefitIcons[index] ?? 'check'} size={24} />
                </span>
                <h3>{benefit.title}</h3>
                <p>{benefit.description}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <CallToAction
        id={`${service.slug}-quote`}
        title="Get a Free Quote"
        quoteText="Get a Free Quote"
      >
        <p>
          Send us a few details or photos and we will come back to you with a free, no-obligation
          quote. Urgent? Call us any time, {business.emergency.anyTime}.
        </p>
      </CallToAction>
    </>
  );
}

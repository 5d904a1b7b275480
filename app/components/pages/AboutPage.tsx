import { FaqAccordion } from '../about/FaqAccordion.tsx';
import { ButtonLink, CallButton } from '../ui/ButtonLink.tsx';
import { CallToAction } from '../ui/CallToAction.tsx';
import { Icon, type IconName } from '../ui/Icon.tsx';
import { Illustration } from '../ui/Illustration.tsx';
import { PageHeader } from '../ui/PageHeader.tsx';
import type { AboutContent } from '../../content/about.ts';
import { business } from '../../content/business.ts';
import { facts } from '../../content/facts.ts';

/** The page's largest element at first paint (app/pages/about.astro preloads it). */
export const ABOUT_IMAGE = '/images/about.svg';

const whyChooseUsIcons: readonly IconName[] = ['award', 'clock', 'dollar', 'shield', 'map-pin'];

/**
 * docs/screens.md#about-page: intro, specialties, FAQ, five why-choose-us
 * cards, phone and quote links.
 */
export function AboutPage({ about }: { about: AboutContent }) {
  return (
    <>
      <PageHeader
        eyebrow={`Tauranga glaziers since ${business.foundedYear}`}
        title={about.heading}
        intro={about.intro.map((paragraph) => (
          <p key={paragraph.slice(0, 40)}>{paragraph}</p>
        ))}
        actions={
          <>
            <ButtonLink to="/quote" size="lg">
              {about.cta.quoteText}
            </ButtonLink>
            <CallButton size="lg">{about.cta.phoneText}</CallButton>
          </>
        }
        aside={
          <Illustration
            src={ABOUT_IMAGE}
            alt="A flat illustration of a glazier’s workshop, with glass sheets in a rack and a cutting bench"
            width={800}
            height={600}
            priority
          />
        }
      />

      <section className="section section--plain" aria-labelledby="specialties">
        <div className="container about-specialties">
          <div>
            <h2 id="specialties">{about.specialtiesHeading}</h2>
            <ul className="check-list">
              {about.specialties.map((specialty) => (
                <li key={specialty}>
                  <Icon name="check" size={20} className="check-list__icon" />
                  <span>{specialty}</span>
                </li>
              ))}
            </ul>
          </div>
          <ul className="stat-panel" aria-label="At a glance">
            <li>
              <span className="stat-panel__figure">{facts.experience.figure}</span>
              <span className="stat-panel__label">Years Experience</span>
            </li>
            <li>
              <span className="stat-panel__figure">{business.emergency.hours}</span>
              <span className="stat-panel__label">Emergency Service</span>
            </li>
            <li>
              <span className="stat-panel__figure">{business.reviews.rating.toFixed(1)}</span>
              <span className="stat-panel__label">
                Average Rating from {business.reviews.count} reviews
              </span>
            </li>
          </ul>
        </div>
      </section>

      <section className="section section--tint" aria-labelledby="why-choose-us">
        <div className="container">
          <header className="section-heading section-heading--center">
            <h2 id="why-choose-us">{about.whyChooseUsHeading}</h2>
          </header>
          <ul className="info-grid info-grid--5">
            {about.whyChooseUs.map((card, index) => (
              <li key={card.title} className="info-card">
                <span className="icon-badge">
                  <Icon name={whyChooseUsIcons[index] ?? 'check'} size={24} />
                </span>
                <h3 className="info-card__title">{card.title}</h3>
                <p>{card.description}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="section section--plain" aria-labelledby="faq">
        <div className="container container--narrow">
          <header className="section-heading">
            <h2 id="faq">{about.faqHeading}</h2>
          </header>
          <FaqAccordion items={about.faq} />
        </div>
      </section>

      <CallToAction id="about-cta" title={about.cta.heading} quoteText={about.cta.quoteText}>
        <p>{about.cta.text}</p>
      </CallToAction>
    </>
  );
}

import type { PlanithermContent } from '../../content/glass-types.ts';
import { CallToAction } from '../ui/CallToAction.tsx';
import type { IconName } from '../ui/Icon.tsx';
import { GlassTypeHeader, TitledCard } from './GlassTypeHeader.tsx';

const applicationIcons: readonly IconName[] = ['thermometer', 'window', 'door', 'sun'];

/**
 * SPEC §2 'Low-E glass page': the benefit cards (52%, 81%, reduced
 * condensation), the §9 heat-loss figure (up to 59%), ideal applications and
 * why the business uses it.
 */
export function PlanithermPage({ content }: { content: PlanithermContent }) {
  return (
    <>
      <GlassTypeHeader
        title={content.title}
        intro={content.intro}
        keyFigures={content.card.keyFigures}
        image={content.image}
        quoteText={content.cta.buttonText}
      />

      <section className="section section--plain" aria-labelledby="benefits">
        <div className="container">
          <header className="section-heading">
            <h2 id="benefits">{content.benefitCards.heading}</h2>
            <p className="section-heading__intro">{content.benefitCards.intro}</p>
          </header>
          <ul className="figure-grid">
            {content.benefitCards.items.map((card) => (
              <li key={card.title} className="figure-card">
                <p className="figure-card__figure">{card.figure}</p>
                <h3 className="figure-card__title">{card.title}</h3>
                <p>{card.description}</p>
              </li>
            ))}
          </ul>
          <div className="figure-banner">
            <p className="figure-banner__figure">{content.heatLoss.figure}</p>
            <div>
              <h3 className="figure-banner__title">{content.heatLoss.title}</h3>
              <p>{content.heatLoss.description}</p>
            </div>
          </div>
          <p className="footnote">{content.benefitCards.footnote}</p>
        </div>
      </section>

      <section className="section section--tint" aria-labelledby="applications">
        <div className="container">
          <header className="section-heading">
            <h2 id="applications">{content.applications.heading}</h2>
            <p className="section-heading__intro">{content.applications.intro}</p>
          </header>
          <ul className="info-grid info-grid--4">
            {content.applications.items.map((item, index) => (
              <TitledCard key={item.title} {...item} icon={applicationIcons[index] ?? 'check'} />
            ))}
          </ul>
        </div>
      </section>

      <section className="section section--plain" aria-labelledby="why-we-use">
        <div className="container container--narrow prose">
          <h2 id="why-we-use">{content.whyWeUse.heading}</h2>
          {content.whyWeUse.paragraphs.map((paragraph) => (
            <p key={paragraph.slice(0, 40)}>{paragraph}</p>
          ))}
        </div>
      </section>

      <CallToAction
        id="planitherm-cta"
        title={content.cta.heading}
        quoteText={content.cta.buttonText}
      >
        <p>{content.cta.text}</p>
      </CallToAction>
    </>
  );
}

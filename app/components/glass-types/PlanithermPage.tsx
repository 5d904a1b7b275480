import type { PlanithermContent } from '../../content/glass-types.ts';
import { CallToAction } from '../ui/CallToAction.tsx';
import type { IconName } from '../ui/Icon.tsx';
import { GlassTypeHeader } from './GlassTypeHeader.tsx';
import { ApplicationsSection, ProseSection } from './GlassTypeSections.tsx';
import { Section, SectionHeading } from '../ui/Section.tsx';

const applicationIcons: readonly IconName[] = ['thermometer', 'window', 'door', 'sun'];

/**
 * docs/screens.md#low-e-glass-page: the benefit cards (52%, 81%, reduced
 * condensation), the heat-loss figure (up to 59%), ideal applications and
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

      <Section tone="plain" labelledBy="benefits">
        <SectionHeading
          id="benefits"
          title={content.benefitCards.heading}
          intro={<p>{content.benefitCards.intro}</p>}
        />
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
      </Section>

      <ApplicationsSection section={content.applications} icons={applicationIcons} />

      <ProseSection id="why-we-use" section={content.whyWeUse} />

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

import type { PerformaTechContent } from '../../content/glass-types.ts';
import { CallToAction } from '../ui/CallToAction.tsx';
import type { IconName } from '../ui/Icon.tsx';
import { GlassTypeHeader, TitledCard } from './GlassTypeHeader.tsx';
import { ApplicationsSection, ProseSection } from './GlassTypeSections.tsx';
import { Section, SectionHeading } from '../ui/Section.tsx';

const applicationIcons: readonly IconName[] = ['window', 'retrofit', 'sun'];
const sanctuaryIcons: readonly IconName[] = ['shield', 'award', 'sun'];

/**
 * docs/screens.md#solar-control-glass-page: What is it, Applications, the nine
 * Key Benefits, Range & Sizes (docs/business-rules.md#glass-type-figures) and
 * the Sanctuary premium option.
 */
export function PerformaTechPage({ content }: { content: PerformaTechContent }) {
  return (
    <>
      <GlassTypeHeader
        title={content.title}
        intro={content.intro}
        keyFigures={content.card.keyFigures}
        image={content.image}
        quoteText={content.cta.buttonText}
      />

      <ProseSection id="what-is" section={content.whatIs} />

      <ApplicationsSection section={content.applications} icons={applicationIcons} />

      <Section tone="plain" labelledBy="key-benefits">
        <SectionHeading
          id="key-benefits"
          title={content.keyBenefits.heading}
          intro={<p>{content.keyBenefits.intro}</p>}
        />
        <ul className="check-grid">
          {content.keyBenefits.items.map((item) => (
            <li key={item.title} className="check-grid__item">
              <h3 className="check-grid__title">{item.title}</h3>
              <p>{item.description}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section tone="grey" labelledBy="range-and-sizes">
        <SectionHeading
          id="range-and-sizes"
          title={content.rangeAndSizes.heading}
          intro={<p>{content.rangeAndSizes.intro}</p>}
        />
        <table className="spec-table">
          <caption className="sr-only">{content.productName} performance figures</caption>
          <thead>
            <tr>
              <th scope="col">Specification</th>
              <th scope="col">Figure</th>
              <th scope="col">What it means</th>
            </tr>
          </thead>
          <tbody>
            {content.rangeAndSizes.items.map((spec) => (
              <tr key={spec.label}>
                <th scope="row">{spec.label}</th>
                <td className="spec-table__value">{spec.value}</td>
                <td className="spec-table__note">{spec.note}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="footnote">{content.rangeAndSizes.footnote}</p>
      </Section>

      <section className="section section--plain" aria-labelledby="sanctuary">
        <div className="container">
          <div className="sanctuary-panel">
            <header className="section-heading">
              <p className="eyebrow eyebrow--on-deep">Premium option</p>
              <h2 id="sanctuary">{content.sanctuary.heading}</h2>
              <p className="section-heading__intro">{content.sanctuary.intro}</p>
            </header>
            <ul className="info-grid info-grid--3 info-grid--on-deep">
              {content.sanctuary.items.map((item, index) => (
                <TitledCard key={item.title} {...item} icon={sanctuaryIcons[index] ?? 'check'} />
              ))}
            </ul>
          </div>
        </div>
      </section>

      <CallToAction
        id="performatech-cta"
        title={content.cta.heading}
        quoteText={content.cta.buttonText}
      >
        <p>{content.cta.text}</p>
      </CallToAction>
    </>
  );
}

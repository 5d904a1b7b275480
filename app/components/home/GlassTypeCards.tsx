import type { SectionIntro } from '../../content/home.ts';
import { Icon } from '../ui/Icon.tsx';
import { Illustration } from '../ui/Illustration.tsx';
import { SectionHeading } from '../ui/Section.tsx';
import type { GlassTypeCardData } from './home-cards.ts';

/**
 * docs/screens.md#home-page item 10: the two glass types with their figures,
 * linking to their pages.
 */
export function GlassTypeCards({
  content,
  glassTypes,
}: {
  content: SectionIntro;
  glassTypes: readonly GlassTypeCardData[];
}) {
  return (
    <section
      className="section section--plain glass-types-home"
      aria-labelledby="glass-types-heading"
      data-home-section="glass-types"
    >
      <div className="container">
        <SectionHeading
          id="glass-types-heading"
          title={content.heading}
          intro={<p>{content.intro}</p>}
          align="center"
        />
        <ul className="glass-types-home__grid">
          {glassTypes.map((glassType) => (
            <li key={glassType.slug}>
              <article className="card glass-card" aria-labelledby={`glass-${glassType.slug}`}>
                <Illustration
                  src={glassType.image.src}
                  alt={glassType.image.alt}
                  width={glassType.image.width}
                  height={glassType.image.height}
                  className="glass-card__image"
                />
                <div className="card__body">
                  <h3 className="card__title" id={`glass-${glassType.slug}`}>
                    {glassType.title}
                  </h3>
                  <p>{glassType.summary}</p>
                  <ul className="glass-card__figures">
                    {glassType.figures.map((figure) => (
                      <li key={figure.figure} className="glass-card__figure">
                        <strong>{figure.figure}</strong> <span>{figure.label}</span>
                      </li>
                    ))}
                  </ul>
                  <a href={glassType.path} className="card__link">
                    {glassType.linkText}
                    <Icon name="chevron-right" size={18} />
                  </a>
                </div>
              </article>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

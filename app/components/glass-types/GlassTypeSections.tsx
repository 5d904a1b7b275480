import type { ListSection, TextSection, TitledText } from '../../content/glass-types.ts';
import type { IconName } from '../ui/Icon.tsx';
import { Section, SectionHeading } from '../ui/Section.tsx';
import { TitledCard } from './GlassTypeHeader.tsx';

/** A heading and paragraphs of running text, in a narrow column. */
export function ProseSection({ id, section }: { id: string; section: TextSection }) {
  return (
    <section className="section section--plain" aria-labelledby={id}>
      <div className="container container--narrow prose">
        <h2 id={id}>{section.heading}</h2>
        {section.paragraphs.map((paragraph) => (
          <p key={paragraph.slice(0, 40)}>{paragraph}</p>
        ))}
      </div>
    </section>
  );
}

/**
 * docs/screens.md#solar-control-glass-page: where the glass is used, as a grid
 * of titled cards with icons.
 */
export function ApplicationsSection({
  section,
  icons,
}: {
  section: ListSection<readonly TitledText[]>;
  /** One icon per application, in order. */
  icons: readonly IconName[];
}) {
  return (
    <Section tone="tint" labelledBy="applications">
      <SectionHeading id="applications" title={section.heading} intro={<p>{section.intro}</p>} />
      <ul className={`info-grid info-grid--${section.items.length}`}>
        {section.items.map((item, index) => (
          <TitledCard key={item.title} {...item} icon={icons[index] ?? 'check'} />
        ))}
      </ul>
    </Section>
  );
}

import type { ReactNode } from 'react';

export type SectionTone = 'plain' | 'tint' | 'grey' | 'deep';

/** A full-width band of the page with a centred container. */
export function Section({
  tone = 'plain',
  id,
  labelledBy,
  className,
  narrow,
  children,
}: {
  tone?: SectionTone;
  id?: string;
  /** The id of the section's heading, so assistive technology can name it. */
  labelledBy?: string;
  className?: string;
  narrow?: boolean;
  children: ReactNode;
}) {
  return (
    <section
      id={id}
      aria-labelledby={labelledBy}
      className={`section section--${tone}${className ? ` ${className}` : ''}`}
    >
      <div className={narrow ? 'container container--narrow' : 'container'}>{children}</div>
    </section>
  );
}

export function SectionHeading({
  id,
  eyebrow,
  title,
  intro,
  align = 'start',
}: {
  id: string;
  eyebrow?: string;
  title: string;
  intro?: ReactNode;
  align?: 'start' | 'center';
}) {
  return (
    <header className={`section-heading section-heading--${align}`}>
      {eyebrow ? <p className="eyebrow">{eyebrow}</p> : null}
      <h2 id={id}>{title}</h2>
      {intro ? <div className="section-heading__intro">{intro}</div> : null}
    </header>
  );
}

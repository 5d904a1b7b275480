import type { ReactNode } from 'react';
import { ButtonLink, CallButton } from './ButtonLink.tsx';

/** The banner that ends most pages: a free quote or a phone call. */
export function CallToAction({
  id,
  title,
  children,
  quoteText = 'Request an Estimate',
}: {
  id: string;
  title: string;
  children?: ReactNode;
  quoteText?: string;
}) {
  return (
    <section className="cta-banner" aria-labelledby={id}>
      <div className="container cta-banner__inner">
        <div className="cta-banner__text">
          <h2 id={id}>{title}</h2>
          {children}
        </div>
        <div className="button-row">
          <ButtonLink to="/quote" size="lg">
            {quoteText}
          </ButtonLink>
          <CallButton variant="inverse" size="lg" />
        </div>
      </div>
    </section>
  );
}

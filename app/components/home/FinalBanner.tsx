import type { FinalBanner as FinalBannerContent } from '../../content/home.ts';
import { ButtonLink, CallButton } from '../ui/ButtonLink.tsx';

/**
 * docs/screens.md#home-page item 12: the closing banner with an estimate button
 * and a phone link.
 */
export function FinalBanner({ content }: { content: FinalBannerContent }) {
  return (
    <section
      className="final-banner"
      aria-labelledby="final-banner-heading"
      data-home-section="final"
    >
      <div className="container final-banner__inner">
        <h2 id="final-banner-heading">{content.heading}</h2>
        <p>{content.text}</p>
        <div className="button-row">
          <ButtonLink to={content.estimatePath} size="lg">
            {content.estimateButtonText}
          </ButtonLink>
          <CallButton size="lg">{content.phoneLinkText}</CallButton>
        </div>
      </div>
    </section>
  );
}

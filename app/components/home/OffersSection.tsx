import type { OffersIntro } from '../../content/home.ts';
import { Carousel } from '../carousel/Carousel.tsx';
import { SectionHeading } from '../ui/Section.tsx';
import { HOME_AUTOPLAY_MS } from './carousel-delays.ts';
import type { OfferCardData } from './home-cards.ts';
import { OfferCard } from './OfferCard.tsx';

/**
 * docs/screens.md#home-page item 7: the Special Offers carousel
 * (docs/business-rules.md#offers, 6000 ms, loops).
 */
export function OffersSection({
  content,
  offers,
}: {
  content: OffersIntro;
  offers: readonly OfferCardData[];
}) {
  const someEnded = offers.some((offer) => offer.ended);
  const allEnded = offers.length > 0 && offers.every((offer) => offer.ended);
  return (
    <section
      className="section section--plain offers"
      aria-labelledby="offers-heading"
      data-home-section="offers"
    >
      <div className="container">
        <SectionHeading
          id="offers-heading"
          title={content.heading}
          intro={
            <>
              {/* Never 'current savings' over a row of ended offers. */}
              <p>{allEnded ? content.endedIntro : content.intro}</p>
              {someEnded && !allEnded ? (
                <p className="offers__ended-note">
                  Offers marked as ended have passed their end date. Ask us about current pricing:
                  we will always tell you about any saving that applies to your job.
                </p>
              ) : null}
            </>
          }
        />
        <Carousel
          label="Offers"
          className="offers-carousel"
          autoplayMs={HOME_AUTOPLAY_MS.offers}
          loop
          pauseOnHover
          stopOnInteraction={false}
          slides={offers.map((offer) => (
            <OfferCard key={offer.id} offer={offer} />
          ))}
        />
      </div>
    </section>
  );
}

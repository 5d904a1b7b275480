import type { HomeContent } from '../../content/home.ts';
import { CallToAction } from '../ui/CallToAction.tsx';
import { FinalBanner } from './FinalBanner.tsx';
import { GlassTypeCards } from './GlassTypeCards.tsx';
import type {
  GlassTypeCardData,
  OfferCardData,
  ServiceCardData,
  TestimonialCardData,
} from './home-cards.ts';
import { LocalExperts } from './LocalExperts.tsx';
import { OffersSection } from './OffersSection.tsx';
import { ServiceAreas } from './ServiceAreas.tsx';
import { TestimonialsSection } from './TestimonialsSection.tsx';
import { TrustReasons } from './TrustReasons.tsx';

export interface HomeLowerSectionsProps {
  home: Pick<
    HomeContent,
    | 'localExperts'
    | 'reasonsToTrust'
    | 'ctaBanners'
    | 'offersSection'
    | 'testimonialsSection'
    | 'glassTypesSection'
    | 'serviceArea'
    | 'finalBanner'
  >;
  services: readonly ServiceCardData[];
  offers: readonly OfferCardData[];
  testimonials: readonly TestimonialCardData[];
  glassTypes: readonly GlassTypeCardData[];
}

/**
 * The home page sections that need no JavaScript to be read: the hero (item 1
 * of docs/screens.md#home-page) and items 4-12. Static HTML, prerendered with
 * the page: what reacts in them (carousels, review toggles, map) is started by
 * the page's module script (app/browser/site.ts).
 */
export { HomeHero } from './HomeHero.tsx';

/** docs/screens.md#home-page items 4-12, in order. */
export function HomeLowerSections({
  home,
  services,
  offers,
  testimonials,
  glassTypes,
}: HomeLowerSectionsProps) {
  const [emergencyBanner, quoteBanner] = home.ctaBanners;
  return (
    <>
      {/* 4 */}
      <LocalExperts content={home.localExperts} services={services} />
      {/* 5 */}
      <TrustReasons content={home.reasonsToTrust} />
      {/* 6 */}
      <CallToAction
        id="banner-emergency"
        title={emergencyBanner.heading}
        quoteText={emergencyBanner.buttonText}
      >
        <p>{emergencyBanner.text}</p>
      </CallToAction>
      {/* 7 */}
      <OffersSection content={home.offersSection} offers={offers} />
      {/* 8 */}
      <TestimonialsSection content={home.testimonialsSection} testimonials={testimonials} />
      {/* 9 */}
      <CallToAction
        id="banner-quote"
        title={quoteBanner.heading}
        quoteText={quoteBanner.buttonText}
      >
        <p>{quoteBanner.text}</p>
      </CallToAction>
      {/* 10 */}
      <GlassTypeCards content={home.glassTypesSection} glassTypes={glassTypes} />
      {/* 11 */}
      <ServiceAreas content={home.serviceArea} />
      {/* 12 */}
      <FinalBanner content={home.finalBanner} />
    </>
  );
}

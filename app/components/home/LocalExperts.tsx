import { business } from '../../content/business.ts';
import type { LocalExperts as LocalExpertsContent } from '../../content/home.ts';
import { Carousel } from '../carousel/Carousel.tsx';
import { Icon } from '../ui/Icon.tsx';
import { HOME_AUTOPLAY_MS } from './carousel-delays.ts';
import type { ServiceCardData } from './home-cards.ts';
import { RichParagraphText } from './RichParagraphText.tsx';
import { ServiceCarouselCard } from './ServiceCarouselCard.tsx';

/**
 * docs/screens.md#home-page item 4: local glass experts, with links to the
 * doors and windows services and the autoplaying carousel of the nine service
 * cards (loops, 4000 ms, pauses on hover, keeps going after interaction:
 * docs/interactive-parts.md#home-carousels).
 */
export function LocalExperts({
  content,
  services,
}: {
  content: LocalExpertsContent;
  services: readonly ServiceCardData[];
}) {
  return (
    <section
      className="section section--plain local-experts"
      aria-labelledby="local-experts-heading"
      data-home-section="local-experts"
    >
      <div className="container">
        <header className="section-heading local-experts__heading">
          <p className="eyebrow">Local since {business.foundedYear}</p>
          <h2 id="local-experts-heading">{content.heading}</h2>
          <div className="section-heading__intro">
            {content.paragraphs.map((paragraph, index) => (
              // Fixed copy: the order of the paragraphs is their identity.
              <RichParagraphText key={index} paragraph={paragraph} />
            ))}
          </div>
        </header>
        <Carousel
          label={content.carouselLabel}
          className="services-carousel"
          autoplayMs={HOME_AUTOPLAY_MS.services}
          loop
          pauseOnHover
          stopOnInteraction={false}
          slides={services.map((service) => (
            <ServiceCarouselCard key={service.slug} service={service} />
          ))}
        />
        <p className="local-experts__all">
          <a href="/services" className="card__link">
            See all our services
            <Icon name="chevron-right" size={18} />
          </a>
        </p>
      </div>
    </section>
  );
}

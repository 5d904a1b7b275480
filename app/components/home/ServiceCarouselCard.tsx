import { Icon } from '../ui/Icon.tsx';
import { Illustration } from '../ui/Illustration.tsx';
import type { ServiceCardData } from './home-cards.ts';

/**
 * docs/screens.md#home-page item 4: a service card of the carousel (image,
 * title, blurb, Learn More).
 */
export function ServiceCarouselCard({ service }: { service: ServiceCardData }) {
  const headingId = `home-service-${service.slug}`;
  return (
    <article className="card service-slide" aria-labelledby={headingId}>
      <Illustration
        src={service.image.src}
        alt={service.image.alt}
        width={service.image.width}
        height={service.image.height}
        fallbackLabel={service.placeholderLabel}
        className="service-slide__image"
      />
      <div className="card__body">
        <span className="icon-badge service-slide__icon" aria-hidden="true">
          <Icon name={service.icon} size={24} />
        </span>
        <h3 className="card__title" id={headingId}>
          {service.title}
        </h3>
        <p className="service-slide__blurb">{service.blurb}</p>
        <a href={service.path} className="card__link">
          Learn More<span className="sr-only"> about {service.title}</span>
          <Icon name="chevron-right" size={18} />
        </a>
      </div>
    </article>
  );
}

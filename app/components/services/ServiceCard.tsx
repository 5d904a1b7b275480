import { Icon, type IconName } from '../ui/Icon.tsx';
import { Illustration } from '../ui/Illustration.tsx';

/** What a card on the services overview needs (docs/business-rules.md#services). */
export interface ServiceCardData {
  slug: string;
  path: string;
  title: string;
  icon: IconName;
  description: string;
  image: { src: string; alt: string; width: number; height: number };
  placeholderLabel: string;
}

/**
 * One card of the 'Our Services' grid (docs/screens.md#services-overview): image, icon, title,
 * description and a Learn More link. The link's name says where it goes
 * ('Learn More about Windows & Double Glazing'), and the whole card is its
 * tap target.
 */
export function ServiceCard({
  service,
  headingId,
}: {
  service: ServiceCardData;
  headingId: string;
}) {
  return (
    <article className="card service-card" aria-labelledby={headingId}>
      <Illustration
        src={service.image.src}
        alt={service.image.alt}
        width={service.image.width}
        height={service.image.height}
        fallbackLabel={service.placeholderLabel}
        className="service-card__image"
      />
      <div className="card__body">
        <span className="icon-badge service-card__icon">
          <Icon name={service.icon} size={26} />
        </span>
        <h2 id={headingId} className="card__title">
          {service.title}
        </h2>
        <p>{service.description}</p>
        <a href={service.path} className="card__link service-card__link">
          Learn More<span className="sr-only"> about {service.title}</span>
          <Icon name="chevron-right" size={18} />
        </a>
      </div>
    </article>
  );
}

import type { ServiceAreaSection } from '../../content/home.ts';
import { MapEmbed } from '../MapEmbed.tsx';
import { Icon } from '../ui/Icon.tsx';

/** docs/screens.md#home-page item 11: the map, the five areas served and the 200 km radius. */
export function ServiceAreas({ content }: { content: ServiceAreaSection }) {
  return (
    <section
      className="section section--tint service-areas"
      aria-labelledby="service-areas-heading"
      data-home-section="service-areas"
    >
      <div className="container service-areas__inner">
        <div className="service-areas__text">
          <h2 id="service-areas-heading">{content.heading}</h2>
          {content.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
          <h3 className="service-areas__subheading">{content.areasHeading}</h3>
          <ul className="service-areas__list">
            {content.areas.map((area) => (
              <li key={area}>
                <Icon name="map-pin" size={18} />
                {area}
              </li>
            ))}
          </ul>
          <p className="service-areas__radius">
            <Icon name="map-pin" size={18} />
            {content.radiusText}
          </p>
        </div>
        <div className="service-areas__map">
          <MapEmbed title={content.mapTitle} />
        </div>
      </div>
    </section>
  );
}

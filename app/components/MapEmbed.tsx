import { business } from '../content/business.ts';
import { MAP_PREVIEW } from './map-embed.ts';
import { Icon } from './ui/Icon.tsx';
import { Illustration } from './ui/Illustration.tsx';

/**
 * The embedded interactive map of the home and contact pages
 * (docs/interactive-parts.md#map). A light local preview stands in until the
 * visitor asks for the live map, so the maps service costs the page no
 * speed, sets no cookies unasked, and an unreachable maps host only ever
 * fails inside its own frame. The plain 'Open in Google Maps' link works
 * without JavaScript; the button is map-embed.ts's, which the page's module
 * script (app/browser/site.ts) starts. The CSP allows the map's origin in
 * frame-src (server/csp.server.ts).
 */
export function MapEmbed({
  title,
}: {
  /** The iframe's title, read by screen readers, e.g. 'Map of Harbourside Glass in Tauriko, Tauranga'. */
  title: string;
}) {
  return (
    <div className="map-embed" data-map-src={business.mapEmbedUrl} data-map-title={title}>
      <div className="map-embed__frame">
        <Illustration
          src={MAP_PREVIEW.src}
          alt={`${title} (simplified preview)`}
          width={MAP_PREVIEW.width}
          height={MAP_PREVIEW.height}
          fallbackLabel="Map preview"
          className="map-embed__preview"
        />
        <div className="map-embed__overlay">
          <button type="button" className="button button--secondary map-embed__show">
            <Icon name="map-pin" size={18} />
            Show interactive map
          </button>
        </div>
      </div>
      <p className="map-embed__links">
        <a href={business.mapLinkUrl} target="_blank" rel="noopener noreferrer">
          Open in Google Maps
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
        <span className="map-embed__note">
          The interactive map loads from Google when you ask for it.
        </span>
      </p>
    </div>
  );
}

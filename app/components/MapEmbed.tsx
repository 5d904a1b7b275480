import { useRef, useState } from 'react';
import { business } from '../content/business.ts';
import { Icon } from './ui/Icon.tsx';
import { Illustration } from './ui/Illustration.tsx';

/** Size of /images/map-preview.svg; the live map takes the same box, so nothing moves. */
const PREVIEW = { src: '/images/map-preview.svg', width: 800, height: 500 } as const;

/**
 * The embedded interactive map (SPEC §2 home and contact pages, §7 'an
 * embedded third-party iframe'). A light local preview stands in until the
 * visitor asks for the live map, so the maps service costs the page no
 * speed, sets no cookies unasked, and an unreachable maps host only ever
 * fails inside its own frame. The plain 'Open in Google Maps' link works
 * without JavaScript. The CSP allows the map's origin in frame-src
 * (server/csp.server.ts).
 */
export function MapEmbed({
  title,
}: {
  /** The iframe's title, read by screen readers, e.g. 'Map of Harbourside Glass in Tauriko, Tauranga'. */
  title: string;
}) {
  const [live, setLive] = useState(false);
  const frameRef = useRef<HTMLIFrameElement>(null);

  return (
    <div className="map-embed" data-live={live || undefined}>
      <div className="map-embed__frame">
        {live ? (
          <iframe
            ref={frameRef}
            className="map-embed__iframe"
            src={business.mapEmbedUrl}
            title={title}
            width={PREVIEW.width}
            height={PREVIEW.height}
            loading="lazy"
            referrerPolicy="no-referrer-when-downgrade"
            allowFullScreen
          />
        ) : (
          <>
            <Illustration
              src={PREVIEW.src}
              alt={`${title} (simplified preview)`}
              width={PREVIEW.width}
              height={PREVIEW.height}
              fallbackLabel="Map preview"
              className="map-embed__preview"
            />
            <div className="map-embed__overlay">
              <button
                type="button"
                className="button button--secondary map-embed__show"
                onClick={() => {
                  setLive(true);
                  // The button is gone: keep keyboard focus on the map that replaced it.
                  requestAnimationFrame(() => frameRef.current?.focus());
                }}
              >
                <Icon name="map-pin" size={18} />
                Show interactive map
              </button>
            </div>
          </>
        )}
      </div>
      <p className="map-embed__links">
        <a href={business.mapLinkUrl} target="_blank" rel="noopener noreferrer">
          Open in Google Maps
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
        {live ? null : (
          <span className="map-embed__note">
            The interactive map loads from Google when you ask for it.
          </span>
        )}
      </p>
    </div>
  );
}

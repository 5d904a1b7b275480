import { defineBehaviour } from '../browser/behaviour.ts';

/** Size of /images/map-preview.svg; the live map takes the same box, so nothing moves. */
export const MAP_PREVIEW = { src: '/images/map-preview.svg', width: 800, height: 500 } as const;

/**
 * The 'Show interactive map' button of MapEmbed.tsx: replaces the local
 * preview with the live map (its address and title are on the element, as
 * `data-map-src` and `data-map-title`) and keeps keyboard focus on the map,
 * as the button it replaces is gone. `data-map-ready` shows the button
 * (map.css): without this module it could do nothing.
 */
export const startMapEmbeds = defineBehaviour<HTMLElement>('.map-embed[data-map-src]', (root) => {
  const button = root.querySelector<HTMLButtonElement>('.map-embed__show');
  const showMap = () => {
    const frame = document.createElement('iframe');
    for (const [name, value] of Object.entries({
      class: 'map-embed__iframe',
      src: root.dataset.mapSrc ?? '',
      title: root.dataset.mapTitle ?? '',
      width: String(MAP_PREVIEW.width),
      height: String(MAP_PREVIEW.height),
      loading: 'lazy',
      referrerpolicy: 'no-referrer-when-downgrade',
      allowfullscreen: '',
    })) {
      frame.setAttribute(name, value);
    }
    root.querySelector('.map-embed__frame')?.replaceChildren(frame);
    root.querySelector('.map-embed__note')?.remove();
    root.setAttribute('data-live', 'true');
    frame.focus();
  };
  button?.addEventListener('click', showMap);
  root.setAttribute('data-map-ready', '');
  return () => {
    button?.removeEventListener('click', showMap);
    root.removeAttribute('data-map-ready');
  };
});

// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { business } from '../content/business.ts';
import { startMapEmbeds } from './map-embed.ts';
import { MapEmbed } from './MapEmbed.tsx';

/** What renderStarted started, stopped after each test. */
const stops: (() => void)[] = [];

/** Renders the map and starts its module on it, as the page's script does (app/browser/site.ts). */
function renderStarted(title: string) {
  const result = render(<MapEmbed title={title} />);
  stops.push(startMapEmbeds(result.container));
  return result;
}

afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  cleanup();
  document.body.replaceChildren();
});

describe('MapEmbed', () => {
  it('shows a local preview and a plain link, and no third-party frame until asked', () => {
    const { container } = renderStarted('Map of our workshop');
    expect(container.querySelector('iframe')).toBeNull();
    const preview = screen.getByRole('img', { name: /Map of our workshop/ });
    expect(preview.getAttribute('src')).toBe('/images/map-preview.svg');
    expect(preview.getAttribute('loading')).toBe('lazy');
    const link = screen.getByRole('link', { name: /Open in Google Maps/ });
    expect(link.getAttribute('href')).toBe(business.mapLinkUrl);
    expect(link.getAttribute('rel')).toContain('noopener');
  });

  it('becomes the live, lazy, titled iframe when the visitor asks', () => {
    const { container } = renderStarted('Map of our workshop');
    fireEvent.click(screen.getByRole('button', { name: 'Show interactive map' }));
    const frame = container.querySelector('iframe')!;
    expect(frame.getAttribute('src')).toBe(business.mapEmbedUrl);
    expect(frame.getAttribute('title')).toBe('Map of our workshop');
    expect(frame.getAttribute('loading')).toBe('lazy');
    expect(frame.getAttribute('referrerpolicy')).toBe('no-referrer-when-downgrade');
    expect(screen.queryByRole('button', { name: 'Show interactive map' })).toBeNull();
    expect(screen.getByRole('link', { name: /Open in Google Maps/ })).toBeTruthy();
  });
});

describe('startMapEmbeds: the map on a static page', () => {
  it('shows the button once started, and the live map with focus on it when asked', () => {
    document.body.innerHTML = renderToStaticMarkup(<MapEmbed title="Map of our workshop" />);
    const root = document.querySelector<HTMLElement>('.map-embed')!;
    // map.css hides the button until then: without the module it could do nothing.
    expect(root.hasAttribute('data-map-ready')).toBe(false);
    const stop = startMapEmbeds();
    startMapEmbeds();
    expect(root.hasAttribute('data-map-ready')).toBe(true);

    screen.getByRole('button', { name: 'Show interactive map' }).click();
    const frames = root.querySelectorAll('iframe');
    expect(frames).toHaveLength(1);
    const frame = frames[0]!;
    expect(frame.parentElement!.className).toBe('map-embed__frame');
    expect(Object.fromEntries([...frame.attributes].map((a) => [a.name, a.value]))).toEqual({
      class: 'map-embed__iframe',
      src: business.mapEmbedUrl,
      title: 'Map of our workshop',
      width: '800',
      height: '500',
      loading: 'lazy',
      referrerpolicy: 'no-referrer-when-downgrade',
      allowfullscreen: '',
    });
    expect(document.activeElement).toBe(frame);
    expect(root.querySelector('img, .map-embed__overlay, .map-embed__note')).toBeNull();
    expect(root.getAttribute('data-live')).toBe('true');
    expect(screen.getByRole('link', { name: /Open in Google Maps/ })).toBeTruthy();

    stop();
    expect(root.hasAttribute('data-map-ready')).toBe(false);
  });
});

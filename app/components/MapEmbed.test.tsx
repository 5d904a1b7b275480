// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { business } from '../content/business.ts';
import { MapEmbed } from './MapEmbed.tsx';

afterEach(cleanup);

describe('MapEmbed (SPEC §2, §7)', () => {
  it('shows a local preview and a plain link, and no third-party frame until asked', () => {
    const { container } = render(<MapEmbed title="Map of our workshop" />);
    expect(container.querySelector('iframe')).toBeNull();
    const preview = screen.getByRole('img', { name: /Map of our workshop/ });
    expect(preview.getAttribute('src')).toBe('/images/map-preview.svg');
    expect(preview.getAttribute('loading')).toBe('lazy');
    const link = screen.getByRole('link', { name: /Open in Google Maps/ });
    expect(link.getAttribute('href')).toBe(business.mapLinkUrl);
    expect(link.getAttribute('rel')).toContain('noopener');
  });

  it('becomes the live, lazy, titled iframe when the visitor asks', () => {
    const { container } = render(<MapEmbed title="Map of our workshop" />);
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

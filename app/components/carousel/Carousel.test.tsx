// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Carousel, slidePositionText, visibleSlideIndexes } from './Carousel.tsx';

/** jsdom has no matchMedia: answer the reduced-motion query as asked. */
function mockReducedMotion(reduce: boolean) {
  window.matchMedia = ((query: string) => ({
    matches: reduce && query.includes('prefers-reduced-motion: reduce'),
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
}

const slides = ['Alpha', 'Bravo', 'Charlie', 'Delta'].map((name) => <p key={name}>{name}</p>);

beforeEach(() => mockReducedMotion(false));
afterEach(cleanup);

describe('Carousel markup (WAI-ARIA carousel pattern)', () => {
  it('is a labelled carousel region of labelled slide groups, every slide in the HTML', () => {
    render(<Carousel label="Our glass services" slides={slides} autoplayMs={4000} loop />);
    const region = screen.getByRole('region', { name: 'Our glass services' });
    expect(region.getAttribute('aria-roledescription')).toBe('carousel');
    const groups = within(region).getAllByRole('group');
    expect(groups.map((group) => group.getAttribute('aria-label'))).toEqual([
      '1 of 4',
      '2 of 4',
      '3 of 4',
      '4 of 4',
    ]);
    for (const group of groups) expect(group.getAttribute('aria-roledescription')).toBe('slide');
    expect(region.textContent).toContain('Delta');
    // Before Embla runs nothing is hidden from anyone.
    expect(groups.some((group) => group.hasAttribute('inert'))).toBe(false);
  });

  it('puts the Pause control first, then previous and next, all naming the track', () => {
    render(<Carousel label="Offers" slides={slides} autoplayMs={6000} />);
    const buttons = screen.getAllByRole('button');
    expect(buttons.map((button) => button.getAttribute('aria-label'))).toEqual([
      'Pause slide show',
      'Previous slide',
      'Next slide',
    ]);
    expect(buttons[0]?.textContent).toBe('Pause');
    const trackId = buttons[0]?.getAttribute('aria-controls');
    expect(trackId).toBeTruthy();
    expect(document.getElementById(trackId!)?.querySelectorAll('[role="group"]')).toHaveLength(4);
    for (const button of buttons) expect(button.getAttribute('aria-controls')).toBe(trackId);
  });

  it('toggles between Pause and Play', () => {
    render(<Carousel label="Offers" slides={slides} autoplayMs={6000} />);
    fireEvent.click(screen.getByRole('button', { name: 'Pause slide show' }));
    fireEvent.click(screen.getByRole('button', { name: 'Play slide show' }));
    expect(screen.getByRole('button', { name: 'Pause slide show' })).toBeTruthy();
  });

  it('does not autoplay under prefers-reduced-motion: the control offers Play', () => {
    mockReducedMotion(true);
    render(<Carousel label="Offers" slides={slides} autoplayMs={6000} />);
    expect(screen.getByRole('button', { name: 'Play slide show' })).toBeTruthy();
  });

  it('has no Pause control without autoplay, and no controls for a single slide', () => {
    render(<Carousel label="Photos" slides={slides} slidesPerView={1} />);
    expect(screen.queryByRole('button', { name: /slide show/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Next slide' })).toBeTruthy();
    expect(screen.getByRole('region').className).toContain('carousel--single');
    cleanup();
    render(<Carousel label="One photo" slides={[<p key="only">Only</p>]} autoplayMs={4000} />);
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });

  it('keeps its live region quiet until a slide changes', () => {
    render(<Carousel label="Offers" slides={slides} autoplayMs={6000} />);
    const live = document.querySelector('[aria-live]');
    expect(live?.getAttribute('aria-live')).toBe('polite');
    expect(live?.textContent).toBe('');
  });
});

describe('slide positions', () => {
  it('lists the slides in view, wrapping only when looping', () => {
    expect(visibleSlideIndexes(0, 3, 9, true)).toEqual([0, 1, 2]);
    expect(visibleSlideIndexes(8, 3, 9, true)).toEqual([8, 0, 1]);
    expect(visibleSlideIndexes(8, 3, 9, false)).toEqual([8]);
    expect(visibleSlideIndexes(1, 1, 2, false)).toEqual([1]);
    expect(visibleSlideIndexes(0, 3, 2, true)).toEqual([0, 1]);
  });

  it('announces one slide or a range', () => {
    expect(slidePositionText([2], 9)).toBe('Slide 3 of 9');
    expect(slidePositionText([2, 3, 4], 9)).toBe('Slides 3 to 5 of 9');
    expect(slidePositionText([8, 0, 1], 9)).toBe('Slides 9, 1 and 2 of 9');
  });
});

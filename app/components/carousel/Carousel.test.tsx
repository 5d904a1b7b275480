// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Carousel } from './Carousel.tsx';
import {
  slidePositionText,
  startCarousel,
  startCarousels,
  visibleSlideIndexes,
} from './carousel.ts';

/** The listeners of the mocked reduced-motion query, to announce a change of preference. */
const motionListeners = new Set<() => void>();
let prefersReducedMotion = false;

/** jsdom has no matchMedia: answer the reduced-motion query as asked. */
function mockReducedMotion(reduce: boolean) {
  prefersReducedMotion = reduce;
  window.matchMedia = ((query: string) => ({
    get matches() {
      return prefersReducedMotion && query.includes('prefers-reduced-motion: reduce');
    },
    media: query,
    onchange: null,
    addEventListener: (_type: string, listener: () => void) => motionListeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => motionListeners.delete(listener),
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
}

/** The visitor changes their motion preference while the page is open. */
function changeReducedMotion(reduce: boolean) {
  prefersReducedMotion = reduce;
  for (const listener of motionListeners) listener();
}

const slides = ['Alpha', 'Bravo', 'Charlie', 'Delta'].map((name) => <p key={name}>{name}</p>);

/** Renders a carousel and starts its module on it, as the page's script does (app/browser/site.ts). */
function renderStarted(ui: ReactElement) {
  const result = render(ui);
  startCarousels(result.container);
  return result;
}

beforeEach(() => mockReducedMotion(false));
afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
  motionListeners.clear();
});

describe('Carousel markup, started by its module (WAI-ARIA carousel pattern)', () => {
  it('is a labelled carousel region of labelled slide groups, every slide in the HTML', () => {
    renderStarted(<Carousel label="Our glass services" slides={slides} autoplayMs={4000} loop />);
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
    renderStarted(<Carousel label="Offers" slides={slides} autoplayMs={6000} />);
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
    renderStarted(<Carousel label="Offers" slides={slides} autoplayMs={6000} />);
    fireEvent.click(screen.getByRole('button', { name: 'Pause slide show' }));
    fireEvent.click(screen.getByRole('button', { name: 'Play slide show' }));
    expect(screen.getByRole('button', { name: 'Pause slide show' })).toBeTruthy();
  });

  it('does not autoplay under prefers-reduced-motion: the control offers Play', () => {
    mockReducedMotion(true);
    renderStarted(<Carousel label="Offers" slides={slides} autoplayMs={6000} />);
    const play = screen.getByRole('button', { name: 'Play slide show' });
    expect(play.textContent).toBe('Play');
  });

  it('follows a change of the motion preference until the visitor chooses', () => {
    renderStarted(<Carousel label="Offers" slides={slides} autoplayMs={6000} />);
    changeReducedMotion(true);
    expect(screen.getByRole('button', { name: 'Play slide show' })).toBeTruthy();
    changeReducedMotion(false);
    fireEvent.click(screen.getByRole('button', { name: 'Pause slide show' }));
    // The visitor's Pause outlasts a later change of preference.
    changeReducedMotion(true);
    changeReducedMotion(false);
    expect(screen.getByRole('button', { name: 'Play slide show' })).toBeTruthy();
  });

  it('has no Pause control without autoplay, and no controls for a single slide', () => {
    renderStarted(<Carousel label="Photos" slides={slides} slidesPerView={1} />);
    expect(screen.queryByRole('button', { name: /slide show/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Next slide' })).toBeTruthy();
    expect(screen.getByRole('region').className).toContain('carousel--single');
    cleanup();
    renderStarted(
      <Carousel label="One photo" slides={[<p key="only">Only</p>]} autoplayMs={4000} />,
    );
    expect(screen.queryAllByRole('button')).toHaveLength(0);
  });

  it('keeps its live region quiet until a slide changes', () => {
    renderStarted(<Carousel label="Offers" slides={slides} autoplayMs={6000} />);
    const live = document.querySelector('[aria-live]');
    expect(live?.getAttribute('aria-live')).toBe('polite');
    expect(live?.textContent).toBe('');
  });
});

describe('a carousel rendered to static HTML, started by the module', () => {
  /** The page as a static site serves it: the component's HTML, no React in the browser. */
  function staticPage(...carousels: ReactElement[]) {
    document.body.innerHTML = carousels.map((carousel) => renderToStaticMarkup(carousel)).join('');
  }

  it('carries its options as data attributes, and the no-JavaScript scroller', () => {
    staticPage(
      <Carousel
        label="Windows: pictures"
        slides={slides}
        autoplayMs={4000}
        pauseOnHover={false}
        slidesPerView={1}
        slideErrorMessage="Windows: picture {n} failed to load"
      />,
    );
    const root = document.querySelector<HTMLElement>('[data-carousel]')!;
    expect(root.dataset).toMatchObject({
      autoplayMs: '4000',
      slideErrorMessage: 'Windows: picture {n} failed to load',
    });
    expect(root.hasAttribute('data-loop')).toBe(false);
    expect(root.hasAttribute('data-pause-on-hover')).toBe(false);
    expect(root.hasAttribute('data-carousel-ready')).toBe(false);
    // The native scroller takes keyboard focus until Embla drives it.
    expect(root.querySelector('.carousel__viewport')?.getAttribute('tabindex')).toBe('0');
  });

  it('startCarousels starts every carousel on the page', () => {
    mockReducedMotion(true);
    staticPage(
      <Carousel label="Our glass services" slides={slides} autoplayMs={4000} loop />,
      <Carousel label="Offers" slides={slides} autoplayMs={6000} loop />,
    );
    startCarousels();
    const toggles = screen.getAllByRole('button', { name: /slide show/ });
    expect(toggles.map((toggle) => toggle.getAttribute('aria-label'))).toEqual([
      'Play slide show',
      'Play slide show',
    ]);
    fireEvent.click(toggles[1]!);
    expect(toggles[1]?.getAttribute('aria-label')).toBe('Pause slide show');
    expect(toggles[1]?.textContent).toBe('Pause');
    // Each carousel has its own state: the first one is still paused.
    expect(toggles[0]?.getAttribute('aria-label')).toBe('Play slide show');
  });

  it('shows one icon at a time on the Pause/Play control', () => {
    staticPage(<Carousel label="Offers" slides={slides} autoplayMs={6000} />);
    startCarousels();
    const toggle = screen.getByRole('button', { name: 'Pause slide show' });
    const icon = (name: string) =>
      toggle.querySelector<HTMLElement>(`[data-carousel-icon="${name}"]`)!;
    expect([icon('pause').hidden, icon('play').hidden]).toEqual([false, true]);
    fireEvent.click(toggle);
    expect([icon('pause').hidden, icon('play').hidden]).toEqual([true, false]);
  });

  it('a second start of the same carousel changes nothing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      staticPage(
        <Carousel
          label="Windows: pictures"
          slides={['a', 'b'].map((name) => (
            <img key={name} src={`/missing-${name}.png`} alt="" />
          ))}
          slideErrorMessage="Windows: picture {n} failed to load"
        />,
      );
      const root = document.querySelector<HTMLElement>('[data-carousel]')!;
      startCarousel(root);
      startCarousel(root);
      // Had both started, every listener would be there twice.
      document.querySelectorAll('img')[0]!.dispatchEvent(new Event('error'));
      expect(warn.mock.calls).toEqual([['Windows: picture 1 failed to load']]);
    } finally {
      warn.mockRestore();
    }
  });

  it('logs a failed image with its slide number when the page asks', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      staticPage(
        <Carousel
          label="Windows: pictures"
          slides={['a', 'b'].map((name) => (
            <img key={name} src={`/missing-${name}.png`} alt="" />
          ))}
          slideErrorMessage="Windows: picture {n} failed to load"
        />,
      );
      startCarousels();
      document.querySelectorAll('img')[1]!.dispatchEvent(new Event('error'));
      expect(warn).toHaveBeenCalledWith('Windows: picture 2 failed to load');
    } finally {
      warn.mockRestore();
    }
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

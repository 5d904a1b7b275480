import { useId, type ReactNode } from 'react';
import { Icon } from '../ui/Icon.tsx';
import { carouselAttributes } from './carousel.ts';

export interface CarouselProps {
  /** Accessible name of the carousel region, e.g. 'Our glass services'. */
  label: string;
  /** The slides in order; each is wrapped in a group labelled '3 of 9'. */
  slides: readonly ReactNode[];
  /**
   * Milliseconds between automatic moves (docs/interactive-parts.md#carousels);
   * 0 or omitted: no autoplay and no Pause control.
   */
  autoplayMs?: number;
  /**
   * Wrap from the last slide to the first
   * (docs/interactive-parts.md#home-carousels). Default false.
   */
  loop?: boolean;
  /**
   * Pause autoplay while the mouse is over the carousel
   * (docs/interactive-parts.md#carousels). Default true.
   */
  pauseOnHover?: boolean;
  /**
   * Turn autoplay off for good once the visitor swipes or moves the slides;
   * false on the home page (docs/interactive-parts.md#home-carousels). Default
   * false.
   */
  stopOnInteraction?: boolean;
  /**
   * 'responsive': 1 slide below 768 px, 2 from 768 px, 3 from 1024 px
   * (docs/interactive-parts.md#slides-per-view); 1: always one. Default
   * 'responsive'.
   */
  slidesPerView?: 'responsive' | 1;
  /**
   * Logged as a warning when an image inside a slide fails to load, `{n}`
   * standing for the slide's number
   * (docs/interactive-parts.md#image-placeholders: logged on some carousels).
   * Text, not a callback, so that a page rendered to static HTML keeps it.
   */
  slideErrorMessage?: string;
  /** Extra class on the carousel root, for the page's own styling. */
  className?: string;
}

/**
 * An accessible carousel (docs/interactive-parts.md#carousels),
 * following the WAI-ARIA carousel pattern: a labelled region, slides as
 * labelled groups, previous/next buttons, a Pause/Play control first in the
 * tab order and a live region for the slide's position.
 *
 * This is the markup only, as the page is prerendered: every slide in a
 * native scrolling list that works without JavaScript, the options as data
 * attributes. Its behaviour (Embla loaded on demand, autoplay, pauses,
 * keyboard, reduced motion) is `carousel.ts`, which rewrites the state shown
 * here (the control's label, inert slides, the announcement) as it changes;
 * this component renders no state. The page's module script
 * (app/browser/site.ts) starts it with `startCarousels()`.
 */
export function Carousel({
  label,
  slides,
  autoplayMs = 0,
  loop = false,
  pauseOnHover = true,
  stopOnInteraction = false,
  slidesPerView = 'responsive',
  slideErrorMessage,
  className,
}: CarouselProps) {
  const count = slides.length;
  const hasAutoplay = autoplayMs > 0 && count > 1;
  const trackId = useId();

  const classes = [
    'carousel',
    slidesPerView === 1 ? 'carousel--single' : 'carousel--responsive',
    className,
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <div
      className={classes}
      role="region"
      aria-roledescription="carousel"
      aria-label={label}
      {...carouselAttributes({
        autoplayMs,
        loop,
        pauseOnHover,
        stopOnInteraction,
        slideErrorMessage,
      })}
    >
      {count > 1 ? (
        <div className="carousel__controls">
          {hasAutoplay ? (
            // Rendered as playing (motion assumed fine); the module shows Play
            // at once under prefers-reduced-motion.
            <button
              type="button"
              className="carousel__button carousel__toggle"
              aria-controls={trackId}
              // The label changes with the state (WAI-ARIA carousel pattern) and starts with the visible word.
              aria-label="Pause slide show"
              data-carousel-toggle=""
            >
              {/* Both icons are here, one hidden, so the module only flips `hidden`. */}
              <span data-carousel-icon="pause">
                <Icon name="pause" size={18} />
              </span>
              <span data-carousel-icon="play" hidden>
                <Icon name="play" size={18} />
              </span>
              <span data-carousel-toggle-text="">Pause</span>
            </button>
          ) : null}
          <button
            type="button"
            className="carousel__button carousel__arrow"
            aria-controls={trackId}
            aria-label="Previous slide"
            data-carousel-move="previous"
          >
            <Icon name="chevron-left" size={22} />
          </button>
          <button
            type="button"
            className="carousel__button carousel__arrow"
            aria-controls={trackId}
            aria-label="Next slide"
            data-carousel-move="next"
          >
            <Icon name="chevron-right" size={22} />
          </button>
        </div>
      ) : null}
      {/* Until Embla is ready (and without JavaScript) the viewport is a native
          scroller, which keyboard users must be able to focus to scroll; the
          module removes it from the tab order once Embla drives it. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must be focusable (axe: scrollable-region-focusable) */}
      <div className="carousel__viewport" tabIndex={0}>
        <div className="carousel__track" id={trackId}>
          {slides.map((slide, index) => (
            <div
              // Slides are a fixed list from the page's content: the index is their identity.
              key={index}
              className="carousel__slide"
              role="group"
              aria-roledescription="slide"
              aria-label={`${index + 1} of ${count}`}
              data-slide-index={index}
            >
              {slide}
            </div>
          ))}
        </div>
      </div>
      <div className="sr-only" aria-live="polite" aria-atomic="true" data-carousel-status="" />
    </div>
  );
}

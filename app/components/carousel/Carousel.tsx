import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import type { EmblaCarouselType } from 'embla-carousel';
import type { AutoplayType } from 'embla-carousel-autoplay';
import { Icon } from '../ui/Icon.tsx';

export interface CarouselProps {
  /** Accessible name of the carousel region, e.g. 'Our glass services'. */
  label: string;
  /** The slides in order; each is wrapped in a group labelled '3 of 9'. */
  slides: readonly ReactNode[];
  /** Milliseconds between automatic moves (SPEC §9); 0 or omitted: no autoplay and no Pause control. */
  autoplayMs?: number;
  /** Wrap from the last slide to the first (home carousels, SPEC §4). Default false. */
  loop?: boolean;
  /** Pause autoplay while the mouse is over the carousel (SPEC §4). Default true. */
  pauseOnHover?: boolean;
  /** Turn autoplay off for good once the visitor swipes or moves the slides; false on the home page (SPEC §4). Default false. */
  stopOnInteraction?: boolean;
  /** 'responsive': 1 slide below 768 px, 2 from 768 px, 3 from 1024 px (SPEC §9); 1: always one. Default 'responsive'. */
  slidesPerView?: 'responsive' | 1;
  /** Called with the slide's index when an image inside it fails to load (SPEC §8: logged on some carousels). */
  onSlideError?: (index: number) => void;
  /** Extra class on the carousel root, for the page's own styling. */
  className?: string;
}

/** Embla's swipe threshold in px, SPEC §9 'threshold 5px'. */
export const SWIPE_THRESHOLD_PX = 5;

/**
 * Load Embla this far before the carousel scrolls into view, so it is ready
 * when seen but costs nothing on first load when below the fold.
 */
const LOAD_MARGIN = '400px 0px';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function subscribeReducedMotion(onChange: () => void) {
  const list = window.matchMedia(REDUCED_MOTION);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

/** Prerendered HTML assumes motion is fine; the first client render agrees, then updates. */
function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribeReducedMotion,
    () => window.matchMedia(REDUCED_MOTION).matches,
    () => false,
  );
}

/** Whether the browser has what Embla needs; without it the native scroller stays. */
function canEnhance(): boolean {
  return 'IntersectionObserver' in window && 'ResizeObserver' in window;
}

/** The indexes of the slides in view when `first` is the first one. */
export function visibleSlideIndexes(
  first: number,
  perView: number,
  count: number,
  loop: boolean,
): number[] {
  const indexes: number[] = [];
  for (let offset = 0; offset < Math.min(perView, count); offset += 1) {
    const index = first + offset;
    if (index < count) indexes.push(index);
    else if (loop) indexes.push(index % count);
  }
  return indexes;
}

/** What the live region says after a move: 'Slide 3 of 9' or 'Slides 3 to 5 of 9'. */
export function slidePositionText(visible: readonly number[], count: number): string {
  const numbers = visible.map((index) => index + 1);
  const first = numbers[0] ?? 1;
  const last = numbers.at(-1) ?? first;
  if (numbers.length < 2) return `Slide ${first} of ${count}`;
  if (last > first) return `Slides ${first} to ${last} of ${count}`;
  // Wrapped round the end of a looping carousel: 'Slides 9, 1 and 2 of 9'.
  return `Slides ${numbers.slice(0, -1).join(', ')} and ${last} of ${count}`;
}

/**
 * An accessible carousel on Embla (SPEC §2 home and service carousels, §4,
 * §9), following the WAI-ARIA carousel pattern: a labelled region, slides as
 * labelled groups, previous/next buttons, a Pause/Play control first in the
 * tab order, Left/Right arrow keys, and a polite announcement of the slide
 * only while autoplay is off.
 *
 * Until Embla runs (no JavaScript, or before the carousel nears the viewport,
 * when Embla is loaded on demand to keep it out of the first-load bundle),
 * the track is a native horizontally scrolling, snapping list, so every
 * slide is reachable. Both states lay the slides out identically, so the
 * switch does not move the page. The root gets `data-carousel-ready` once
 * Embla drives it.
 *
 * Swipes: Embla starts a drag after `dragThreshold` (5 px, SPEC §9). It has no
 * equivalent of the 300 ms short/long-swipe split and 0.5 long-swipe ratio of
 * SPEC §9: on release it projects the pointer's velocity and settles on the
 * nearest slide (a quick flick moves on, a slow drag past half a slide
 * moves on too), which gives the same feel.
 *
 * Autoplay (SPEC §4) pauses while the mouse is over it (`pauseOnHover`) and
 * while keyboard focus is inside it, and never runs under
 * `prefers-reduced-motion: reduce` unless the visitor presses Play.
 */
export function Carousel({
  label,
  slides,
  autoplayMs = 0,
  loop = false,
  pauseOnHover = true,
  stopOnInteraction = false,
  slidesPerView = 'responsive',
  onSlideError,
  className,
}: CarouselProps) {
  const count = slides.length;
  const hasAutoplay = autoplayMs > 0 && count > 1;
  const trackId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const viewportRef = useRef<HTMLDivElement>(null);
  const emblaRef = useRef<EmblaCarouselType | null>(null);
  const autoplayRef = useRef<AutoplayType | null>(null);
  const pausedBy = useRef({ hover: false, focus: false, drag: false });
  const onSlideErrorRef = useRef(onSlideError);

  const reducedMotion = usePrefersReducedMotion();
  /** The visitor's Pause/Play choice; until they choose, autoplay follows their motion preference. */
  const [userChoice, setUserChoice] = useState<boolean | null>(null);
  const playing = hasAutoplay && (userChoice ?? !reducedMotion);
  const playingRef = useRef(playing);
  const reducedMotionRef = useRef(reducedMotion);

  const [ready, setReady] = useState(false);
  /** Autoplay is actually running (not paused by hover, focus or a drag). */
  const [running, setRunning] = useState(false);
  const [visible, setVisible] = useState<readonly number[]>([]);
  const [canPrev, setCanPrev] = useState(false);
  const [canNext, setCanNext] = useState(count > 1);
  /** Every slide fits in view (few slides, wide screen): no controls are needed. */
  const [allInView, setAllInView] = useState(false);
  const [announcement, setAnnouncement] = useState('');

  useEffect(() => {
    onSlideErrorRef.current = onSlideError;
    reducedMotionRef.current = reducedMotion;
  });

  /** Starts or stops Embla's autoplay to match the choice and the pauses. */
  const syncAutoplay = useCallback(() => {
    const autoplay = autoplayRef.current;
    if (!autoplay) return;
    const paused = pausedBy.current;
    // Nothing to rotate when every slide is already in view.
    const movable = (emblaRef.current?.scrollSnapList().length ?? 0) > 1;
    const shouldRun =
      movable && playingRef.current && !paused.hover && !paused.focus && !paused.drag;
    if (shouldRun && !autoplay.isPlaying()) autoplay.play();
    else if (!shouldRun && autoplay.isPlaying()) autoplay.stop();
  }, []);

  useEffect(() => {
    playingRef.current = playing;
    syncAutoplay();
  }, [playing, ready, syncAutoplay]);

  // Load and start Embla when the carousel comes near the viewport.
  useEffect(() => {
    const root = rootRef.current;
    const viewport = viewportRef.current;
    if (!root || !viewport || count < 2 || !canEnhance()) return;
    let cancelled = false;
    let embla: EmblaCarouselType | undefined;

    const measure = (api: EmblaCarouselType) => {
      const firstSlide = api.slideNodes()[0];
      const slideWidth = firstSlide?.offsetWidth ?? 0;
      const perView = slideWidth ? Math.max(1, Math.round(viewport.clientWidth / slideWidth)) : 1;
      const shown = visibleSlideIndexes(api.selectedScrollSnap(), perView, count, loop);
      setVisible(shown);
      setCanPrev(api.canScrollPrev());
      setCanNext(api.canScrollNext());
      setAllInView(api.scrollSnapList().length < 2);
      return shown;
    };

    const start = async () => {
      const [{ default: EmblaCarousel }, autoplayModule] = await Promise.all([
        import('embla-carousel'),
        hasAutoplay ? import('embla-carousel-autoplay') : Promise.resolve(null),
      ]);
      if (cancelled) return;
      // Keep the slide the visitor may already have scrolled to natively.
      const firstSlide = viewport.querySelector<HTMLElement>('[data-slide-index]');
      const slideWidth = firstSlide?.offsetWidth ?? 0;
      const startIndex = slideWidth ? Math.round(viewport.scrollLeft / slideWidth) : 0;
      // The native scrollbar (classic scrollbars take room) gives way to the
      // same amount of padding, so nothing below the carousel moves.
      const scrollbar = viewport.offsetHeight - viewport.clientHeight;
      viewport.scrollLeft = 0;
      root.dataset.carouselReady = '';
      if (scrollbar > 0) {
        const padding = parseFloat(getComputedStyle(viewport).paddingBottom) || 0;
        viewport.style.paddingBottom = `${padding + scrollbar}px`;
      }

      const autoplay = autoplayModule
        ? autoplayModule.default({
            delay: autoplayMs,
            playOnInit: false,
            // Pauses and resumes are handled here (syncAutoplay), so that a
            // visitor's Pause is never undone by a hover or a swipe ending.
            stopOnInteraction: true,
            stopOnMouseEnter: false,
            stopOnFocusIn: false,
          })
        : null;
      embla = EmblaCarousel(
        viewport,
        {
          loop,
          align: 'start',
          containScroll: 'trimSnaps',
          dragThreshold: SWIPE_THRESHOLD_PX,
          startIndex,
        },
        autoplay ? [autoplay] : [],
      );
      const api = embla;
      emblaRef.current = api;
      autoplayRef.current = autoplay;

      api.on('select', () => {
        const shown = measure(api);
        setAnnouncement(slidePositionText(shown, count));
      });
      api.on('reInit', () => {
        measure(api);
        // Embla restarts its plugins on re-initialisation (a resize).
        syncAutoplay();
      });
      api.on('pointerDown', () => {
        pausedBy.current.drag = true;
      });
      api.on('pointerUp', () => {
        pausedBy.current.drag = false;
        if (stopOnInteraction && hasAutoplay) {
          playingRef.current = false;
          setUserChoice(false);
        }
        syncAutoplay();
      });
      api.on('autoplay:play', () => setRunning(true));
      api.on('autoplay:stop', () => setRunning(false));
      api.on('autoplay:select', () => {
        // Without loop, autoplay ends on the last slide (SPEC §2 service pages).
        if (!loop && !api.canScrollNext()) {
          playingRef.current = false;
          setUserChoice(false);
          // Embla restarts its timer after this event: stop it just after.
          queueMicrotask(syncAutoplay);
        }
      });
      measure(api);
      setReady(true);
    };

    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        start().catch((error: unknown) => {
          // The native scroller keeps working; nothing else depends on Embla.
          console.error('carousel failed to start', error);
        });
      },
      { rootMargin: LOAD_MARGIN },
    );
    observer.observe(root);

    return () => {
      cancelled = true;
      observer.disconnect();
      embla?.destroy();
      emblaRef.current = null;
      autoplayRef.current = null;
      delete root.dataset.carouselReady;
      viewport.style.paddingBottom = '';
      setReady(false);
      setRunning(false);
    };
  }, [autoplayMs, count, hasAutoplay, loop, stopOnInteraction, syncAutoplay]);

  /** After a move by button or key: restart the delay, or stop for good if asked. */
  const afterManualMove = useCallback(() => {
    if (stopOnInteraction && hasAutoplay) {
      playingRef.current = false;
      setUserChoice(false);
      syncAutoplay();
    } else {
      autoplayRef.current?.reset();
    }
  }, [hasAutoplay, stopOnInteraction, syncAutoplay]);

  const move = useCallback(
    (direction: 'previous' | 'next') => {
      const api = emblaRef.current;
      if (!api) return;
      if (direction === 'next' ? !api.canScrollNext() : !api.canScrollPrev()) return;
      const jump = reducedMotionRef.current;
      if (direction === 'next') api.scrollNext(jump);
      else api.scrollPrev(jump);
      afterManualMove();
    },
    [afterManualMove],
  );

  // Pauses (hover, keyboard focus), arrow keys and image failures, on the root.
  useEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    const onMouseEnter = () => {
      pausedBy.current.hover = true;
      syncAutoplay();
    };
    const onMouseLeave = () => {
      pausedBy.current.hover = false;
      syncAutoplay();
    };
    const onFocusIn = (event: FocusEvent) => {
      // Only keyboard focus pauses: a mouse click on Next must not stop the show.
      let keyboard = true;
      try {
        keyboard = (event.target as Element).matches(':focus-visible');
      } catch {
        // Browsers without :focus-visible: treat every focus as keyboard focus.
      }
      pausedBy.current.focus = keyboard;
      syncAutoplay();
    };
    const onFocusOut = (event: FocusEvent) => {
      if (event.relatedTarget instanceof Node && root.contains(event.relatedTarget)) return;
      pausedBy.current.focus = false;
      syncAutoplay();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      if ((event.target as Element).closest('input, textarea, select, [contenteditable]')) return;
      if (!emblaRef.current) return;
      event.preventDefault();
      move(event.key === 'ArrowLeft' ? 'previous' : 'next');
    };
    const onError = (event: Event) => {
      const slide = (event.target as Element | null)?.closest?.('[data-slide-index]');
      if (slide) onSlideErrorRef.current?.(Number(slide.getAttribute('data-slide-index')));
    };
    if (pauseOnHover) {
      root.addEventListener('mouseenter', onMouseEnter);
      root.addEventListener('mouseleave', onMouseLeave);
    }
    root.addEventListener('focusin', onFocusIn);
    root.addEventListener('focusout', onFocusOut);
    root.addEventListener('keydown', onKeyDown);
    // Image errors do not bubble: listen in the capture phase.
    root.addEventListener('error', onError, true);
    return () => {
      root.removeEventListener('mouseenter', onMouseEnter);
      root.removeEventListener('mouseleave', onMouseLeave);
      root.removeEventListener('focusin', onFocusIn);
      root.removeEventListener('focusout', onFocusOut);
      root.removeEventListener('keydown', onKeyDown);
      root.removeEventListener('error', onError, true);
    };
  }, [move, pauseOnHover, syncAutoplay]);

  const classes = [
    'carousel',
    slidesPerView === 1 ? 'carousel--single' : 'carousel--responsive',
    className,
  ]
    .filter(Boolean)
    .join(' ');
  const visibleSet = new Set(visible);

  return (
    <div
      ref={rootRef}
      className={classes}
      role="region"
      aria-roledescription="carousel"
      aria-label={label}
      data-playing={running || undefined}
      data-all-in-view={(ready && allInView) || undefined}
    >
      {count > 1 ? (
        <div className="carousel__controls">
          {hasAutoplay ? (
            <button
              type="button"
              className="carousel__button carousel__toggle"
              aria-controls={trackId}
              // The label changes with the state (WAI-ARIA carousel pattern) and starts with the visible word.
              aria-label={playing ? 'Pause slide show' : 'Play slide show'}
              onClick={() => setUserChoice(!playing)}
            >
              <Icon name={playing ? 'pause' : 'play'} size={18} />
              {playing ? 'Pause' : 'Play'}
            </button>
          ) : null}
          <button
            type="button"
            className="carousel__button carousel__arrow"
            aria-controls={trackId}
            aria-label="Previous slide"
            aria-disabled={ready && !canPrev ? true : undefined}
            onClick={() => move('previous')}
          >
            <Icon name="chevron-left" size={22} />
          </button>
          <button
            type="button"
            className="carousel__button carousel__arrow"
            aria-controls={trackId}
            aria-label="Next slide"
            aria-disabled={ready && !canNext ? true : undefined}
            onClick={() => move('next')}
          >
            <Icon name="chevron-right" size={22} />
          </button>
        </div>
      ) : null}
      {/* Until Embla is ready (and without JavaScript) the viewport is a native
          scroller, which keyboard users must be able to focus to scroll. */}
      <div className="carousel__viewport" ref={viewportRef} tabIndex={ready ? undefined : 0}>
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
              // Out-of-view slides leave the tab order and the accessibility tree.
              inert={ready && !visibleSet.has(index)}
            >
              {slide}
            </div>
          ))}
        </div>
      </div>
      <div className="sr-only" aria-live={running ? 'off' : 'polite'} aria-atomic="true">
        {announcement}
      </div>
    </div>
  );
}

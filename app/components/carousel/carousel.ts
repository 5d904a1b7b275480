import type { EmblaCarouselType } from 'embla-carousel';
import type { AutoplayType } from 'embla-carousel-autoplay';

/**
 * The behaviour of the carousel whose markup `Carousel.tsx` renders
 * (docs/interactive-parts.md#carousels), as a plain module with no React: the
 * markup carries its options as data attributes, and the page's module
 * script (app/browser/site.ts) starts every carousel with `startCarousels()`.
 *
 * It follows the WAI-ARIA carousel pattern: the Pause/Play control, previous
 * and next buttons, Left/Right arrow keys, out-of-view slides made inert, and
 * a polite announcement of the slide only while autoplay is off.
 *
 * Until Embla runs (no JavaScript, or before the carousel nears the viewport,
 * when Embla is loaded on demand to keep it out of the first-load bundle:
 * docs/decisions/0003), the track is a native horizontally scrolling,
 * snapping list, so every slide is reachable. Both states lay the slides out
 * identically, so the switch does not move the page. The root gets
 * `data-carousel-ready` once Embla drives it.
 *
 * Swipes: Embla starts a drag after `dragThreshold` (5 px,
 * docs/interactive-parts.md#swipes). It has no equivalent of the 300 ms
 * short/long-swipe split and 0.5 long-swipe ratio of that page: on release it
 * projects the pointer's velocity and settles on the nearest slide (a quick
 * flick moves on, a slow drag past half a slide moves on too), which gives the
 * same feel.
 *
 * Autoplay (docs/interactive-parts.md#carousels) pauses while the mouse is over
 * it (`pauseOnHover`) and while keyboard focus is inside it, and never runs
 * under `prefers-reduced-motion: reduce` unless the visitor presses Play.
 */

/** Embla's swipe threshold in px, docs/interactive-parts.md#swipes 'threshold 5px'. */
export const SWIPE_THRESHOLD_PX = 5;

/**
 * Load Embla this far before the carousel scrolls into view, so it is ready
 * when seen but costs nothing on first load when below the fold.
 */
const LOAD_MARGIN = '400px 0px';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/** What a carousel root says about itself; `Carousel.tsx` writes it, `startCarousel` reads it. */
export interface CarouselOptions {
  /** Milliseconds between automatic moves (docs/interactive-parts.md#carousels); 0: no autoplay. */
  autoplayMs: number;
  /** Wrap from the last slide to the first (docs/interactive-parts.md#home-carousels). */
  loop: boolean;
  /** Pause autoplay while the mouse is over the carousel (docs/interactive-parts.md#carousels). */
  pauseOnHover: boolean;
  /** Turn autoplay off for good once the visitor swipes or moves the slides. */
  stopOnInteraction: boolean;
  /**
   * Logged as a warning when an image inside a slide fails to load
   * (docs/interactive-parts.md#image-placeholders), with `{n}` replaced by the
   * slide's number; no log without it.
   */
  slideErrorMessage?: string;
}

/** The marker of a carousel root, which `startCarousels` looks for. */
export const CAROUSEL_ATTRIBUTE = 'data-carousel';

/**
 * The root's data attributes for these options (`Carousel.tsx` spreads them),
 * so the attribute names live in this file only. Booleans are present or absent.
 */
export function carouselAttributes(options: CarouselOptions): Record<string, string | undefined> {
  return {
    [CAROUSEL_ATTRIBUTE]: '',
    'data-autoplay-ms': options.autoplayMs > 0 ? String(options.autoplayMs) : undefined,
    'data-loop': options.loop ? '' : undefined,
    'data-pause-on-hover': options.pauseOnHover ? '' : undefined,
    'data-stop-on-interaction': options.stopOnInteraction ? '' : undefined,
    'data-slide-error-message': options.slideErrorMessage,
  };
}

/** The options a carousel root carries (see `carouselAttributes`). */
export function readCarouselOptions(root: HTMLElement): CarouselOptions {
  const autoplayMs = Number(root.getAttribute('data-autoplay-ms') ?? 0);
  return {
    autoplayMs: Number.isFinite(autoplayMs) && autoplayMs > 0 ? autoplayMs : 0,
    loop: root.hasAttribute('data-loop'),
    pauseOnHover: root.hasAttribute('data-pause-on-hover'),
    stopOnInteraction: root.hasAttribute('data-stop-on-interaction'),
    slideErrorMessage: root.getAttribute('data-slide-error-message') ?? undefined,
  };
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

/** Whether the browser has what Embla needs; without it the native scroller stays. */
function canEnhance(): boolean {
  return 'IntersectionObserver' in window && 'ResizeObserver' in window;
}

/** Sets or removes an attribute, touching the DOM only when it changes. */
function setAttribute(element: Element | null, name: string, value: string | null) {
  if (!element || element.getAttribute(name) === value) return;
  if (value === null) element.removeAttribute(name);
  else element.setAttribute(name, value);
}

/** Roots already started. */
const started = new WeakSet<HTMLElement>();

/**
 * Starts the carousel whose root (the element with `data-carousel`) is
 * given: wires its controls at once and loads Embla when it nears the
 * viewport. It runs for the life of the page (every link is a page load); a
 * root already started is left as it is.
 */
export function startCarousel(root: HTMLElement): void {
  if (started.has(root)) return;
  started.add(root);
  const options = readCarouselOptions(root);
  const { autoplayMs, loop, pauseOnHover, stopOnInteraction, slideErrorMessage } = options;
  const viewport = root.querySelector<HTMLElement>('.carousel__viewport');
  const slides = [...root.querySelectorAll<HTMLElement>('[data-slide-index]')];
  const count = slides.length;
  const hasAutoplay = autoplayMs > 0 && count > 1;
  const toggle = root.querySelector<HTMLButtonElement>('[data-carousel-toggle]');
  const toggleText = toggle?.querySelector('[data-carousel-toggle-text]');
  const pauseIcon = toggle?.querySelector<HTMLElement>('[data-carousel-icon="pause"]');
  const playIcon = toggle?.querySelector<HTMLElement>('[data-carousel-icon="play"]');
  const previousButton = root.querySelector<HTMLElement>('[data-carousel-move="previous"]');
  const nextButton = root.querySelector<HTMLElement>('[data-carousel-move="next"]');
  const status = root.querySelector<HTMLElement>('[data-carousel-status]');
  const motion = typeof window.matchMedia === 'function' ? window.matchMedia(REDUCED_MOTION) : null;

  let embla: EmblaCarouselType | null = null;
  let autoplay: AutoplayType | null = null;
  const pausedBy = { hover: false, focus: false, drag: false };
  /** The visitor's Pause/Play choice; until they choose, autoplay follows their motion preference. */
  let userChoice: boolean | null = null;
  let reducedMotion = motion?.matches ?? false;
  let ready = false;
  /** Autoplay is actually running (not paused by hover, focus or a drag). */
  let running = false;
  let visible: readonly number[] = [];
  let canPrev = false;
  let canNext = count > 1;
  /** Every slide fits in view (few slides, wide screen): no controls are needed. */
  let allInView = false;
  let announcement = '';

  const playing = () => hasAutoplay && (userChoice ?? !reducedMotion);

  /** Writes the state into the markup: what the component's render did before. */
  const render = () => {
    const isPlaying = playing();
    setAttribute(root, 'data-playing', running ? 'true' : null);
    setAttribute(root, 'data-all-in-view', ready && allInView ? '' : null);
    // The label changes with the state (WAI-ARIA carousel pattern) and starts with the visible word.
    setAttribute(toggle ?? null, 'aria-label', isPlaying ? 'Pause slide show' : 'Play slide show');
    if (toggleText && toggleText.textContent !== (isPlaying ? 'Pause' : 'Play')) {
      toggleText.textContent = isPlaying ? 'Pause' : 'Play';
    }
    if (pauseIcon) pauseIcon.hidden = !isPlaying;
    if (playIcon) playIcon.hidden = isPlaying;
    setAttribute(previousButton, 'aria-disabled', ready && !canPrev ? 'true' : null);
    setAttribute(nextButton, 'aria-disabled', ready && !canNext ? 'true' : null);
    // Until Embla is ready (and without JavaScript) the viewport is a native
    // scroller, which keyboard users must be able to focus to scroll.
    setAttribute(viewport, 'tabindex', ready ? null : '0');
    const shown = new Set(visible);
    // Out-of-view slides leave the tab order and the accessibility tree.
    slides.forEach((slide, index) => slide.toggleAttribute('inert', ready && !shown.has(index)));
    setAttribute(status, 'aria-live', running ? 'off' : 'polite');
    // Rewriting the same text could make a screen reader say it again.
    if (status && status.textContent !== announcement) status.textContent = announcement;
  };

  /** Starts or stops Embla's autoplay to match the choice and the pauses. */
  const syncAutoplay = () => {
    if (!autoplay) return;
    // Nothing to rotate when every slide is already in view.
    const movable = (embla?.scrollSnapList().length ?? 0) > 1;
    const shouldRun = movable && playing() && !pausedBy.hover && !pausedBy.focus && !pausedBy.drag;
    if (shouldRun && !autoplay.isPlaying()) autoplay.play();
    else if (!shouldRun && autoplay.isPlaying()) autoplay.stop();
  };

  /** The visitor (or the end of a carousel that does not loop) turns autoplay off. */
  const choosePause = () => {
    userChoice = false;
    syncAutoplay();
    render();
  };

  const measure = (api: EmblaCarouselType) => {
    const firstSlide = api.slideNodes()[0];
    const slideWidth = firstSlide?.offsetWidth ?? 0;
    const perView =
      slideWidth && viewport ? Math.max(1, Math.round(viewport.clientWidth / slideWidth)) : 1;
    visible = visibleSlideIndexes(api.selectedScrollSnap(), perView, count, loop);
    canPrev = api.canScrollPrev();
    canNext = api.canScrollNext();
    allInView = api.scrollSnapList().length < 2;
  };

  const startEmbla = async (track: HTMLElement) => {
    const [{ default: EmblaCarousel }, autoplayModule] = await Promise.all([
      import('embla-carousel'),
      hasAutoplay ? import('embla-carousel-autoplay') : Promise.resolve(null),
    ]);
    // Keep the slide the visitor may already have scrolled to natively.
    const firstSlide = slides[0];
    const slideWidth = firstSlide?.offsetWidth ?? 0;
    const startIndex = slideWidth ? Math.round(track.scrollLeft / slideWidth) : 0;
    // The native scrollbar (classic scrollbars take room) gives way to the
    // same amount of padding, so nothing below the carousel moves.
    const scrollbar = track.offsetHeight - track.clientHeight;
    track.scrollLeft = 0;
    root.setAttribute('data-carousel-ready', '');
    if (scrollbar > 0) {
      const padding = parseFloat(getComputedStyle(track).paddingBottom) || 0;
      track.style.paddingBottom = `${padding + scrollbar}px`;
    }

    autoplay = autoplayModule
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
    const api = EmblaCarousel(
      track,
      {
        loop,
        align: 'start',
        containScroll: 'trimSnaps',
        dragThreshold: SWIPE_THRESHOLD_PX,
        startIndex,
      },
      autoplay ? [autoplay] : [],
    );
    embla = api;

    api.on('select', () => {
      measure(api);
      announcement = slidePositionText(visible, count);
      render();
    });
    api.on('reInit', () => {
      measure(api);
      // Embla restarts its plugins on re-initialisation (a resize).
      syncAutoplay();
      render();
    });
    api.on('pointerDown', () => {
      pausedBy.drag = true;
    });
    api.on('pointerUp', () => {
      pausedBy.drag = false;
      if (stopOnInteraction && hasAutoplay) userChoice = false;
      syncAutoplay();
      render();
    });
    api.on('autoplay:play', () => {
      running = true;
      render();
    });
    api.on('autoplay:stop', () => {
      running = false;
      render();
    });
    api.on('autoplay:select', () => {
      // Without loop, autoplay ends on the last slide
      // (docs/interactive-parts.md#service-page-carousels).
      if (!loop && !api.canScrollNext()) {
        userChoice = false;
        render();
        // Embla restarts its timer after this event: stop it just after.
        queueMicrotask(syncAutoplay);
      }
    });
    measure(api);
    ready = true;
    syncAutoplay();
    render();
  };

  /** After a move by button or key: restart the delay, or stop for good if asked. */
  const afterManualMove = () => {
    if (stopOnInteraction && hasAutoplay) choosePause();
    else autoplay?.reset();
  };

  const move = (direction: 'previous' | 'next') => {
    const api = embla;
    if (!api) return;
    if (direction === 'next' ? !api.canScrollNext() : !api.canScrollPrev()) return;
    // Under reduced motion the slides jump instead of sliding.
    if (direction === 'next') api.scrollNext(reducedMotion);
    else api.scrollPrev(reducedMotion);
    afterManualMove();
  };

  const onToggle = () => {
    userChoice = !playing();
    syncAutoplay();
    render();
  };
  const onPrevious = () => move('previous');
  const onNext = () => move('next');
  const onMotionChange = () => {
    reducedMotion = motion?.matches ?? false;
    syncAutoplay();
    render();
  };
  const onMouseEnter = () => {
    pausedBy.hover = true;
    syncAutoplay();
  };
  const onMouseLeave = () => {
    pausedBy.hover = false;
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
    pausedBy.focus = keyboard;
    syncAutoplay();
  };
  const onFocusOut = (event: FocusEvent) => {
    if (event.relatedTarget instanceof Node && root.contains(event.relatedTarget)) return;
    pausedBy.focus = false;
    syncAutoplay();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if ((event.target as Element).closest('input, textarea, select, [contenteditable]')) return;
    if (!embla) return;
    event.preventDefault();
    move(event.key === 'ArrowLeft' ? 'previous' : 'next');
  };
  const onError = (event: Event) => {
    if (!slideErrorMessage) return;
    const slide = (event.target as Element | null)?.closest?.('[data-slide-index]');
    if (!slide || !root.contains(slide)) return;
    const number = Number(slide.getAttribute('data-slide-index')) + 1;
    console.warn(slideErrorMessage.replaceAll('{n}', String(number)));
  };

  toggle?.addEventListener('click', onToggle);
  previousButton?.addEventListener('click', onPrevious);
  nextButton?.addEventListener('click', onNext);
  motion?.addEventListener('change', onMotionChange);
  if (pauseOnHover) {
    root.addEventListener('mouseenter', onMouseEnter);
    root.addEventListener('mouseleave', onMouseLeave);
  }
  root.addEventListener('focusin', onFocusIn);
  root.addEventListener('focusout', onFocusOut);
  root.addEventListener('keydown', onKeyDown);
  // Image errors do not bubble: listen in the capture phase.
  root.addEventListener('error', onError, true);
  // The rendered markup assumes motion is fine; the visitor's preference shows at once.
  render();

  // Load and start Embla when the carousel comes near the viewport.
  if (viewport && count > 1 && canEnhance()) {
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        startEmbla(viewport).catch((error: unknown) => {
          // The native scroller keeps working; nothing else depends on Embla.
          console.error('carousel failed to start', error);
        });
      },
      { rootMargin: LOAD_MARGIN },
    );
    observer.observe(root);
  }
}

/** Starts every carousel inside `scope` (the page by default), as a page's module script does. */
export function startCarousels(scope: ParentNode = document): void {
  for (const root of scope.querySelectorAll<HTMLElement>(`[${CAROUSEL_ATTRIBUTE}]`)) {
    startCarousel(root);
  }
}

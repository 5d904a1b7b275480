// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { restoreImage, startImageFallbacks } from './image-fallback.ts';
import { Illustration } from './Illustration.tsx';

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterEach(() => {
  cleanup();
  document.body.replaceChildren();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const photo = {
  src: '/images/services/shower-1.svg',
  alt: 'A frameless shower',
  width: 800,
  height: 600,
};

/** The component as a static page has it: HTML, no React in the browser. */
function staticPage() {
  document.body.innerHTML = `<div class="slide">${renderToStaticMarkup(
    <Illustration {...photo} fallbackLabel="Shower Installation" className="slide__image" />,
  )}</div>`;
  return document.querySelector('img')!;
}

function fail(image: HTMLImageElement) {
  image.dispatchEvent(new Event('error'));
  vi.runAllTimers();
}

function expectPlaceholder(label: string) {
  const placeholder = document.querySelector<HTMLElement>('.illustration--fallback')!;
  expect(placeholder.className).toBe('illustration slide__image illustration--fallback');
  expect(placeholder.getAttribute('role')).toBe('img');
  expect(placeholder.getAttribute('aria-label')).toBe(photo.alt);
  expect(placeholder.textContent).toBe(label);
  expect(placeholder.querySelector('span')!.getAttribute('aria-hidden')).toBe('true');
  // The image's shape, so nothing moves.
  expect(placeholder.style.aspectRatio).toBe('800 / 600');
  expect(document.querySelector('img')).toBeNull();
}

describe('startImageFallbacks', () => {
  it('replaces an image that fails by its labelled placeholder, after the listeners nearer it', () => {
    const image = staticPage();
    const stop = startImageFallbacks();
    // As the carousel does, to log which slide failed.
    let sawImageInPlace = false;
    document
      .querySelector('.slide')!
      .addEventListener(
        'error',
        (event) => (sawImageInPlace = (event.target as Element).closest('.slide') !== null),
        true,
      );
    fail(image);
    expect(sawImageInPlace).toBe(true);
    expectPlaceholder('Shower Installation');
    expect(console.warn).toHaveBeenCalledWith('image failed to load', photo.src);
    stop();
  });

  it('replaces an image that failed before it started, and leaves one still waiting', () => {
    const image = staticPage();
    // A lazy image not loaded yet is not complete (jsdom's default).
    expect(image.complete).toBe(false);
    startImageFallbacks()();
    expect(document.querySelector('img')).toBe(image);
    Object.defineProperty(image, 'complete', { value: true });
    Object.defineProperty(image, 'naturalWidth', { value: 0 });
    const stop = startImageFallbacks();
    expectPlaceholder('Shower Installation');
    stop();
  });

  it('once every start has stopped, a failure changes nothing', () => {
    const image = staticPage();
    const stopPage = startImageFallbacks();
    const stopAgain = startImageFallbacks();
    stopPage();
    stopAgain();
    fail(image);
    expect(document.querySelector('img')).toBe(image);
  });

  it('an image without a label gets the generic one; restoreImage puts the image back', () => {
    document.body.innerHTML = renderToStaticMarkup(<Illustration {...photo} />);
    const image = document.querySelector('img')!;
    const stop = startImageFallbacks();
    fail(image);
    expect(document.querySelector('.illustration--fallback')!.textContent).toBe(
      'Image not available',
    );
    restoreImage(image);
    expect(document.querySelector('img')).toBe(image);
    expect(document.querySelector('.illustration--fallback')).toBeNull();
    stop();
  });
});

describe('Illustration while React runs the page', () => {
  function Page({ src, shown = true }: { src: string; shown?: boolean }) {
    return (
      <div className="slide">
        {shown ? (
          <Illustration
            {...photo}
            src={src}
            fallbackLabel="Shower Installation"
            className="slide__image"
          />
        ) : null}
      </div>
    );
  }

  it('shows the placeholder, tries a new address, and is removed without an error', () => {
    const { container, rerender } = render(<Page src={photo.src} />);
    fail(container.querySelector('img')!);
    expectPlaceholder('Shower Installation');

    // React updates its image: it is back, with the new address.
    rerender(<Page src="/images/services/shower-2.svg" />);
    expect(container.querySelector('img')!.getAttribute('src')).toBe(
      '/images/services/shower-2.svg',
    );
    expect(container.querySelector('.illustration--fallback')).toBeNull();

    // And removes it while the placeholder stands in: React finds its image.
    fail(container.querySelector('img')!);
    expectPlaceholder('Shower Installation');
    rerender(<Page src="/images/services/shower-2.svg" shown={false} />);
    expect(container.querySelector('.slide')!.childElementCount).toBe(0);
  });
});

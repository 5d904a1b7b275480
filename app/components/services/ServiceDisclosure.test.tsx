// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startMobileOnlyDisclosures } from './mobile-only-disclosure.ts';
import { ServiceDisclosure } from './ServiceDisclosure.tsx';

function mockViewport(desktop: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: desktop && query.includes('min-width: 768px'),
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

/** What renderFeatures started, stopped after each test. */
const stops: (() => void)[] = [];

afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  cleanup();
  document.body.replaceChildren();
  vi.unstubAllGlobals();
});

/** Renders the Features section and starts its module on it, as the page's script does (app/browser/site.ts). */
function renderFeatures(mobileOnly: boolean) {
  const { container } = render(
    <ServiceDisclosure id="features" title="Features" mobileOnly={mobileOnly}>
      <p>10mm toughened safety glass</p>
    </ServiceDisclosure>,
  );
  stops.push(startMobileOnlyDisclosures(container));
  const summary = screen.getByRole('heading', { name: 'Features' }).closest('summary')!;
  return { details: summary.closest('details')!, summary };
}

describe('ServiceDisclosure (Details and Features)', () => {
  it('renders a closed <details> with its content in the markup', () => {
    mockViewport(false);
    const { details } = renderFeatures(false);
    expect(details.open).toBe(false);
    expect(details.textContent).toContain('10mm toughened safety glass');
  });

  it('mobile-only: stays a normal disclosure below 768 px', () => {
    mockViewport(false);
    const { details, summary } = renderFeatures(true);
    expect(details.open).toBe(false);
    expect(summary.getAttribute('tabindex')).toBeNull();
  });

  it('mobile-only: is kept open on desktop and its summary does not close it', () => {
    mockViewport(true);
    const { details, summary } = renderFeatures(true);
    expect(details.open).toBe(true);
    expect(summary.getAttribute('tabindex')).toBe('-1');
    const click = fireEvent.click(summary);
    // The default action (toggling) was cancelled.
    expect(click).toBe(false);
    expect(details.open).toBe(true);
  });

  it('an ordinary disclosure toggles on desktop too', () => {
    mockViewport(true);
    const { summary } = renderFeatures(false);
    expect(fireEvent.click(summary)).toBe(true);
  });
});

describe('startMobileOnlyDisclosures: Features on a static page', () => {
  it('follows the viewport: kept open from 768 px, an ordinary disclosure below', () => {
    // A viewport that can be resized.
    let desktop = false;
    const listeners = new Set<() => void>();
    vi.stubGlobal('matchMedia', (query: string) => ({
      get matches() {
        return desktop && query.includes('min-width: 768px');
      },
      media: query,
      addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
      removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
    }));
    const resize = (toDesktop: boolean) => {
      desktop = toDesktop;
      for (const listener of listeners) listener();
    };
    document.body.innerHTML = renderToStaticMarkup(
      <>
        <ServiceDisclosure id="details" title="Details">
          <p>How we fit it</p>
        </ServiceDisclosure>
        <ServiceDisclosure id="features" title="Features" mobileOnly>
          <p>10mm toughened safety glass</p>
        </ServiceDisclosure>
      </>,
    );
    const features = document.getElementById('features') as HTMLDetailsElement;
    const summary = features.querySelector('summary')!;
    const stop = startMobileOnlyDisclosures();
    expect(features.open).toBe(false);
    expect(summary.getAttribute('tabindex')).toBeNull();

    resize(true);
    expect(features.open).toBe(true);
    expect(features.hasAttribute('data-always-open')).toBe(true);
    expect(summary.getAttribute('tabindex')).toBe('-1');
    expect(fireEvent.click(summary)).toBe(false);
    // Details is not mobile-only: left alone.
    const details = document.getElementById('details') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(details.hasAttribute('data-always-open')).toBe(false);

    resize(false);
    expect(features.hasAttribute('data-always-open')).toBe(false);
    expect(summary.getAttribute('tabindex')).toBeNull();
    expect(fireEvent.click(summary)).toBe(true);

    stop();
    expect(listeners.size).toBe(0);
  });
});

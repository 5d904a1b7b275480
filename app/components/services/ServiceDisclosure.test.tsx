// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServiceDisclosure } from './ServiceDisclosure.tsx';

function mockViewport(desktop: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: desktop && query.includes('min-width: 768px'),
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderFeatures(mobileOnly: boolean) {
  render(
    <ServiceDisclosure id="features" title="Features" mobileOnly={mobileOnly}>
      <p>10mm toughened safety glass</p>
    </ServiceDisclosure>,
  );
  const summary = screen.getByRole('heading', { name: 'Features' }).closest('summary')!;
  return { details: summary.closest('details')!, summary };
}

describe('ServiceDisclosure (SPEC §2 Details and Features)', () => {
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

// @vitest-environment jsdom
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { business, telHref } from '../../content/business.ts';
import { SAFETY_STEPS, UrgentThankYouPage } from './UrgentThankYouPage.tsx';

function rendered(): HTMLElement {
  const container = document.createElement('div');
  container.innerHTML = renderToString(<UrgentThankYouPage />);
  return container;
}

describe('the urgent thank-you page (docs/screens.md#urgent-thank-you-page)', () => {
  it('leads with the phone number: the first link is a large call link', () => {
    const page = rendered();
    const first = page.querySelector('a');
    expect(first?.getAttribute('href')).toBe(telHref);
    expect(first?.textContent).toBe(`Call ${business.phone.display}`);
    expect(first?.className).toBe('urgent-thanks__call');
    // Nothing but the heading comes before it.
    const h1 = page.querySelector('h1');
    expect(h1?.textContent).toBe('Call us now to get it made safe');
    expect(page.textContent?.indexOf(business.phone.display)).toBeLessThan(
      page.textContent?.indexOf('Until we get there') ?? 0,
    );
  });

  it('then says what to do until help arrives, in order, calmly', () => {
    const page = rendered();
    const heading = page.querySelector('h2');
    expect(heading?.textContent).toBe('Until we get there');
    const steps = [...page.querySelectorAll('ol li')].map((item) => item.textContent);
    expect(steps).toEqual([...SAFETY_STEPS]);
    const text = steps.join(' ');
    for (const advice of [
      /children and pets/,
      /closed shoes/,
      /gloves/,
      /Do not pull/,
      /Cover the opening/,
      /111/,
    ]) {
      expect(text).toMatch(advice);
    }
    // Calm: no shouting, no exclamation marks.
    expect(page.textContent).not.toMatch(/!|[A-Z]{4,}/);
  });

  it('is static: no form, no island, a way back home', () => {
    const page = rendered();
    expect(page.querySelector('form, script, astro-island')).toBeNull();
    expect([...page.querySelectorAll('a')].map((link) => link.getAttribute('href'))).toEqual([
      telHref,
      '/',
    ]);
  });
});

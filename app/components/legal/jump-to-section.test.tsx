// @vitest-environment jsdom
import { fireEvent, screen } from '@testing-library/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startSectionJumps } from './jump-to-section.ts';
import { LegalDocument, type LegalDocumentData } from './LegalDocument.tsx';

const document_: LegalDocumentData = {
  title: 'Privacy policy',
  intro: 'What we collect and why.',
  lastUpdated: '2026-11-01',
  lastUpdatedText: '1 November 2026',
  sections: [
    { heading: 'What we collect', paragraphs: ['Your name and phone number.'] },
    { heading: 'Your rights', paragraphs: ['You may ask for a copy.'] },
  ],
};

let reduceMotion = false;
const scrolls: { id: string; options: unknown }[] = [];

beforeEach(() => {
  reduceMotion = false;
  scrolls.length = 0;
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: reduceMotion && query === '(prefers-reduced-motion: reduce)',
    media: query,
  }));
  // jsdom lays nothing out: record where the page was asked to scroll.
  Element.prototype.scrollIntoView = function (this: Element, options?: unknown) {
    scrolls.push({ id: this.id, options });
  };
  window.history.replaceState(null, '', '/privacy-policy');
  document.body.innerHTML = renderToStaticMarkup(<LegalDocument document={document_} />);
});

afterEach(() => {
  document.body.replaceChildren();
  vi.unstubAllGlobals();
});

const link = (name: string) => screen.getByRole('link', { name });

describe('startSectionJumps: the contents of a legal page', () => {
  it('glides to the section, moves focus to it and updates the address in place', () => {
    const stop = startSectionJumps();
    const entries = window.history.length;
    expect(fireEvent.click(link('Your rights'))).toBe(false);
    expect(scrolls).toEqual([
      { id: 'your-rights', options: { behavior: 'smooth', block: 'start' } },
    ]);
    const heading = document.getElementById('your-rights')!;
    expect(document.activeElement).toBe(heading);
    expect(heading.getAttribute('tabindex')).toBe('-1');
    expect(window.location.hash).toBe('#your-rights');
    expect(window.history.length).toBe(entries);
    stop();
  });

  it('jumps without gliding when the visitor prefers reduced motion', () => {
    reduceMotion = true;
    const stop = startSectionJumps();
    fireEvent.click(link('What we collect'));
    expect(scrolls).toEqual([
      { id: 'what-we-collect', options: { behavior: 'auto', block: 'start' } },
    ]);
    stop();
  });

  it('leaves a modified click, and every click once stopped, to the browser', () => {
    const stop = startSectionJumps();
    expect(fireEvent.click(link('Your rights'), { ctrlKey: true })).toBe(true);
    stop();
    expect(fireEvent.click(link('Your rights'))).toBe(true);
    expect(scrolls).toEqual([]);
  });
});

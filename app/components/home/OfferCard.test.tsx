// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { business, telHref } from '../../content/business.ts';
import { home } from '../../content/home.ts';
import { ENDED_OFFER_CTA, offerCards, type OfferCardData } from './home-cards.ts';
import { OfferCard } from './OfferCard.tsx';
import { OffersSection } from './OffersSection.tsx';

afterEach(cleanup);

function renderOffer(offer: OfferCardData) {
  return render(<OfferCard offer={offer} />);
}

describe('OfferCard', () => {
  const before = offerCards(new Date('2025-01-01T00:00:00Z'));
  const after = offerCards(new Date('2026-06-01T00:00:00Z'));

  it('shows every field and rings the featured offer', () => {
    const { container } = renderOffer(before[0]!);
    const card = container.querySelector('article')!;
    expect(card.className).toContain('offer-card--featured');
    expect(
      screen.getByRole('heading', { name: 'Home Window Repair of $250 or More' }),
    ).toBeTruthy();
    expect(card.textContent).toContain('$50 off');
    expect(card.textContent).toContain('Featured offer');
    expect(card.textContent).toContain('Valid until 30 September 2025');
    expect(card.querySelector('time')?.getAttribute('dateTime')).toBe('2025-09-30');
    expect(card.textContent).toContain('Terms: Applies to residential window repairs');
    expect(screen.getByRole('link', { name: 'Claim This Offer' }).getAttribute('href')).toBe(
      '/quote',
    );
    expect(card.textContent).not.toContain('has ended');
  });

  it('makes the emergency offer a call link', () => {
    const { container } = renderOffer(before[3]!);
    expect(container.querySelector('article')!.className).not.toContain('featured');
    const call = screen.getByRole('link', { name: /^Call Now/ });
    expect(call.getAttribute('href')).toBe(telHref);
    expect(call.textContent).toContain(business.phone.display);
  });

  it('shows prices when an offer has them', () => {
    const { container } = renderOffer({
      ...before[1]!,
      originalPrice: '$1,800',
      discountedPrice: '$1,530',
    });
    expect(container.querySelector('s')?.textContent).toBe('$1,800');
    expect(container.textContent).toContain('Now $1,530');
  });

  it('says plainly when an offer has ended', () => {
    const { container } = renderOffer(after[4]!);
    expect(container.querySelector('article')!.className).toContain('offer-card--ended');
    expect(container.textContent).toContain('This offer has ended: ask us about current pricing.');
    expect(screen.getByRole('link', { name: 'View Splashbacks' }).getAttribute('href')).toBe(
      '/services/splashbacks',
    );
  });

  it('does not invite a visitor to claim an offer that has ended', () => {
    renderOffer(after[0]!);
    expect(screen.queryByRole('link', { name: 'Claim This Offer' })).toBeNull();
    expect(screen.getByRole('link', { name: ENDED_OFFER_CTA }).getAttribute('href')).toBe('/quote');
  });
});

describe('OffersSection', () => {
  const content = home.offersSection;
  // The section as prerendered (the carousel's browser-only parts stay out).
  const renderSection = (now: string) => {
    const container = document.createElement('div');
    container.innerHTML = renderToString(
      <OffersSection content={content} offers={offerCards(new Date(now))} />,
    );
    return { container };
  };

  it('speaks of current savings while the offers run', () => {
    const { container } = renderSection('2025-01-01T00:00:00Z');
    expect(container.textContent).toContain(content.intro);
    expect(container.textContent).not.toContain('ended');
  });

  it('says which offers have ended when some have', () => {
    const { container } = renderSection('2025-12-01T00:00:00Z');
    expect(container.textContent).toContain(content.intro);
    expect(container.querySelector('.offers__ended-note')).not.toBeNull();
  });

  it('never speaks of current savings once every offer has ended', () => {
    const { container } = renderSection('2026-06-01T00:00:00Z');
    expect(container.textContent).toContain(content.endedIntro);
    expect(container.textContent).not.toContain(content.intro);
  });
});

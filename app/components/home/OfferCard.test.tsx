// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { business, telHref } from '../../content/business.ts';
import { offerCards, type OfferCardData } from './home-cards.ts';
import { OfferCard } from './OfferCard.tsx';

afterEach(cleanup);

function renderOffer(offer: OfferCardData) {
  return render(
    <MemoryRouter>
      <OfferCard offer={offer} />
    </MemoryRouter>,
  );
}

describe('OfferCard (SPEC §3)', () => {
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
});

import { describe, expect, it } from 'vitest';
import {
  formatOfferDate,
  glassTypeCards,
  initialsOf,
  offerCards,
  offerDateIso,
  offerHasEnded,
  REVIEW_LIMIT,
  serviceCards,
  splitKeyFigure,
  testimonialCards,
  truncateReview,
} from './home-cards.ts';

describe('truncateReview (150 characters plus an ellipsis)', () => {
  it('leaves a review of 150 characters or fewer alone', () => {
    expect(truncateReview('a'.repeat(REVIEW_LIMIT))).toBeNull();
    expect(truncateReview('Short and sweet.')).toBeNull();
  });

  it('cuts a longer review at 150 characters and adds an ellipsis', () => {
    const review = `${'b'.repeat(149)}cdefgh`;
    expect(truncateReview(review)).toBe(`${'b'.repeat(149)}c…`);
  });

  it('does not leave a space before the ellipsis', () => {
    const review = `${'b'.repeat(149)} and more`;
    expect(truncateReview(review)).toBe(`${'b'.repeat(149)}…`);
  });
});

describe('initialsOf', () => {
  it('takes the first letter of the first two words', () => {
    expect(initialsOf('Aroha T.')).toBe('AT');
    expect(initialsOf('mere k.')).toBe('MK');
    expect(initialsOf('Cher')).toBe('C');
  });
});

describe('splitKeyFigure', () => {
  it('separates the figure from its label', () => {
    expect(splitKeyFigure('70% light transmission')).toEqual({
      figure: '70%',
      label: 'light transmission',
    });
    expect(splitKeyFigure('Drier')).toEqual({ figure: 'Drier', label: '' });
  });
});

describe('offer dates (month/day/year text)', () => {
  it('reads month/day/year and writes it the New Zealand way', () => {
    expect(offerDateIso('09/30/2025')).toBe('2025-09-30');
    expect(formatOfferDate('09/30/2025')).toBe('30 September 2025');
    expect(formatOfferDate('01/31/2026')).toBe('31 January 2026');
  });

  it('rejects a date in another format', () => {
    expect(() => offerDateIso('30/09/2025')).toThrow(/MM\/DD\/YYYY/);
    expect(() => offerDateIso('2025-09-30')).toThrow();
  });

  it('keeps an offer open until its last day has ended in New Zealand', () => {
    // 30 September 2025 ends at midnight NZ time: 12:00 UTC on the 30th at +12.
    expect(offerHasEnded('09/30/2025', new Date('2025-09-30T11:59:59Z'))).toBe(false);
    expect(offerHasEnded('09/30/2025', new Date('2025-09-30T12:00:00Z'))).toBe(true);
    expect(offerHasEnded('01/31/2026', new Date('2025-12-01T00:00:00Z'))).toBe(false);
  });
});

describe('the cards the home page is given', () => {
  it('has the nine services with a blurb, an image and a placeholder label', () => {
    const cards = serviceCards();
    expect(cards).toHaveLength(9);
    for (const card of cards) {
      expect(card.path).toBe(`/services/${card.slug}`);
      expect(card.blurb.length).toBeGreaterThan(20);
      expect(card.image.src).toMatch(/^\/images\/services\/.+\.svg$/);
      expect(card.placeholderLabel).toBeTruthy();
    }
  });

  it('has the five documented offers, only the first featured, the fourth a call link', () => {
    const cards = offerCards(new Date('2025-01-01T00:00:00Z'));
    expect(cards.map((card) => [card.title, card.discount, card.validUntil.iso])).toEqual([
      ['Home Window Repair of $250 or More', '$50 off', '2025-09-30'],
      ['Shower Glass Installation', '15% off', '2025-12-31'],
      ['Double Glazing Upgrade', '$200 off', '2025-11-15'],
      ['Emergency Glass Repair', '20% off labour', '2025-10-31'],
      ['Kitchen Splashback Package', '$100 off', '2026-01-31'],
    ]);
    expect(cards.map((card) => card.featured)).toEqual([true, false, false, false, false]);
    expect(cards.map((card) => card.ctaLink)).toEqual([
      '/quote',
      '/quote',
      '/services/windows',
      'tel',
      '/services/splashbacks',
    ]);
    expect(cards.every((card) => !card.ended)).toBe(true);
    expect(offerCards(new Date('2026-06-01T00:00:00Z')).every((card) => card.ended)).toBe(true);
  });

  it('has the seven testimonials, the long ones with a short version', () => {
    const cards = testimonialCards();
    expect(cards).toHaveLength(7);
    for (const card of cards) {
      expect(card.rating).toBe(5);
      expect(card.initials).toMatch(/^[A-Z]{2}$/);
      if (card.review.length > REVIEW_LIMIT) {
        expect(card.shortReview?.endsWith('…')).toBe(true);
        expect(card.shortReview?.length).toBeLessThanOrEqual(REVIEW_LIMIT + 1);
      } else {
        expect(card.shortReview).toBeNull();
      }
    }
    expect(cards.filter((card) => card.shortReview).length).toBeGreaterThan(0);
    expect(cards.filter((card) => !card.shortReview).length).toBeGreaterThan(0);
  });

  it('has the two glass types with their documented figures', () => {
    expect(
      glassTypeCards().map((card) => [card.path, card.figures.map((figure) => figure.figure)]),
    ).toEqual([
      ['/glass-types/performatech', ['70%']],
      ['/glass-types/planitherm', ['52%', '81%']],
    ]);
  });
});

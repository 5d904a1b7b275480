// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { startTestimonialToggles } from './testimonial-toggle.ts';
import { testimonialCards } from './home-cards.ts';
import { TestimonialCard } from './TestimonialCard.tsx';

afterEach(cleanup);

const cards = testimonialCards();
const long = cards.find((card) => card.shortReview)!;
const short = cards.find((card) => !card.shortReview)!;

describe('TestimonialCard', () => {
  it('shows initials, name, role, place and an accessible 5-star rating', () => {
    render(<TestimonialCard testimonial={long} />);
    expect(screen.getByRole('img', { name: 'Rated 5 out of 5' })).toBeTruthy();
    expect(screen.getByText(long.initials).getAttribute('aria-hidden')).toBe('true');
    expect(screen.getByText(long.name)).toBeTruthy();
    expect(screen.getByText(`${long.role}, ${long.location}`)).toBeTruthy();
  });

  it('cuts a long review and toggles Read more / Read less (testimonial-toggle.ts)', () => {
    render(<TestimonialCard testimonial={long} />);
    const stop = startTestimonialToggles();
    onTestFinished(stop);
    const shortText = screen.getByText(long.shortReview!);
    const fullText = screen.getByText(long.review);
    expect(shortText.hidden).toBe(false);
    expect(fullText.hidden).toBe(true);
    const toggle = screen.getByRole('button', { name: 'Read more' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.getElementById(toggle.getAttribute('aria-controls')!)).toBeTruthy();
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(toggle.textContent).toBe('Read less');
    expect(shortText.hidden).toBe(true);
    expect(fullText.hidden).toBe(false);
    fireEvent.click(toggle);
    expect(toggle.textContent).toBe('Read more');
    expect(fullText.hidden).toBe(true);
  });

  it('shows a short review whole, without a toggle', () => {
    render(<TestimonialCard testimonial={short} />);
    expect(screen.getByText(short.review)).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });
});

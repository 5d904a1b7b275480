import { useId } from 'react';
import { Icon } from '../ui/Icon.tsx';
import type { TestimonialCardData } from './home-cards.ts';

/**
 * A testimonial (docs/business-rules.md#testimonials): initials instead of a
 * photo, the star rating, and a review longer than 150 characters cut with a
 * Read more / Read less toggle (docs/interactive-parts.md#testimonial-text).
 * Without JavaScript the toggle cannot work, so the full review shows instead
 * (app/styles/home.css). The toggle is ./testimonial-toggle.ts.
 */
export function TestimonialCard({ testimonial }: { testimonial: TestimonialCardData }) {
  const textId = useId();
  const { shortReview } = testimonial;
  return (
    <figure className="testimonial-card">
      <span
        className="star-rating testimonial-card__stars"
        role="img"
        aria-label={`Rated ${testimonial.rating} out of 5`}
      >
        {Array.from({ length: 5 }, (_, index) => (
          <Icon
            key={index}
            name="star"
            size={18}
            className={index < testimonial.rating ? 'star-rating__on' : 'star-rating__off'}
          />
        ))}
      </span>
      <blockquote className="testimonial-card__quote" id={textId}>
        {shortReview ? (
          <p>
            <span className="testimonial-card__short">{shortReview}</span>
            <span className="testimonial-card__full" hidden>
              {testimonial.review}
            </span>
          </p>
        ) : (
          <p>{testimonial.review}</p>
        )}
      </blockquote>
      {shortReview ? (
        <button
          type="button"
          className="testimonial-card__toggle"
          aria-expanded="false"
          aria-controls={textId}
        >
          Read more
        </button>
      ) : null}
      <figcaption className="testimonial-card__author">
        <span className="testimonial-card__avatar" aria-hidden="true">
          {testimonial.initials}
        </span>
        <span className="testimonial-card__who">
          <span className="testimonial-card__name">{testimonial.name}</span>
          <span className="testimonial-card__role">
            {testimonial.role}, {testimonial.location}
          </span>
        </span>
      </figcaption>
    </figure>
  );
}

import type { SectionIntro } from '../../content/home.ts';
import { Carousel } from '../carousel/Carousel.tsx';
import { SectionHeading } from '../ui/Section.tsx';
import { HOME_AUTOPLAY_MS } from './carousel-delays.ts';
import type { TestimonialCardData } from './home-cards.ts';
import { TestimonialCard } from './TestimonialCard.tsx';

/**
 * docs/screens.md#home-page item 8: the Testimonials carousel
 * (docs/business-rules.md#testimonials, 5000 ms, loops).
 */
export function TestimonialsSection({
  content,
  testimonials,
}: {
  content: SectionIntro;
  testimonials: readonly TestimonialCardData[];
}) {
  return (
    <section
      className="section section--tint testimonials"
      aria-labelledby="testimonials-heading"
      data-home-section="testimonials"
    >
      <div className="container">
        <SectionHeading
          id="testimonials-heading"
          title={content.heading}
          intro={<p>{content.intro}</p>}
        />
        <Carousel
          label="Customer testimonials"
          className="testimonials-carousel"
          autoplayMs={HOME_AUTOPLAY_MS.testimonials}
          loop
          pauseOnHover
          stopOnInteraction={false}
          slides={testimonials.map((testimonial) => (
            <TestimonialCard key={testimonial.id} testimonial={testimonial} />
          ))}
        />
      </div>
    </section>
  );
}

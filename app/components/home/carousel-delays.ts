/**
 * docs/interactive-parts.md#carousels: autoplay delays of the three home page
 * carousels, in milliseconds.
 */
export const HOME_AUTOPLAY_MS = {
  services: 4000,
  offers: 6000,
  testimonials: 5000,
} as const;

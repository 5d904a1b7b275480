import type { ReactNode } from 'react';
import { CallBackSection } from '../home/CallBackSection.tsx';
import { glassTypeCards, offerCards, serviceCards, testimonialCards } from '../home/home-cards.ts';
import { HomeHero, HomeLowerSections } from '../home/HomeSections.tsx';
import { home } from '../../content/home.ts';
import type { PageMeta } from '../../layouts/page-meta.ts';

/**
 * Everything the home page shows, shaped for its cards, for its two page
 * files (prerendered at build time, and the form post's answer), so no
 * content module reaches the browser.
 */
export function homeData() {
  return {
    home,
    services: serviceCards(),
    // Whether an offer has ended is judged when the page is built.
    offers: offerCards(new Date()),
    testimonials: testimonialCards(),
    glassTypes: glassTypeCards(),
  };
}

export const homeMeta = (content: ReturnType<typeof homeData>): PageMeta => ({
  title: content.home.metaTitle,
  description: content.home.metaDescription,
  path: '/',
});

/**
 * docs/screens.md#home-page, items 1-12 in order.
 * `children`: the call-back form, an island (app/pages/index.astro).
 */
export function HomePage({
  home,
  services,
  offers,
  testimonials,
  glassTypes,
  children,
}: ReturnType<typeof homeData> & { children: ReactNode }) {
  return (
    <>
      {/* 1 */}
      <HomeHero hero={home.hero} />
      {/* 2: the call-back form (children) goes inside this section. */}
      <CallBackSection content={home.callBack}>{children}</CallBackSection>
      {/* 3: 'an empty grey section': a quiet band, nothing to announce. */}
      <div className="home-grey-band" aria-hidden="true" data-home-section="grey" />
      {/* 4-12 */}
      <HomeLowerSections
        home={home}
        services={services}
        offers={offers}
        testimonials={testimonials}
        glassTypes={glassTypes}
      />
    </>
  );
}

import { business } from '../../content/business.ts';
import type { HomeHero as HomeHeroContent } from '../../content/home.ts';
import { ButtonLink, CallButton } from '../ui/ButtonLink.tsx';
import { Icon } from '../ui/Icon.tsx';
import { Illustration } from '../ui/Illustration.tsx';

/** The home page's largest element at first paint (app/pages/index.astro preloads it). */
export const HERO_IMAGE = '/images/hero.svg';

/** docs/screens.md#home-page item 1: headline, intro, trust badge and 'Request an Estimate'. */
export function HomeHero({ hero }: { hero: HomeHeroContent }) {
  return (
    <div className="page-header home-hero" data-home-section="hero">
      <div className="container home-hero__inner">
        <div className="home-hero__text">
          {/* Names the business at once: on a phone the header shows only the logo mark. */}
          <p className="eyebrow">
            {business.name} · Tauranga glaziers since {business.foundedYear}
          </p>
          <h1>{hero.headline}</h1>
          <p className="page-header__intro">{hero.intro}</p>
          <p className="trust-badge home-hero__badge">
            {/* The text beside the stars says the same, so they stay silent. */}
            <span className="star-rating" aria-hidden="true">
              {Array.from({ length: hero.trustBadge.bestRating }, (_, index) => (
                <Icon key={index} name="star" size={18} />
              ))}
            </span>
            <span>{hero.trustBadge.text}</span>
          </p>
          <div className="button-row">
            <ButtonLink to={hero.ctaPath} size="lg">
              {hero.ctaText}
            </ButtonLink>
            <CallButton size="lg" />
          </div>
        </div>
        <div className="home-hero__art">
          {/* The page's largest element on first paint (LCP): loaded eagerly, first. */}
          <Illustration
            src={HERO_IMAGE}
            alt="A modern New Zealand home with large windows and glass sliding doors, Mount Maunganui behind, and a glazier's van carrying glass panes in the driveway"
            width={800}
            height={600}
            priority
            className="home-hero__image"
          />
        </div>
      </div>
    </div>
  );
}

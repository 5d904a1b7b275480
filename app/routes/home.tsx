import { ButtonLink, CallButton } from '../components/ui/ButtonLink.tsx';
import { home } from '../content/home.ts';
import { seo } from '../lib/seo.ts';

import type { Route } from './+types/home';

export function loader() {
  return { home };
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  seo({ title: loaderData.home.metaTitle, description: loaderData.home.metaDescription, path: '/' });

export default function Home({ loaderData: { home } }: Route.ComponentProps) {
  return (
    <div className="page-header page-header--home">
      <div className="container page-header__inner">
        <div className="page-header__text">
          <h1>{home.hero.headline}</h1>
          <p className="page-header__intro">{home.hero.intro}</p>
          <p className="trust-badge">{home.hero.trustBadge.text}</p>
          <div className="button-row">
            <ButtonLink to={home.hero.ctaPath} size="lg">
              {home.hero.ctaText}
            </ButtonLink>
            <CallButton size="lg" />
          </div>
        </div>
      </div>
    </div>
  );
}

import { lazy, Suspense } from 'react';
import { CallBackSection } from '../components/home/CallBackSection.tsx';
import {
  glassTypeCards,
  offerCards,
  serviceCards,
  testimonialCards,
} from '../components/home/home-cards.ts';
import { DeferredCallbackForm } from '../components/forms/DeferredCallbackForm.tsx';
import { home } from '../content/home.ts';
import { callbackAction, callbackMiddleware } from '../leads/form-actions.server.ts';
import { seo } from '../lib/seo.ts';
import homeCss from '../styles/home.css?url';

import type { Route } from './+types/home';

/**
 * The hero and sections 4-12 read and work as plain HTML: their code loads
 * just after the page is interactive, which keeps the home page within its
 * JavaScript budget (e2e/budget.spec.ts) and off the main thread at start-up.
 * React keeps their prerendered HTML until the code arrives; the call-back
 * form hydrates at once. See docs/decisions/0003.
 */
const loadSections = () => import('../components/home/HomeSections.tsx');
const HomeHero = lazy(() => loadSections().then((module) => ({ default: module.HomeHero })));
const HomeLowerSections = lazy(() =>
  loadSections().then((module) => ({ default: module.HomeLowerSections })),
);
// In the browser, start fetching as soon as this route's code runs, so a
// client-side visit to the home page rarely has to wait for it.
if (typeof document !== 'undefined') void loadSections();

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: homeCss }];

/**
 * SPEC §4/§7: the call-back form posts here, with or without JavaScript:
 * the middleware answers its script, the action a plain post.
 */
export const middleware = [callbackMiddleware];
export const action = callbackAction;

/**
 * Where the call-back form posts: this index route's own address (a post to
 * '/' alone would be the root route's, which has no action).
 */
const FORM_ACTION = '/?index';

/**
 * Runs at build time (the page is prerendered): everything the home page
 * shows, shaped for its cards, so no content module reaches the browser.
 */
export function loader() {
  return {
    home,
    services: serviceCards(),
    // Whether an offer has ended is judged when the page is built.
    offers: offerCards(new Date()),
    testimonials: testimonialCards(),
    glassTypes: glassTypeCards(),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  seo({
    title: loaderData.home.metaTitle,
    description: loaderData.home.metaDescription,
    path: '/',
  });

/** SPEC §2 'Home page', items 1-12 in order. */
export default function Home({ loaderData, actionData }: Route.ComponentProps) {
  const { home, services, offers, testimonials, glassTypes } = loaderData;
  return (
    <>
      {/* 1 */}
      <Suspense fallback={null}>
        <HomeHero hero={home.hero} />
      </Suspense>
      {/* 2: the call-back form of the leads issue goes inside this section. */}
      <CallBackSection content={home.callBack}>
        <DeferredCallbackForm
          labelledBy="call-back-heading"
          action={FORM_ACTION}
          result={actionData}
        />
      </CallBackSection>
      {/* 3: SPEC §2 'an empty grey section': a quiet band, nothing to announce. */}
      <div className="home-grey-band" aria-hidden="true" data-home-section="grey" />
      {/* 4-12: prerendered HTML at once, code just after the page is interactive. */}
      <Suspense fallback={null}>
        <HomeLowerSections
          home={home}
          services={services}
          offers={offers}
          testimonials={testimonials}
          glassTypes={glassTypes}
        />
      </Suspense>
    </>
  );
}

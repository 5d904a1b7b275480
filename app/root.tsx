import { useEffect, type ReactNode } from 'react';
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  useLocation,
  useRouteLoaderData,
  type LinksFunction,
} from 'react-router';
import type { Route } from './+types/root';
import { MobilePhoneBar } from './components/layout/MobilePhoneBar.tsx';
import { ScrollManager } from './components/layout/ScrollManager.tsx';
import { SiteFooter } from './components/layout/SiteFooter.tsx';
import { SiteHeader } from './components/layout/SiteHeader.tsx';
import { NotFoundContent } from './components/NotFoundContent.tsx';
import { ButtonLink, CallButton } from './components/ui/ButtonLink.tsx';
import type { SiteLinks } from './content/navigation.ts';
import { siteLinks } from './content/site-links.ts';
import { localBusinessJsonLd } from './lib/json-ld.ts';
import { documentTitle, notFoundMeta } from './lib/seo.ts';
import { useNonce } from './lib/request-context.ts';
import stylesHref from './styles/app.css?url';
// The carousel and the map are shared by the home, service and contact pages.
import carouselStylesHref from './styles/carousel.css?url';
import mapStylesHref from './styles/map.css?url';
// The lead forms are on the home, contact and quote pages (and lead to /thank-you).
import formStylesHref from './styles/forms.css?url';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: stylesHref },
  { rel: 'stylesheet', href: carouselStylesHref },
  { rel: 'stylesheet', href: mapStylesHref },
  { rel: 'stylesheet', href: formStylesHref },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  { rel: 'icon', href: '/favicon.ico', sizes: '32x32' },
  { rel: 'apple-touch-icon', href: '/apple-touch-icon.png' },
  { rel: 'manifest', href: '/site.webmanifest' },
];

/** Only used when an error boundary of the root renders: every page has its own meta. */
export const meta: Route.MetaFunction = ({ error }) =>
  isRouteErrorResponse(error) && error.status === 404
    ? notFoundMeta()
    : [{ title: documentTitle('Something went wrong') }, { name: 'robots', content: 'noindex' }];

export function loader() {
  // The footer's year as this page was rendered (at build time for every
  // prerendered page), so hydration renders exactly what the HTML says.
  return { siteLinks, renderedYear: new Date().getFullYear() };
}

// The links only change with a new build: no need to ask again on navigation.
export const shouldRevalidate = () => false;

const noLinks: SiteLinks = { services: [], glassTypes: [] };

/**
 * The root loader's data for the layout and the error pages, which pass it to
 * the components as props (the components themselves use no router). It is
 * missing only when the root loader itself failed: then the content links are
 * left out and the footer shows this year.
 */
function useRootData(): { siteLinks: SiteLinks; renderedYear: number } {
  const data = useRouteLoaderData<typeof loader>('root');
  return {
    siteLinks: data?.siteLinks ?? noLinks,
    renderedYear: data?.renderedYear ?? new Date().getFullYear(),
  };
}

/** Marks the document once React runs, so no-JavaScript fallbacks can step aside. */
function HydrationMarker() {
  useEffect(() => {
    document.documentElement.dataset.js = 'on';
  }, []);
  return null;
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const { pathname } = useLocation();
  const { siteLinks: links, renderedYear } = useRootData();
  return (
    <html lang="en-NZ">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f4c63" />
        <Meta />
        <Links />
        <script
          type="application/ld+json"
          // Structured data is not executed, so the CSP does not need to allow it.
          dangerouslySetInnerHTML={{
            __html: JSON.stringify(localBusinessJsonLd()).replace(/</g, '\\u003c'),
          }}
        />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to main content
        </a>
        <SiteHeader currentPath={pathname} links={links} />
        <main id="main" tabIndex={-1}>
          {children}
        </main>
        <SiteFooter links={links} renderedYear={renderedYear} />
        <MobilePhoneBar />
        <ScrollManager />
        <HydrationMarker />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { siteLinks: links } = useRootData();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <NotFoundContent serviceLinks={links.services} />;
  }
  if (!isRouteErrorResponse(error)) console.error(error);
  return (
    <div className="page-header">
      <div className="container page-header__inner">
        <div className="page-header__text">
          <h1>Something went wrong on our side</h1>
          <p className="page-header__intro">
            Sorry, this page could not be shown. Please try again in a moment, or get in touch and
            we will help straight away.
          </p>
          <div className="button-row">
            <ButtonLink to="/quote">Request an Estimate</ButtonLink>
            <CallButton />
          </div>
        </div>
      </div>
    </div>
  );
}

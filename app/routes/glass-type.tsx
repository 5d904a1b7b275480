import { data } from 'react-router';
import { PerformaTechPage } from '../components/glass-types/PerformaTechPage.tsx';
import { PlanithermPage } from '../components/glass-types/PlanithermPage.tsx';
import { getGlassType } from '../content/glass-types.ts';
import { breadcrumbJsonLd } from '../lib/json-ld.ts';
import { notFoundMeta, seo } from '../lib/seo.ts';
import pagesCss from '../styles/pages.css?url';
import type { Route } from './+types/glass-type';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: pagesCss }];

export function loader({ params }: Route.LoaderArgs) {
  const glassType = getGlassType(params.slug);
  if (!glassType) throw data(null, { status: 404 });
  return { glassType };
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData
    ? seo({
        title: loaderData.glassType.metaTitle,
        description: loaderData.glassType.metaDescription,
        path: loaderData.glassType.path,
        jsonLd: [
          breadcrumbJsonLd([
            { name: 'Home', path: '/' },
            { name: loaderData.glassType.navTitle, path: loaderData.glassType.path },
          ]),
        ],
      })
    : notFoundMeta();

/** SPEC §2: the two premium glass type pages, each with its own sections. */
export default function GlassTypePage({ loaderData: { glassType } }: Route.ComponentProps) {
  return glassType.slug === 'performatech' ? (
    <PerformaTechPage content={glassType} />
  ) : (
    <PlanithermPage content={glassType} />
  );
}

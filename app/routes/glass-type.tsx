import { data } from 'react-router';
import { ButtonLink } from '../components/ui/ButtonLink.tsx';
import { PageHeader } from '../components/ui/PageHeader.tsx';
import { getGlassType } from '../content/glass-types.ts';
import { notFoundMeta, seo } from '../lib/seo.ts';
import type { Route } from './+types/glass-type';

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
      })
    : notFoundMeta();

export default function GlassTypePage({ loaderData: { glassType } }: Route.ComponentProps) {
  return (
    <PageHeader
      eyebrow="Premium glass"
      title={glassType.title}
      intro={<p>{glassType.intro}</p>}
      actions={<ButtonLink to="/quote">{glassType.cta.buttonText}</ButtonLink>}
    />
  );
}

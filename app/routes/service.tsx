import { data } from 'react-router';
import { ButtonLink } from '../components/ui/ButtonLink.tsx';
import { PageHeader } from '../components/ui/PageHeader.tsx';
import { getService } from '../content/services.ts';
import { notFoundMeta, seo } from '../lib/seo.ts';
import type { Route } from './+types/service';

export function loader({ params }: Route.LoaderArgs) {
  const service = getService(params.slug);
  if (!service) throw data(null, { status: 404 });
  return { service };
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData
    ? seo({
        title: loaderData.service.metaTitle,
        description: loaderData.service.metaDescription,
        path: loaderData.service.path,
      })
    : notFoundMeta();

export default function ServicePage({ loaderData: { service } }: Route.ComponentProps) {
  return (
    <PageHeader
      title={service.title}
      intro={<p>{service.introText}</p>}
      actions={<ButtonLink to="/quote">Get a Free Quote</ButtonLink>}
    />
  );
}

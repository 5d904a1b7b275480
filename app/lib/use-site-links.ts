import { useRouteLoaderData } from 'react-router';
import type { SiteLinks } from '../content/navigation.ts';
import type { loader as rootLoader } from '../root.tsx';

const noLinks: SiteLinks = { services: [], glassTypes: [] };

/** The content links the root loader provides (empty only if the root itself failed). */
export function useSiteLinks(): SiteLinks {
  return useRouteLoaderData<typeof rootLoader>('root')?.siteLinks ?? noLinks;
}

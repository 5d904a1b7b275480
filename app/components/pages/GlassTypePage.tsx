import { PerformaTechPage } from '../glass-types/PerformaTechPage.tsx';
import { PlanithermPage } from '../glass-types/PlanithermPage.tsx';
import { getGlassType } from '../../content/glass-types.ts';
import { breadcrumbJsonLd } from '../../lib/json-ld.ts';
import type { PageMeta } from '../../layouts/page-meta.ts';

export function glassTypeData(slug: string) {
  const glassType = getGlassType(slug);
  if (!glassType) return null;
  return { glassType };
}

export const glassTypeMeta = (
  loaderData: NonNullable<ReturnType<typeof glassTypeData>>,
): PageMeta => ({
  title: loaderData.glassType.metaTitle,
  description: loaderData.glassType.metaDescription,
  path: loaderData.glassType.path,
  jsonLd: [
    breadcrumbJsonLd([
      { name: 'Home', path: '/' },
      { name: loaderData.glassType.navTitle, path: loaderData.glassType.path },
    ]),
  ],
});

/** SPEC §2: the two premium glass type pages, each with its own sections. */
export function GlassTypePage({
  loaderData: { glassType },
}: {
  loaderData: NonNullable<ReturnType<typeof glassTypeData>>;
}) {
  return glassType.slug === 'performatech' ? (
    <PerformaTechPage content={glassType} />
  ) : (
    <PlanithermPage content={glassType} />
  );
}

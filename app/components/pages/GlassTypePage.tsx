import { PerformaTechPage } from '../glass-types/PerformaTechPage.tsx';
import { PlanithermPage } from '../glass-types/PlanithermPage.tsx';
import type { GlassType } from '../../content/glass-types.ts';

/**
 * docs/screens.md#solar-control-glass-page, #low-e-glass-page: the two premium
 * glass type pages, each with its own sections.
 */
export function GlassTypePage({ glassType }: { glassType: GlassType }) {
  return glassType.slug === 'performatech' ? (
    <PerformaTechPage content={glassType} />
  ) : (
    <PlanithermPage content={glassType} />
  );
}

import { lazy, Suspense, type ComponentProps } from 'react';
import type { CallbackForm } from './CallbackForm.tsx';

/**
 * The home page's call-back form, with its JavaScript loaded after the
 * page's own (the home page's budget, e2e/budget.spec.ts, has no room for
 * it). Nothing is lost meanwhile: the prerendered form is in the page from
 * the start, and until its code arrives it posts like any HTML form, to the
 * same page (it works without JavaScript). React hydrates it once the
 * chunk is there; on a client-side visit to the home page it appears as
 * soon as that chunk loads.
 *
 * Only whole-document hydration needs this: once the form is an island of
 * its own, hydrated late (issue 15), its code is a separate chunk anyway and
 * the island can render CallbackForm directly.
 */
const LazyCallbackForm = lazy(() =>
  import('./CallbackForm.tsx').then((module) => ({ default: module.CallbackForm })),
);

export function DeferredCallbackForm(props: ComponentProps<typeof CallbackForm>) {
  return (
    <Suspense fallback={null}>
      <LazyCallbackForm {...props} />
    </Suspense>
  );
}

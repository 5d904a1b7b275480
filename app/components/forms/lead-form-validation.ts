import type * as LeadSchema from '../../leads/intake/schema.ts';

/**
 * The client check of the lead forms runs the very schema the server runs
 * (app/leads/intake/schema.ts, STYLE "one schema per form"). It is loaded on first
 * use instead of with the page: zod is about 21 KiB (brotli), more than the
 * home page's JavaScript budget has room for (e2e/route-budget-and-axe.spec.ts).
 * The forms start loading it as soon as a visitor focuses a field, so it is
 * there by the time they submit.
 */

type LeadSchemaModule = typeof LeadSchema;

let loading: Promise<LeadSchemaModule> | undefined;

export function loadLeadValidation(): Promise<LeadSchemaModule> {
  loading ??= import('../../leads/intake/schema.ts').catch((error: unknown) => {
    // A failed chunk load (offline, a new deployment) may succeed next time.
    loading = undefined;
    throw error;
  });
  return loading;
}

export function preloadLeadValidation(): void {
  loadLeadValidation().catch(() => undefined);
}

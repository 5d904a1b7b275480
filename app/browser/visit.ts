import { QUOTE_FORM_ATTRIBUTE } from '../components/layout/header-menus.ts';

/**
 * Where this visit came from (docs/operations.md#where-enquiries-come-from),
 * kept first-party for the visit: in `sessionStorage` (this tab, until it is
 * closed; never a cookie, never sent until a form is). The site module keeps
 * it on the first page of the visit, and adds it to every lead form's data.
 *
 * Storage may refuse (private modes, storage turned off) or throw: nothing
 * here ever breaks a page or a form. Every value is one the lead schema
 * takes (schema.ts): cut to 200 characters, one with a control character
 * left out, a referrer only as a host name.
 *
 * The names and checks are those of app/leads/intake/attribution.ts, written
 * out here (visit.test.ts checks they agree): shared with the lead forms'
 * scripts, that module would be a script of its own on every page.
 */

/** The sessionStorage key of the visit. */
export const VISIT_KEY = 'visit';

const CAMPAIGN = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content', 'gclid'];
export const VISIT_FIELDS = ['landing', 'referrer', ...CAMPAIGN];
export const VISIT_MAX = 200;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const VISIT_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
export const VISIT_HOST = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*$/i;

type Visit = Record<string, string>;

/** This page as the first of a visit: its path and query, its referring host, its tags. */
function thisPage(): Visit {
  const query = new URLSearchParams(location.search);
  const found: Record<string, string | null> = { landing: location.pathname + location.search };
  try {
    const host = new URL(document.referrer).hostname;
    if (host !== location.hostname && VISIT_HOST.test(host)) found.referrer = host;
  } catch {
    // No referrer (typed, bookmarked, or withheld by the referring site).
  }
  for (const field of CAMPAIGN) found[field] = query.get(field);
  const visit: Visit = {};
  for (const field of VISIT_FIELDS) {
    const text = found[field]?.trim().slice(0, VISIT_MAX);
    if (text && !VISIT_FORBIDDEN.test(text)) visit[field] = text;
  }
  return visit;
}

/** Keeps this page as the visit's first, unless the visit has one already. */
export function rememberVisit(): void {
  try {
    sessionStorage[VISIT_KEY] ??= JSON.stringify(thisPage());
  } catch {
    // Storage refused: a form then sends its own page (visitFields).
  }
}

/**
 * The visit's fields to send with a form: those kept, or this page's when
 * none could be kept (storage refused) or read.
 */
export function visitFields(): Visit {
  try {
    const kept: unknown = JSON.parse(sessionStorage[VISIT_KEY] as string);
    if (typeof kept === 'object' && kept) return kept as Visit;
  } catch {
    // Nothing kept, or not readable.
  }
  return thisPage();
}

/**
 * Every lead form (QUOTE_FORM_ATTRIBUTE) sends the visit's fields: the
 * browser asks for them whenever the form's data is read (`new
 * FormData(form)` in the form's script, or the browser posting the form
 * before its script has started; the page's own post ignores them). So
 * the forms carry no code for it.
 */
export function sendVisitWithForms(): void {
  document.addEventListener('formdata', (event) => {
    if (!(event.target as Element).hasAttribute(QUOTE_FORM_ATTRIBUTE)) return;
    for (const [name, value] of Object.entries(visitFields())) event.formData.set(name, value);
  });
}

import { publicConfig } from '../public-config.ts';

/**
 * Analytics (docs/analytics.md), through Google's gtag when GTAG_ID is configured.
 * Every call is guarded: when the tag is absent nothing happens, and a
 * failure is logged, never shown (docs/analytics.md#when-analytics-runs).
 */

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: (...args: unknown[]) => void;
  }
}

export type FormSource = 'hero_form' | 'contact_form' | 'quote_form';

export type AnalyticsEvent =
  | {
      name: 'page_view';
      params: { page_path: string; page_title?: string; page_location?: string };
    }
  | {
      name: 'form_submit';
      params: { event_category: 'engagement'; event_label: FormSource; value: 1 };
    }
  | {
      name: 'conversion';
      params: { send_to?: string; value: 1; currency: 'NZD'; transaction_id?: string };
    };

export const GTAG_ORIGIN = 'https://www.googletagmanager.com';

/**
 * Installs the gtag queue and loads the tag script after the page has
 * painted. Safe to call more than once; does nothing without an id.
 */
export function loadAnalytics(
  config: { gtagId: string; adsConversionSendTo: string } = publicConfig,
) {
  if (!config.gtagId || typeof window === 'undefined' || window.gtag) return;
  window.dataLayer = window.dataLayer ?? [];
  window.gtag = function gtag() {
    // gtag.js reads the arguments object itself, not an array copy.
    // eslint-disable-next-line prefer-rest-params
    window.dataLayer?.push(arguments);
  };
  window.gtag('js', new Date());
  // Page views are sent by the site's module on every page load
  // (app/browser/site.ts, docs/analytics.md#page-views).
  window.gtag('config', config.gtagId, { send_page_view: false });
  const adsId = config.adsConversionSendTo.split('/')[0];
  if (adsId) window.gtag('config', adsId);
  const script = document.createElement('script');
  script.async = true;
  script.src = `${GTAG_ORIGIN}/gtag/js?id=${encodeURIComponent(config.gtagId)}`;
  document.head.append(script);
}

export function track(event: AnalyticsEvent): void {
  if (typeof window === 'undefined') return;
  // Whoever tracks first (the site's module, an island) makes sure the queue exists.
  loadAnalytics();
  if (typeof window.gtag !== 'function') return;
  try {
    window.gtag('event', event.name, event.params);
  } catch (error) {
    console.error('analytics event failed', event.name, error);
  }
}

/**
 * docs/analytics.md#page-views: the path and query string on every page load
 * (app/browser/site.ts).
 */
export function trackPageView(pathWithQuery: string, title?: string): void {
  track({
    name: 'page_view',
    params: {
      page_path: pathWithQuery,
      ...(title ? { page_title: title } : {}),
      ...(typeof window !== 'undefined' ? { page_location: window.location.href } : {}),
    },
  });
}

/**
 * One conversion per enquiry: the form's conversion and the
 * thank-you page's carry the same transaction id, the lead's created_at, so
 * the advertising platform counts them once. The id travels to /thank-you in
 * sessionStorage rather than the address: it stays in this tab, is never sent
 * to the server, and stays out of the page_view's page_location, the history
 * and Referer headers. It holds only the timestamp, no personal data.
 */
const CONVERSION_HANDOFF_KEY = 'glass:conversion-transaction';

interface ConversionHandoff {
  transactionId: string;
  /** The key of the thank-you visit that took it, once one has. */
  visit?: string;
}

function handOffConversion(transactionId: string): void {
  try {
    sessionStorage.setItem(CONVERSION_HANDOFF_KEY, JSON.stringify({ transactionId }));
  } catch (error) {
    // Storage turned off: the thank-you conversion goes without the id.
    console.error('conversion hand-off failed', error);
  }
}

/**
 * The transaction id of the enquiry that led to this visit of /thank-you
 * (`visit`: a key the thank-you page keeps in its history entry's state,
 * app/pages/thank-you.astro). The first visit after a submission takes it; a
 * reload of that visit keeps it (the platform de-duplicates it again); any
 * other visit gets none and sends the plain conversion
 * (docs/analytics.md#thank-you-page).
 */
export function conversionForThankYouVisit(visit: string): string | undefined {
  try {
    const stored = sessionStorage.getItem(CONVERSION_HANDOFF_KEY);
    if (!stored) return undefined;
    const handoff = JSON.parse(stored) as Partial<ConversionHandoff>;
    if (typeof handoff.transactionId !== 'string') return undefined;
    if (handoff.visit === undefined) {
      sessionStorage.setItem(
        CONVERSION_HANDOFF_KEY,
        JSON.stringify({ transactionId: handoff.transactionId, visit }),
      );
      return handoff.transactionId;
    }
    return handoff.visit === visit ? handoff.transactionId : undefined;
  } catch {
    return undefined;
  }
}

/** docs/analytics.md#after-a-successful-enquiry. */
export function trackLeadSubmitted(source: FormSource, createdAt: string): void {
  track({
    name: 'form_submit',
    params: { event_category: 'engagement', event_label: source, value: 1 },
  });
  track({
    name: 'conversion',
    params: {
      ...(publicConfig.adsConversionSendTo ? { send_to: publicConfig.adsConversionSendTo } : {}),
      value: 1,
      currency: 'NZD',
      transaction_id: createdAt,
    },
  });
  handOffConversion(createdAt);
}

/**
 * docs/analytics.md#thank-you-page: a thank-you page's conversion and 'Thank You' page view
 * (`path`: /thank-you, or /thank-you/urgent after an urgent enquiry); the
 * conversion with the form's transaction id when a submission led here.
 */
export function trackThankYou(transactionId?: string, path = '/thank-you'): void {
  track({
    name: 'conversion',
    params: {
      ...(publicConfig.adsConversionSendTo ? { send_to: publicConfig.adsConversionSendTo } : {}),
      value: 1,
      currency: 'NZD',
      ...(transactionId ? { transaction_id: transactionId } : {}),
    },
  });
  track({
    name: 'page_view',
    params: {
      page_title: 'Thank You',
      page_path: path,
      ...(typeof window !== 'undefined' ? { page_location: window.location.href } : {}),
    },
  });
}

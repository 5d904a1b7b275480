import { publicConfig } from './public-config.ts';

/**
 * SPEC §7 analytics, through Google's gtag when GTAG_ID is configured.
 * Every call is guarded: when the tag is absent nothing happens, and a
 * failure is logged, never shown (SPEC §8).
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
  // Page views are sent by the router on every navigation (SPEC §2).
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
  // A page's own effects can run before the layout's: make sure the queue exists.
  loadAnalytics();
  if (typeof window.gtag !== 'function') return;
  try {
    window.gtag('event', event.name, event.params);
  } catch (error) {
    console.error('analytics event failed', event.name, error);
  }
}

/** SPEC §2: a page view with the path and query string on every route change. */
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

/** SPEC §7 step 3, after a successful submission. */
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
}

/** SPEC §4 / §7: the thank-you page's conversion and 'Thank You' page view. */
export function trackThankYou(): void {
  track({
    name: 'conversion',
    params: {
      ...(publicConfig.adsConversionSendTo ? { send_to: publicConfig.adsConversionSendTo } : {}),
      value: 1,
      currency: 'NZD',
    },
  });
  track({
    name: 'page_view',
    params: {
      page_title: 'Thank You',
      page_path: '/thank-you',
      ...(typeof window !== 'undefined' ? { page_location: window.location.href } : {}),
    },
  });
}

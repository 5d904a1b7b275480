import { createHash } from 'node:crypto';

/**
 * The Content-Security-Policy of every HTML response. No arbitrary inline
 * script or style applies: a page allows exactly the inline scripts and
 * styles it was built with (by hash: Astro's island loader and its one
 * `display: contents` rule); nothing else is inline.
 * Analytics and map hosts are allowed only when they are configured.
 */

export interface CspOptions {
  gtagId?: string;
  adsConversionSendTo?: string;
  /** The iframe src of the embedded map, if the site has one. */
  mapEmbedUrl?: string;
  /** Add upgrade-insecure-requests (only when the site is served over https). */
  https?: boolean;
  /**
   * The owner's pages: they register their service worker (/admin/sw.js).
   * No other page registers one.
   */
  serviceWorker?: boolean;
  /**
   * A page with a lead form: its form starts a Web Worker for the proof of
   * work (docs/forms.md#proof-of-work), from a file of the site, never
   * blob: or data:.
   */
  formWorker?: boolean;
}

const GTAG_SCRIPT = ['https://www.googletagmanager.com'];
const GTAG_CONNECT = [
  'https://www.googletagmanager.com',
  'https://*.google-analytics.com',
  'https://*.analytics.google.com',
];
const GTAG_IMG = ['https://www.googletagmanager.com', 'https://*.google-analytics.com'];
const ADS_SCRIPT = ['https://www.googleadservices.com', 'https://googleads.g.doubleclick.net'];
const ADS_CONNECT = ['https://www.google.com', 'https://googleads.g.doubleclick.net'];
const ADS_IMG = [
  'https://www.google.com',
  'https://www.google.co.nz',
  'https://googleads.g.doubleclick.net',
];
const ADS_FRAME = ['https://td.doubleclick.net', 'https://www.googletagmanager.com'];

/** The 'sha256-…' source that allows one inline script or style by its body. */
export function hashSource(body: string): string {
  return `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`;
}

/**
 * The file, in a release (beside its build stamp, never served), where
 * the build records each prerendered page's inline code by hash
 * (scripts/build.ts, from scripts/defer-scripts.ts, which wrote it). The
 * hashes come from what the build emitted, never from reading the HTML
 * back: text an owner typed may spell a `<script>` inside an attribute
 * value, which is no element and must not be allowed.
 */
export const INLINE_CODE_FILE = 'inline-code.json';

/** Its content: per page (its file under client/), the sources of its inline scripts and styles. */
export interface InlineCodeRecord {
  pages: Record<string, { scripts: string[]; styles: string[] }>;
}

export function contentSecurityPolicy(
  inline: { hashes?: readonly string[]; styleHashes?: readonly string[] },
  options: CspOptions,
): string {
  const script = ["'self'", ...(inline.hashes ?? [])];
  const connect = ["'self'"];
  // blob: the photo picker's thumbnails, object URLs of the visitor's own
  // files (docs/interactive-parts.md#photo-picker); nothing leaves the page.
  const img = ["'self'", 'data:', 'blob:'];
  const frame: string[] = [];
  if (options.gtagId) {
    script.push(...GTAG_SCRIPT);
    connect.push(...GTAG_CONNECT);
    img.push(...GTAG_IMG);
  }
  if (options.adsConversionSendTo) {
    script.push(...ADS_SCRIPT);
    connect.push(...ADS_CONNECT);
    img.push(...ADS_IMG);
    frame.push(...ADS_FRAME);
  }
  if (options.mapEmbedUrl) frame.push(new URL(options.mapEmbedUrl).origin);

  const directives: [string, readonly string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', unique(script)],
    ['style-src', unique(["'self'", ...(inline.styleHashes ?? [])])],
    ['img-src', unique(img)],
    ['font-src', ["'self'"]],
    ['connect-src', unique(connect)],
    ['frame-src', frame.length ? unique(frame) : ["'none'"]],
    ['manifest-src', ["'self'"]],
    ['worker-src', [options.serviceWorker || options.formWorker ? "'self'" : "'none'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  const policy = directives.map(([name, values]) => `${name} ${values.join(' ')}`);
  if (options.https) policy.push('upgrade-insecure-requests');
  return policy.join('; ');
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

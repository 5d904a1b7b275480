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

/** 'sha256-…' sources for every inline <script> that the browser would run. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  const pattern = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;
  for (const match of html.matchAll(pattern)) {
    const attributes = match[1] ?? '';
    const body = match[2] ?? '';
    if (/\bsrc\s*=/.test(attributes) || body === '') continue;
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase();
    // Data blocks such as JSON-LD are never executed.
    if (
      type &&
      type !== 'module' &&
      type !== 'text/javascript' &&
      type !== 'application/javascript'
    )
      continue;
    hashes.add(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return [...hashes];
}

/** 'sha256-…' sources for every inline <style> element. */
export function inlineStyleHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)) {
    const body = match[1] ?? '';
    if (body !== '')
      hashes.add(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return [...hashes];
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
    ['worker-src', ["'none'"]],
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

import { DEFAULT_LEAD_RETENTION_DAYS } from './leads/retention.ts';

/**
 * The browser-visible configuration, fixed at build time by astro.config.ts.
 * Under Vitest the defines are absent and the defaults apply.
 */
export const publicConfig = {
  siteUrl: (import.meta.env.PUBLIC_SITE_URL as string | undefined) ?? 'http://localhost:3000',
  gtagId: (import.meta.env.PUBLIC_GTAG_ID as string | undefined) ?? '',
  adsConversionSendTo: (import.meta.env.PUBLIC_ADS_CONVERSION_SEND_TO as string | undefined) ?? '',
  /** LEAD_RETENTION_DAYS (docs/operations.md#environment), stated on the privacy page. */
  leadRetentionDays:
    (import.meta.env.PUBLIC_LEAD_RETENTION_DAYS as number | undefined) ??
    DEFAULT_LEAD_RETENTION_DAYS,
} as const;

export function absoluteUrl(path: string): string {
  return new URL(path, `${publicConfig.siteUrl}/`).href;
}

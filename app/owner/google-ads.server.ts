import { csvCell } from '../leads/csv.server.ts';
import { jobValueDecimal } from '../leads/job-value.ts';

/*
 * Won jobs back to Google Ads (docs/operations.md#won-jobs-for-google-ads):
 * the won leads that came from a Google ad click, as a file in Google Ads'
 * offline conversion import layout. `npm run leads -- export --google-ads`
 * and the report's "Download for Google Ads" both write it from here.
 */

/** The conversion name when ADS_CONVERSION_NAME is not set. */
export const DEFAULT_CONVERSION_NAME = 'Won job';

/**
 * Google Ads takes a click's conversion for 90 days after the click; the
 * click's time is the lead's: the visitor sent the form in the visit the ad
 * began.
 */
export const CLICK_MAX_AGE_DAYS = 90;

export const GOOGLE_ADS_TIME_ZONE = 'Pacific/Auckland';

export const GOOGLE_ADS_HEADER =
  'Google Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency';

/** What the file reads of a lead (a lead as the store gives it). */
export interface AdsLead {
  created_at: string;
  stage: string;
  /** When the stage last changed: for a won lead, when it was won. */
  stage_changed_at: string;
  job_value_cents: number | null;
  attribution?: { gclid: string | null } | null | undefined;
}

export interface AdsConversion {
  gclid: string;
  name: string;
  /** `yyyy-MM-dd HH:mm:ss` in New Zealand time. */
  time: string;
  /** Dollars with two decimals, or empty when no value was typed. */
  value: string;
  /** `NZD` with a value, else empty. */
  currency: string;
}

const nzTime = new Intl.DateTimeFormat('en-NZ', {
  timeZone: GOOGLE_ADS_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** `2026-04-02 16:04:05`: an ISO time as New Zealand's clocks showed it. */
export function nzConversionTime(iso: string): string {
  const parts = nzTime.formatToParts(new Date(iso));
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')}`;
}

/**
 * The won leads with a Google click id whose click (the lead's creation) is
 * at most CLICK_MAX_AGE_DAYS before `now`, in the leads' order: when each
 * was won, and the value the owner typed, in NZD, when there is one.
 */
export function googleAdsConversions(
  leads: readonly AdsLead[],
  options: { name: string; now: Date },
): AdsConversion[] {
  const oldest = options.now.getTime() - CLICK_MAX_AGE_DAYS * 86_400_000;
  const conversions: AdsConversion[] = [];
  for (const lead of leads) {
    const gclid = lead.attribution?.gclid?.trim();
    if (lead.stage !== 'won' || !gclid || Date.parse(lead.created_at) < oldest) continue;
    const value = jobValueDecimal(lead.job_value_cents);
    conversions.push({
      gclid,
      name: options.name,
      time: nzConversionTime(lead.stage_changed_at),
      value: value ?? '',
      currency: value === null ? '' : 'NZD',
    });
  }
  return conversions;
}

/**
 * The file: `Parameters:TimeZone=Pacific/Auckland`, the header, a row per
 * conversion; every cell spreadsheet-safe (csvCell), lines ending CRLF.
 */
export function googleAdsCsv(
  leads: readonly AdsLead[],
  options: { name: string; now: Date },
): string {
  const rows = googleAdsConversions(leads, options).map((row) =>
    [row.gclid, row.name, row.time, row.value, row.currency].map(csvCell).join(','),
  );
  return [`Parameters:TimeZone=${GOOGLE_ADS_TIME_ZONE}`, GOOGLE_ADS_HEADER, ...rows, ''].join(
    '\r\n',
  );
}

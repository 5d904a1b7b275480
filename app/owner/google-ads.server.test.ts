import { describe, expect, it } from 'vitest';
import {
  CLICK_MAX_AGE_DAYS,
  googleAdsConversions,
  googleAdsCsv,
  nzConversionTime,
  type AdsLead,
} from './google-ads.server.ts';

const NOW = new Date('2026-04-20T00:00:00.000Z');
const DAY = 86_400_000;

function lead(overrides: Partial<AdsLead> & { gclid?: string | null } = {}): AdsLead {
  const { gclid = 'Cj0KCQiAwon', ...rest } = overrides;
  return {
    created_at: '2026-04-01T00:00:00.000Z',
    stage: 'won',
    stage_changed_at: '2026-04-02T03:04:05.000Z',
    job_value_cents: null,
    attribution: { gclid },
    ...rest,
  };
}

describe('won jobs for Google Ads', () => {
  it('writes the conversion time in New Zealand time, daylight saving or not', () => {
    // NZDT (UTC+13) until 5 April 2026 at 3 am, then NZST (UTC+12).
    expect(nzConversionTime('2026-04-02T03:04:05.000Z')).toBe('2026-04-02 16:04:05');
    expect(nzConversionTime('2026-04-04T13:59:59.000Z')).toBe('2026-04-05 02:59:59');
    expect(nzConversionTime('2026-04-04T14:00:00.000Z')).toBe('2026-04-05 02:00:00');
    expect(nzConversionTime('2026-07-01T11:00:00.000Z')).toBe('2026-07-01 23:00:00');
    expect(nzConversionTime('2026-07-01T12:00:00.000Z')).toBe('2026-07-02 00:00:00');
  });

  it('lists won leads with a click id at most 90 days old, their value in NZD when typed', () => {
    const leads = [
      lead({ job_value_cents: 125050 }),
      lead({ gclid: 'second', stage_changed_at: '2026-04-10T22:00:00.000Z' }),
      lead({ gclid: null }),
      lead({ gclid: '  ' }),
      lead({ gclid: 'quoted', stage: 'quoted' }),
      lead({ gclid: 'spam', stage: 'spam' }),
      // 90 days after the click is still in; a moment more is not.
      lead({
        gclid: 'oldest',
        created_at: new Date(NOW.getTime() - CLICK_MAX_AGE_DAYS * DAY).toISOString(),
      }),
      lead({
        gclid: 'too-old',
        created_at: new Date(NOW.getTime() - CLICK_MAX_AGE_DAYS * DAY - 1).toISOString(),
      }),
      lead({ gclid: 'no-record', attribution: undefined }),
    ];
    expect(googleAdsConversions(leads, { name: 'Won job', now: NOW })).toEqual([
      {
        gclid: 'Cj0KCQiAwon',
        name: 'Won job',
        time: '2026-04-02 16:04:05',
        value: '1250.50',
        currency: 'NZD',
      },
      { gclid: 'second', name: 'Won job', time: '2026-04-11 10:00:00', value: '', currency: '' },
      { gclid: 'oldest', name: 'Won job', time: '2026-04-02 16:04:05', value: '', currency: '' },
    ]);
  });

  it('is the offline conversion import layout, every cell safe in a spreadsheet', () => {
    const csv = googleAdsCsv(
      [
        lead({ job_value_cents: 98000 }),
        lead({ gclid: '=HYPERLINK("http://x.example","go")', job_value_cents: 100 }),
      ],
      { name: '+Won, "big" job', now: NOW },
    );
    expect(csv).toBe(
      [
        'Parameters:TimeZone=Pacific/Auckland',
        'Google Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency',
        `Cj0KCQiAwon,"'+Won, ""big"" job",2026-04-02 16:04:05,980.00,NZD`,
        `"'=HYPERLINK(""http://x.example"",""go"")","'+Won, ""big"" job",2026-04-02 16:04:05,1.00,NZD`,
        '',
      ].join('\r\n'),
    );
    expect(googleAdsCsv([], { name: 'Won job', now: NOW })).toBe(
      'Parameters:TimeZone=Pacific/Auckland\r\nGoogle Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency\r\n',
    );
  });
});

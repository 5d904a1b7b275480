import { describe, expect, it } from 'vitest';
import {
  landingName,
  monthlyReport,
  monthWords,
  nzMonth,
  sourceName,
  wonRate,
  type ReportLead,
} from './reports.ts';

type Field =
  | 'landing'
  | 'referrer'
  | 'utm_source'
  | 'utm_medium'
  | 'utm_campaign'
  | 'utm_term'
  | 'utm_content'
  | 'gclid';

const NONE: Record<Field, string | null> = {
  landing: null,
  referrer: null,
  utm_source: null,
  utm_medium: null,
  utm_campaign: null,
  utm_term: null,
  utm_content: null,
  gclid: null,
};

function lead(
  overrides: Omit<Partial<ReportLead>, 'attribution'> & {
    attribution?: Partial<Record<Field, string | null>>;
  } = {},
) {
  const { attribution, ...rest } = overrides;
  return {
    created_at: '2026-03-10T00:00:00.000Z',
    stage: 'new',
    status: 'accepted',
    source: 'quote_form',
    ...rest,
    attribution: { ...NONE, ...attribution },
  } as ReportLead;
}

describe('where an enquiry came from, as the owner reads it', () => {
  it('names campaigns by their tags, and a Google click without tags as google / cpc', () => {
    const named = (attribution: Partial<typeof NONE>) => sourceName(lead({ attribution }));
    expect(named({ landing: '/?utm_source=google', utm_source: 'google', utm_medium: 'cpc' })).toBe(
      'google / cpc',
    );
    expect(named({ utm_source: ' Facebook ', utm_medium: 'Paid_Social' })).toBe(
      'facebook / paid_social',
    );
    expect(named({ utm_source: 'newsletter' })).toBe('newsletter');
    expect(named({ utm_medium: 'email' })).toBe('email');
    expect(named({ gclid: 'Cj0KCQiA', landing: '/?gclid=Cj0KCQiA' })).toBe('google / cpc');
    // Tags win over the referring site.
    expect(named({ gclid: 'x', referrer: 'www.google.com' })).toBe('google / cpc');
  });

  it('names a referring site by its host, and a search engine as organic search', () => {
    const named = (referrer: string) =>
      sourceName(lead({ attribution: { referrer, landing: '/' } }));
    expect(named('www.google.co.nz')).toBe('google / organic');
    expect(named('www.google.com')).toBe('google / organic');
    expect(named('www.bing.com')).toBe('bing / organic');
    expect(named('duckduckgo.com')).toBe('duckduckgo / organic');
    expect(named('nz.search.yahoo.com')).toBe('yahoo / organic');
    expect(named('www.facebook.com')).toBe('referral: facebook.com');
    expect(named('l.facebook.com')).toBe('referral: facebook.com');
    expect(named('m.facebook.com')).toBe('referral: facebook.com');
    expect(named('www.neighbourly.co.nz')).toBe('referral: neighbourly.co.nz');
    // Not a search engine for being named like one.
    expect(named('google.example.com')).toBe('referral: google.example.com');
    expect(named('notgoogle.com')).toBe('referral: notgoogle.com');
  });

  it('says direct when the visit is known and nothing sent it, and what it cannot know', () => {
    // The visit was kept (its first page is not the form's): nothing sent the visitor.
    expect(sourceName(lead({ attribution: { landing: '/services/windows' } }))).toBe('direct');
    expect(sourceName(lead({ source: 'hero_form', attribution: { landing: '/contact' } }))).toBe(
      'direct',
    );
    // Only the form's own page: sent without the visit's details, or came straight to it.
    for (const [source, landing] of [
      ['hero_form', '/'],
      ['contact_form', '/contact'],
      ['quote_form', '/quote'],
    ] as const) {
      expect(sourceName(lead({ source, attribution: { landing } }))).toBe('form page only');
    }
    // Nothing at all: an enquiry from before the site kept this, or from a program.
    expect(sourceName(lead())).toBe('not recorded');
    expect(sourceName({ ...lead(), attribution: undefined })).toBe('not recorded');
  });

  it('names the landing page by its path, without its query', () => {
    const landing = (value: string | null) =>
      landingName(lead({ attribution: { landing: value } }));
    expect(landing('/?utm_source=google&gclid=abc')).toBe('home page');
    expect(landing('/')).toBe('home page');
    expect(landing('/services/windows/?utm_source=x')).toBe('/services/windows');
    expect(landing('/quote#top')).toBe('/quote');
    expect(landing(null)).toBe('not recorded');
  });
});

describe('the monthly report', () => {
  it('counts by New Zealand month, newest first', () => {
    // 11:30 UTC on 31 March is 00:30 on 1 April in New Zealand (NZDT ends on 5 April).
    expect(nzMonth('2026-03-31T11:30:00.000Z')).toBe('2026-04');
    expect(nzMonth('2026-03-31T10:59:59.000Z')).toBe('2026-03');
    expect(nzMonth('2026-06-30T12:00:00.000Z')).toBe('2026-07');
    expect(monthWords('2026-04')).toBe('April 2026');
  });

  it('gives enquiries, won and the won rate by source and by landing page, spam never counted', () => {
    const leads = [
      lead({
        created_at: '2026-03-02T00:00:00.000Z',
        stage: 'won',
        attribution: { gclid: 'a', landing: '/?gclid=a' },
      }),
      lead({
        created_at: '2026-03-03T00:00:00.000Z',
        attribution: { gclid: 'b', landing: '/?gclid=b' },
      }),
      lead({
        created_at: '2026-03-04T00:00:00.000Z',
        stage: 'lost',
        attribution: { landing: '/services/windows', referrer: 'www.facebook.com' },
      }),
      lead({
        created_at: '2026-03-05T00:00:00.000Z',
        stage: 'spam',
        status: 'spam',
        attribution: { gclid: 'c', landing: '/' },
      }),
      lead({
        created_at: '2026-03-31T11:30:00.000Z',
        stage: 'won',
        attribution: { landing: '/services/windows' },
      }),
    ];
    const months = monthlyReport(leads);
    expect(months.map((month) => month.month)).toEqual(['2026-04', '2026-03']);
    const [april, march] = months;
    expect(april).toEqual({
      month: '2026-04',
      label: 'April 2026',
      enquiries: 1,
      won: 1,
      bySource: [{ name: 'direct', enquiries: 1, won: 1 }],
      byLanding: [{ name: '/services/windows', enquiries: 1, won: 1 }],
    });
    expect(march).toEqual({
      month: '2026-03',
      label: 'March 2026',
      enquiries: 3,
      won: 1,
      bySource: [
        { name: 'google / cpc', enquiries: 2, won: 1 },
        { name: 'referral: facebook.com', enquiries: 1, won: 0 },
      ],
      byLanding: [
        { name: 'home page', enquiries: 2, won: 1 },
        { name: '/services/windows', enquiries: 1, won: 0 },
      ],
    });
    expect(monthlyReport([])).toEqual([]);
    expect(monthlyReport([leads[3]!])).toEqual([]);
  });

  it('gives the won rate as a whole percentage', () => {
    expect(wonRate(1, 2)).toBe('50%');
    expect(wonRate(1, 3)).toBe('33%');
    expect(wonRate(2, 3)).toBe('67%');
    expect(wonRate(0, 4)).toBe('0%');
    expect(wonRate(0, 0)).toBe('0%');
  });
});

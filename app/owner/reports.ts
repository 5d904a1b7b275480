import type { LeadSource } from '../leads/intake/schema.ts';

/*
 * The owner's report (docs/operations.md#reports), apart from its markup:
 * where each enquiry came from in words, and the figures per month (New
 * Zealand time, by when the enquiry came in) by source and by landing page.
 * Pure: it reads leads as the store or `leads export` (JSON) gives them, so
 * a test can compute the page's figures from the export.
 */

/** What the report reads of a lead's `attribution` (docs/operations.md#reports). */
export interface ReportAttribution {
  landing: string | null;
  referrer: string | null;
  utm_source: string | null;
  utm_medium: string | null;
  gclid: string | null;
}

/** What the report reads of a lead. */
export interface ReportLead {
  created_at: string;
  stage: string;
  status: string;
  source: LeadSource;
  /** Missing or all null: nothing was recorded (an enquiry from before the site kept it). */
  attribution?: ReportAttribution | null | undefined;
}

/** One line of a month: a source or a landing page, its enquiries and how many were won. */
export interface ReportRow {
  name: string;
  enquiries: number;
  won: number;
}

export interface ReportMonth {
  /** `2026-04`: the month in New Zealand time. */
  month: string;
  /** `April 2026`. */
  label: string;
  enquiries: number;
  won: number;
  bySource: ReportRow[];
  byLanding: ReportRow[];
}

/**
 * The page each form is on: a form sent without the visit's details (no
 * JavaScript, or a browser that kept nothing) knows only this page
 * (docs/operations.md#where-enquiries-come-from).
 */
const FORM_PAGES: Record<LeadSource, string> = {
  hero_form: '/',
  contact_form: '/contact',
  quote_form: '/quote',
};

/**
 * Search engines whose visitors read as `NAME / organic` rather than a
 * referring site: the host is the engine's own (`www.google.co.nz`,
 * `nz.search.yahoo.com`), never a site merely named like one.
 */
const SEARCH_ENGINES: ReadonlyArray<{ name: string; host: RegExp }> = [
  {
    name: 'google',
    host: /^(?:www\.)?google\.(?:com|co\.nz|com\.au|[a-z]{2}|co\.[a-z]{2}|com\.[a-z]{2})$/,
  },
  { name: 'bing', host: /^(?:www\.)?bing\.com$/ },
  { name: 'duckduckgo', host: /^(?:www\.)?duckduckgo\.com$/ },
  { name: 'yahoo', host: /^(?:[a-z]{2}\.)?search\.yahoo\.com$/ },
  { name: 'ecosia', host: /^(?:www\.)?ecosia\.org$/ },
  { name: 'brave', host: /^search\.brave\.com$/ },
];

export const NOT_RECORDED = 'not recorded';
export const FORM_PAGE_ONLY = 'form page only';

const clean = (value: string | null | undefined) => (value ?? '').trim().toLowerCase();

/**
 * Where an enquiry came from, in the owner's words:
 * - its campaign tags, `utm_source / utm_medium` (`google / cpc`,
 *   `facebook / paid_social`); a Google click id without tags is `google / cpc`;
 * - else the referring site: a search engine as `google / organic`, any
 *   other as `referral: HOST` (without `www.`, `m.` or `l.`);
 * - else `direct` when the visit's first page was kept and nothing sent
 *   the visitor there;
 * - `form page only` when only the form's own page is known: sent without
 *   JavaScript, or a visitor who came straight to that page (the two leave
 *   the same record);
 * - `not recorded` when nothing is known (an enquiry from before the site
 *   kept this, or from a program that sent none).
 */
export function sourceName(lead: ReportLead): string {
  const a = lead.attribution;
  const source = clean(a?.utm_source);
  const medium = clean(a?.utm_medium);
  if (source || medium) return [source, medium].filter(Boolean).join(' / ');
  if (clean(a?.gclid)) return 'google / cpc';
  const referrer = clean(a?.referrer);
  if (referrer) {
    const engine = SEARCH_ENGINES.find((search) => search.host.test(referrer));
    return engine
      ? `${engine.name} / organic`
      : `referral: ${referrer.replace(/^(?:www|m|l|lm)\./, '')}`;
  }
  const landing = a?.landing ? landingPath(a.landing) : null;
  if (landing === null) return NOT_RECORDED;
  return landing === FORM_PAGES[lead.source] ? FORM_PAGE_ONLY : 'direct';
}

/** '/services/windows' of '/services/windows/?utm_source=x#top'; '/' for the home page. */
function landingPath(landing: string): string {
  const end = landing.search(/[?#]/);
  const path = end === -1 ? landing : landing.slice(0, end);
  return path.length > 1 ? path.replace(/\/+$/, '') || '/' : '/';
}

/** The first page of the visit, without its query: `home page`, `/services/windows`. */
export function landingName(lead: ReportLead): string {
  const landing = lead.attribution?.landing;
  if (!landing) return NOT_RECORDED;
  const path = landingPath(landing);
  return path === '/' ? 'home page' : path;
}

const nzParts = new Intl.DateTimeFormat('en-NZ', {
  timeZone: 'Pacific/Auckland',
  year: 'numeric',
  month: '2-digit',
});

/** `2026-04`: the month in New Zealand time of an ISO time. */
export function nzMonth(iso: string): string {
  const parts = nzParts.formatToParts(new Date(iso));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}`;
}

const monthLabel = new Intl.DateTimeFormat('en-NZ', {
  timeZone: 'UTC',
  month: 'long',
  year: 'numeric',
});

/** `April 2026` of `2026-04`. */
export function monthWords(month: string): string {
  return monthLabel.format(new Date(`${month}-15T00:00:00.000Z`));
}

/** `33%`: won of enquiries as a whole percentage; `0%` of none. */
export function wonRate(won: number, enquiries: number): string {
  return `${enquiries === 0 ? 0 : Math.round((won / enquiries) * 100)}%`;
}

/** Whether the report counts a lead: every enquiry the inbox lists, never spam. */
export const counted = (lead: ReportLead) => lead.stage !== 'spam' && lead.status !== 'spam';

function rows(counts: Map<string, ReportRow>): ReportRow[] {
  return [...counts.values()].sort(
    (a, b) => b.enquiries - a.enquiries || b.won - a.won || a.name.localeCompare(b.name),
  );
}

function add(counts: Map<string, ReportRow>, name: string, won: boolean): void {
  const row = counts.get(name) ?? { name, enquiries: 0, won: 0 };
  row.enquiries += 1;
  if (won) row.won += 1;
  counts.set(name, row);
}

/**
 * Per month (New Zealand time, by when the enquiry came in), newest first:
 * enquiries and won, by source and by landing page, each list by enquiries,
 * most first. A lead counts as won while its stage is `won`; spam never counts.
 */
export function monthlyReport(leads: readonly ReportLead[]): ReportMonth[] {
  const months = new Map<
    string,
    {
      enquiries: number;
      won: number;
      sources: Map<string, ReportRow>;
      landings: Map<string, ReportRow>;
    }
  >();
  for (const lead of leads) {
    if (!counted(lead)) continue;
    const key = nzMonth(lead.created_at);
    const month = months.get(key) ?? {
      enquiries: 0,
      won: 0,
      sources: new Map(),
      landings: new Map(),
    };
    const won = lead.stage === 'won';
    month.enquiries += 1;
    if (won) month.won += 1;
    add(month.sources, sourceName(lead), won);
    add(month.landings, landingName(lead), won);
    months.set(key, month);
  }
  return [...months.entries()]
    .sort(([a], [b]) => b.localeCompare(a))
    .map(([month, counts]) => ({
      month,
      label: monthWords(month),
      enquiries: counts.enquiries,
      won: counts.won,
      bySource: rows(counts.sources),
      byLanding: rows(counts.landings),
    }));
}

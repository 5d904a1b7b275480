// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ATTRIBUTION_FIELDS,
  ATTRIBUTION_FORBIDDEN,
  ATTRIBUTION_MAX,
  HOST_PATTERN,
} from '../leads/intake/attribution.ts';
import {
  rememberVisit,
  VISIT_FIELDS,
  VISIT_FORBIDDEN,
  VISIT_HOST,
  VISIT_KEY,
  VISIT_MAX,
  visitFields,
} from './visit.ts';

function land(pathAndQuery: string, referrer = '') {
  history.replaceState(null, '', pathAndQuery);
  Object.defineProperty(document, 'referrer', { value: referrer, configurable: true });
}

beforeEach(() => sessionStorage.clear());
afterEach(() => vi.restoreAllMocks());

describe('the visit, kept for the tab (docs/operations.md#where-enquiries-come-from)', () => {
  it('keeps the first page, the referring host and the campaign tags of its address', () => {
    land(
      '/?utm_source=google&utm_medium=cpc&utm_campaign=showers&utm_term=shower+glass&utm_content=ad2&gclid=Cj0KCQ&other=1',
      'https://www.google.com/search?q=glazier',
    );
    rememberVisit();
    land('/quote', `${location.origin}/`);
    expect(visitFields()).toEqual({
      landing:
        '/?utm_source=google&utm_medium=cpc&utm_campaign=showers&utm_term=shower+glass&utm_content=ad2&gclid=Cj0KCQ&other=1',
      referrer: 'www.google.com',
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'showers',
      utm_term: 'shower glass',
      utm_content: 'ad2',
      gclid: 'Cj0KCQ',
    });
    // A few hundred bytes at most.
    expect(sessionStorage.getItem(VISIT_KEY)!.length).toBeLessThan(400);
  });

  it('a second landing in the same tab keeps the first', () => {
    land('/services/windows?utm_source=facebook', 'https://l.facebook.com/');
    rememberVisit();
    land('/?utm_source=google&gclid=second', 'https://www.google.com/');
    rememberVisit();
    expect(visitFields()).toEqual({
      landing: '/services/windows?utm_source=facebook',
      referrer: 'l.facebook.com',
      utm_source: 'facebook',
    });
  });

  it('no referring site when it is this site, or none was sent', () => {
    land('/about', `${location.origin}/services`);
    rememberVisit();
    expect(visitFields()).toEqual({ landing: '/about' });
    sessionStorage.clear();
    land('/about', '');
    rememberVisit();
    expect(visitFields()).toEqual({ landing: '/about' });
  });

  it('cuts each value to 200 characters and leaves out one with a control character', () => {
    land(`/?utm_source=${'s'.repeat(300)}&utm_medium=a%00b&utm_term=%1B%5B31m&gclid=%20%20`);
    rememberVisit();
    const fields = visitFields();
    expect(fields.utm_source).toBe('s'.repeat(200));
    expect(fields.landing).toHaveLength(200);
    expect(fields.landing?.startsWith('/?utm_source=sss')).toBe(true);
    expect(fields).not.toHaveProperty('utm_medium');
    expect(fields).not.toHaveProperty('utm_term');
    expect(fields).not.toHaveProperty('gclid');
  });

  it('storage that throws breaks nothing: a form sends this page instead', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    land('/contact?utm_source=newsletter', 'https://mail.example.com/');
    expect(() => rememberVisit()).not.toThrow();
    expect(visitFields()).toEqual({
      landing: '/contact?utm_source=newsletter',
      referrer: 'mail.example.com',
      utm_source: 'newsletter',
    });
  });

  it('a kept visit that cannot be read is taken as none', () => {
    sessionStorage.setItem(VISIT_KEY, '{not json');
    land('/quote');
    expect(visitFields()).toEqual({ landing: '/quote' });
    sessionStorage.setItem(VISIT_KEY, 'null');
    expect(visitFields()).toEqual({ landing: '/quote' });
  });

  it('names and checks the fields as the lead schema does', () => {
    expect(VISIT_FIELDS).toEqual(ATTRIBUTION_FIELDS);
    expect(VISIT_MAX).toBe(ATTRIBUTION_MAX);
    expect(VISIT_FORBIDDEN.source).toBe(ATTRIBUTION_FORBIDDEN.source);
    expect(VISIT_HOST.source).toBe(HOST_PATTERN.source);
    expect(VISIT_HOST.flags).toBe(HOST_PATTERN.flags);
  });
});

import { describe, expect, it } from 'vitest';
import { JOB_VALUE_MAX_CENTS } from '../db/store.server.ts';
import { jobValueDecimal, jobValueField, jobValueWords, parseJobValue } from './job-value.ts';

describe('the value of a won job as the owner types it', () => {
  it('reads what a tradesperson types, in whole cents', () => {
    const cases: Array<[string, number | null]> = [
      ['', null],
      ['   ', null],
      ['1250', 125000],
      ['1,250', 125000],
      ['$1,250.50', 125050],
      [' $ 1250.5 ', 125050],
      ['NZ$1,250', 125000],
      ['nz$ 980.05', 98005],
      ['1,234,567.89', 123456789],
      ['0', 0],
      ['0.99', 99],
      ['10,000,000', JOB_VALUE_MAX_CENTS],
    ];
    for (const [typed, cents] of cases) {
      expect(parseJobValue(typed), typed).toEqual({ ok: true, cents });
    }
  });

  it('refuses anything else with a message in plain words', () => {
    for (const typed of [
      'abc',
      '-50',
      '1.234',
      '12,50',
      '1,2345',
      '$',
      '1 250',
      '1250 dollars',
      '1e3',
      '１２５０',
      '12.',
      '.5',
      '$$100',
      '1'.repeat(41),
    ]) {
      const result = parseJobValue(typed);
      expect(result, typed).toEqual({ ok: false, message: expect.stringMatching(/1250/) });
    }
    expect(parseJobValue('10,000,000.01')).toEqual({
      ok: false,
      message: 'A job value is at most $10,000,000.',
    });
  });

  it('answers at once on a long line of digits and commas (no slow pattern)', () => {
    const started = performance.now();
    for (const typed of ['1,'.repeat(20) + 'x', '1'.repeat(5000), ','.repeat(5000)]) {
      expect(parseJobValue(typed).ok).toBe(false);
    }
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('shows a value in dollars: in words, in the field, and as the export writes it', () => {
    expect(jobValueWords(125050)).toBe('$1,250.50');
    expect(jobValueWords(125000)).toBe('$1,250');
    expect(jobValueField(125050)).toBe('1250.50');
    expect(jobValueField(125000)).toBe('1250');
    expect(jobValueField(null)).toBe('');
    expect(jobValueDecimal(125000)).toBe('1250.00');
    expect(jobValueDecimal(5)).toBe('0.05');
    expect(jobValueDecimal(null)).toBeNull();
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { business } from './business.ts';
import { articleFacts, facts, unconfirmedFacts, type OwnerFacts } from './facts.ts';
import { ownerFactsSchema } from './site-content-schema.ts';

/**
 * Each business fact (lead times, quote validity, warranties, hours, the
 * 24/7 wording, service areas, the figures of
 * docs/business-rules.md#claims-and-promises) is
 * written once, in facts.ts or business.ts, and read from there. These tests
 * read the sources the way a reviewer would grep them and fail on a fact
 * written out anywhere else.
 */

const root = path.resolve(import.meta.dirname, '../..');

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => pattern.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => path.join(dir, file));
}

/** The text a page can show: string literals, template parts and JSX text, not comments or imports. */
export function visibleText(file: string, source: string): string[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, kind);
  const texts: string[] = [];
  const visit = (node: ts.Node) => {
    const isModulePath =
      ts.isStringLiteral(node) &&
      (ts.isImportDeclaration(node.parent) ||
        ts.isExportDeclaration(node.parent) ||
        ts.isExternalModuleReference(node.parent));
    if (
      (ts.isStringLiteral(node) && !isModulePath) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      texts.push(node.text);
    } else if (ts.isJsxText(node)) {
      texts.push(node.text.replace(/\s+/g, ' '));
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return texts.filter((text) => text.trim() !== '');
}

const areaNames = business.areasServed.map((area) => area.replace(/ /g, '\\s+')).join('|');

/** Any statement of a business fact: nothing a page component writes itself. */
const FACT_SHAPES: ReadonlyArray<readonly [string, RegExp]> = [
  [
    '24/7 wording',
    /24\s*\/\s*7|24 hours a day|7 days a week|around the clock|day (?:or|and) night/i,
  ],
  [
    'a duration',
    /\b\d+(?:\s*(?:-|to)\s*\d+)?[\s-]*(?:working\s+)?(?:hours?|days?|weeks?|months?|years?)\b/i,
  ],
  [
    'a duration in words',
    /\b(?:one|two|three|a few|a couple of|half a)\s+(?:hours?|days?|weeks?|months?|years?)\b|\ba week or two\b|\bsame day\b/i,
  ],
  ['a percentage', /\d\s?%/],
  ['a distance', /\d\s?km\b/i],
  ['a time of day', /\b\d{1,2}(?::\d\d)?\s?(?:am|pm)\b/i],
  ['a warranty or guarantee', /warrant|guarantee/i],
  // Two digits at least: '$1' is a regular expression's group, not a price.
  ['a price', /\$\s?\d[\d,]/],
  ['years of experience or a founding year', /\b\d+\+|\bsince (?:19|20)\d\d\b/i],
  ['a review count or rating', /\b\d+\s+(?:customer\s+)?reviews\b|\b\d(?:\.\d)?\s*\/\s*5\b/i],
  ['a list of the areas served', new RegExp(`(?:${areaNames})\\s*,\\s*(?:${areaNames})`)],
  ['a product figure', /\b\d+\s?mm\b|W\/m²K|\b0\.\d+\b/],
];

function findShapes(text: string): string[] {
  // An address such as a namespace URI (…/sitemap/0.9) states no fact.
  const words = text.replace(/\bhttps?:\/\/\S+/g, ' ');
  return FACT_SHAPES.filter(([, shape]) => shape.test(words)).map(([name]) => name);
}

/** Every leaf string of an object, with its path. */
function leaves(value: unknown, at = ''): Array<[string, string]> {
  if (typeof value === 'string') return [[at, value]];
  if (typeof value === 'number') return [[at, String(value)]];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) =>
    key === 'question' || key === 'confirmed' ? [] : leaves(child, at ? `${at}.${key}` : key),
  );
}

/**
 * The facts as they would be written out by hand: every value with a figure
 * in it (and '1 to 2 hours' for '1-2 hours'), plus the wording of the facts
 * that are words only.
 */
const FACT_LITERALS: ReadonlyArray<readonly [string, RegExp]> = [
  ...leaves(facts)
    .filter(([, value]) => /\d/.test(value) && !/^\d+$/.test(value))
    .map(([at, value]) => [at, literal(value)] as const),
  ['emergency.responseTime', literal(business.emergency.responseTime)],
  ['serviceRadiusKm', new RegExp(`\\b${business.serviceRadiusKm}\\s?km\\b`)],
  ['reviews.count', new RegExp(`\\b${business.reviews.count}\\s+(?:customer\\s+)?reviews\\b`)],
  ['foundedYear', new RegExp(`\\bsince ${business.foundedYear}\\b`)],
  ['experience', /\bmore than \d+ years\b|\b\d+\+ years\b/i],
  ['emergency.hours', FACT_SHAPES[0]![1]],
  ['showers.hardwareWarranty', /lifetime (?:hardware )?warranty/i],
  ['workmanshipPromise.term', /\bone year\b/i],
  [
    'leadTimes',
    /one to two weeks|a week or two|couple of weeks|few (?:working )?days|cut and fitted the same day/i,
  ],
  ['quoteValidity', /quote is valid for \d/i],
];

function literal(value: string): RegExp {
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/-/g, '\\s*(?:-|to)\\s*');
  return new RegExp(`(?<![\\w.])${escaped}(?![\\w])`, 'i');
}

function findLiterals(text: string): string[] {
  return FACT_LITERALS.filter(([, shape]) => shape.test(text)).map(([name]) => name);
}

describe('each business fact is written once', () => {
  it('no page component, page or layout writes a fact itself', () => {
    const found: string[] = [];
    for (const file of [
      ...filesUnder('app/components', /\.tsx?$/),
      ...filesUnder('app/pages', /\.(?:tsx?|astro)$/),
      ...filesUnder('app/layouts', /\.astro$/),
    ]) {
      for (const text of visibleText(file, readFileSync(path.join(root, file), 'utf8'))) {
        for (const shape of findShapes(text)) found.push(`${file}: ${shape}: "${text.trim()}"`);
      }
    }
    expect(found).toEqual([]);
  });

  it('no other content module or article writes out a fact that facts.ts or business.ts holds', () => {
    const found: string[] = [];
    // Offers and testimonials are their own facts (an offer's discount, a customer's words).
    const sources = new Set(['facts.ts', 'business.ts', 'offers.ts', 'testimonials.ts']);
    for (const file of filesUnder('app/content', /^[^/]+\.ts$/)) {
      if (sources.has(path.basename(file))) continue;
      for (const text of visibleText(file, readFileSync(path.join(root, file), 'utf8'))) {
        for (const fact of findLiterals(text)) found.push(`${file}: ${fact}: "${text.trim()}"`);
      }
    }
    for (const file of filesUnder('app/content/blog', /\.md$/)) {
      const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
      for (const [index, line] of lines.entries()) {
        for (const fact of findLiterals(line)) found.push(`${file}:${index + 1}: ${fact}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('the checks recognise a fact written out (so the tests above can fail)', () => {
    const component = `export const X = () => <p>We reply within 24 hours, 24/7, since 2008. {'Up to 30%'}</p>;`;
    expect(visibleText('x.tsx', component).flatMap(findShapes)).toEqual(
      expect.arrayContaining([
        '24/7 wording',
        'a duration',
        'years of experience or a founding year',
        'a percentage',
      ]),
    );
    expect(findShapes('Glass fitted in Tauranga, Mount Maunganui and Papamoa')).toEqual([
      'a list of the areas served',
    ]);
    expect(findShapes('Mon-Fri 7AM-6PM')).toEqual(['a time of day']);
    expect(findShapes('A lifetime warranty on hardware')).toEqual(['a warranty or guarantee']);
    expect(findLiterals('our team typically reaches you within 1 to 2 hours')).toEqual([
      'emergency.responseTime',
    ]);
    expect(findLiterals('lets through about 81% of visible light')).toEqual([
      'planitherm.lightTransmission',
    ]);
    expect(findLiterals('Replacing one pane costs $150 to $400.')).toEqual([
      'windowPrices.singlePane',
    ]);
    expect(findLiterals('A quote is valid for 30 days from its date')).toEqual(
      expect.arrayContaining(['quoteValidity']),
    );
    // Comments and module paths are not page text.
    expect(visibleText('x.ts', `// 24/7\nimport x from './24-7.ts';\n/* 30% */`)).toEqual([]);
  });
});

describe('facts the owner has not stated', () => {
  it('are flagged until confirmed, each with the question to answer', () => {
    expect(unconfirmedFacts().map((fact) => fact.key)).toEqual([
      'leadTimes',
      'installTimes',
      'quoteValidity',
      'paymentTerms',
      'serverLogRetention',
      'leadBackupRetention',
    ]);
    for (const fact of unconfirmedFacts()) expect(fact.question).toMatch(/\?|\.$/);
    expect(unconfirmedFacts({ a: { confirmed: true, question: 'A?' }, b: { value: 1 } })).toEqual(
      [],
    );
  });

  it('articles can state the facts by name', () => {
    for (const value of Object.values(articleFacts)) expect(value).not.toBe('');
  });
});

describe('the facts an owner edits', () => {
  it('are read by the content schema as facts.ts declares them', () => {
    // The compiler (tsc, over the tests too) refuses this line when they differ.
    const schema: z.ZodType<OwnerFacts> = ownerFactsSchema;
    expect(schema).toBe(ownerFactsSchema);
  });
});

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { launchProblems } from '../content/launch-problems.ts';
import { defaultSiteContent } from '../content/site-content.ts';
import { SITE_CONTENT_SECTIONS } from '../content/site-content-schema.ts';
import type { AppStore } from '../db/store.server.ts';
import { siteOverview } from './site-overview.server.ts';
import { checklistLine } from './site-checklist.server.ts';
import { draftChanges, problemHref } from './site-sections.server.ts';
import { onEachStore } from './testing/site-test-support.server.ts';

let store: AppStore;

onEachStore(
  "/admin/site's sections",
  (opened) => (store = opened),
  () => {
    describe('the launch checklist on the draft', () => {
      it('links each problem to the field to fix', async () => {
        const problems = launchProblems(defaultSiteContent, new Date('2026-01-10T00:00:00Z'));
        const hrefs = problems.map(problemHref);
        expect(hrefs).toContain('/admin/site/identity#f-phone-display');
        expect(hrefs).toContain('/admin/site/identity#f-social-facebook');
        expect(hrefs).toContain('/admin/site/hours#f-facts-leadTimes-confirmed');
        const sample = defaultSiteContent.offers[0]!.id;
        expect(hrefs).toContain(`/admin/site/offers/${sample}`);
        expect(hrefs).toContain(`/admin/site/offers/${sample}#f-validUntil`);
        expect(hrefs).toContain(
          `/admin/site/testimonials/${defaultSiteContent.testimonials[0]!.id}`,
        );
        const view = await siteOverview(store, undefined);
        expect(view.problems.length).toBeGreaterThan(0);
        expect(view.problems.every((problem) => problem.href.startsWith('/admin/site/'))).toBe(
          true,
        );
      });
    });
  },
);

describe('the launch checklist in the owner’s words', () => {
  it('names no field of the content, and says what to do', () => {
    const content = {
      ...defaultSiteContent,
      offers: [{ ...defaultSiteContent.offers[0]!, validUntil: '2026-01-02' }],
    };
    const problems = launchProblems(content, new Date('2026-01-10T00:00:00Z'));
    const lines = problems.map((problem) => checklistLine(problem, content));
    expect(lines.length).toBe(problems.length);
    for (const line of lines) {
      // No camelCase field name (validUntil, mapEmbedUrl), no "confirmed: true", no (field).
      expect(line).not.toMatch(/\b[a-z]+[A-Z][A-Za-z]*\b|: true|\([a-z.]+\)|npm|sample/);
      expect(line).toMatch(/[.?]$/);
    }
    expect(lines).toContain('Phone number: still the example. Put your own in.');
    expect(lines).toContain(
      'The map still shows the example place: paste your Google Maps link or type your address.',
    );
    expect(lines).toContain(
      `The offer “${content.offers[0]!.title}” ended on 2 January 2026: give it a new end date or remove it.`,
    );
    expect(lines.some((line) => line.startsWith('Check and confirm: '))).toBe(true);
  });
});

describe('what publishing changes, in words', () => {
  it('names every section and service page it touches by name, never by its path', () => {
    const live = defaultSiteContent;
    const draft = structuredClone(defaultSiteContent) as typeof defaultSiteContent;
    for (const section of SITE_CONTENT_SECTIONS) {
      if (section === 'jobPhotos') continue;
      const content = (draft as Record<string, unknown>)[section];
      (draft as Record<string, unknown>)[section] = Array.isArray(content)
        ? content.slice(1)
        : { changed: section };
    }
    draft.jobPhotos = [
      ...draft.jobPhotos,
      { photoId: randomUUID(), service: 'windows', alt: 'A new lounge window' },
    ];
    const { pages } = draftChanges(live, draft);
    expect(pages).toHaveLength(SITE_CONTENT_SECTIONS.length);
    expect(pages.filter((line) => /(^|[\s(])\//.test(line))).toEqual([]);
    expect(pages.join('\n')).toContain(
      'Job photos: the Windows & Double Glazing page (Recent work)',
    );
  });
});

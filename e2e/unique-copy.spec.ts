import { expect, test, type Page } from '@playwright/test';
import { allPagePaths } from './support/pages.ts';

/**
 * Each page says its own thing. No sentence of
 * MIN_WORDS words or more appears word for word on two different pages of the
 * rendered site. Shared by design, and so left out:
 */
const SHARED_PARTS = [
  // the site's furniture: header, menus, breadcrumbs, pagers, footer;
  'header',
  'nav',
  'footer',
  // the lead forms (their labels, hints and privacy note are the same everywhere);
  'form',
  // cards and slides that sum up another page, with its title and excerpt;
  '.card',
  // calls to action: the banners, the service pages' quote box, the articles' help box;
  '.cta-banner',
  '.service-aside',
  '.help-now',
  // the map and its consent note.
  '.map-embed',
].join(', ');

const MIN_WORDS = 6;

/** /blog/category/x is the blog list filtered: the same page as /blog. */
function pageOf(path: string): string {
  return path.startsWith('/blog/category/') ? '/blog' : path;
}

/**
 * The sentences of a page's own copy, read by the browser's own HTML parser
 * (DOMParser: no scripts run, nothing loads) and sentence segmenter.
 */
function sentencesOf(page: Page, html: string): Promise<string[]> {
  return page.evaluate(
    ({ html, shared, minWords }) => {
      const main = new DOMParser().parseFromString(html, 'text/html').querySelector('main');
      if (!main) return [];
      for (const part of main.querySelectorAll(shared)) part.remove();
      const segmenter = new Intl.Segmenter('en-NZ', { granularity: 'sentence' });
      const sentences: string[] = [];
      const blocks = main.querySelectorAll('p, li, h1, h2, h3, h4, dt, dd, td, th, blockquote');
      for (const block of blocks) {
        if (block.querySelector('p, li, h1, h2, h3, h4, dt, dd, td, th')) continue;
        const text = (block.textContent ?? '').replace(/\s+/g, ' ').trim();
        // A link on its own (a list of pages, such as the sitemap) names another page.
        const links = block.querySelectorAll('a');
        if (links.length === 1 && links[0]!.textContent?.replace(/\s+/g, ' ').trim() === text) {
          continue;
        }
        for (const { segment } of segmenter.segment(text)) {
          const sentence = segment.trim();
          if (sentence.split(' ').length >= minWords) sentences.push(sentence);
        }
      }
      return sentences;
    },
    { html, shared: SHARED_PARTS, minWords: MIN_WORDS },
  );
}

test('no sentence appears word for word on two different pages', async ({ page, request }) => {
  // Fetched as prerendered HTML (about 40 pages) and parsed without running them.
  test.slow();
  const pages = new Map<string, Set<string>>();
  for (const path of await allPagePaths(request)) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    for (const sentence of await sentencesOf(page, await response.text())) {
      const seenOn = pages.get(sentence) ?? new Set<string>();
      seenOn.add(pageOf(path));
      pages.set(sentence, seenOn);
    }
  }
  expect(pages.size).toBeGreaterThan(500);
  const repeated = [...pages]
    .filter(([, seenOn]) => seenOn.size > 1)
    .map(([sentence, seenOn]) => `${[...seenOn].join(' ')}: ${sentence}`);
  expect(repeated).toEqual([]);
});

test('the check reads a page’s own sentences and leaves the shared parts alone', async ({
  page,
}) => {
  const html = (own: string) =>
    `<body><header><p>Glass repairs across the western Bay of Plenty.</p></header><main>
      <p>${own} Short line.</p>
      <div class="cta-banner"><p>Tell us about the job and we will quote for free.</p></div>
      <ul><li><a href="/x">A link on its own names another page here</a></li></ul>
    </main></body>`;
  expect(
    await sentencesOf(page, html('We replace fogged double glazing in a single visit.')),
  ).toEqual(['We replace fogged double glazing in a single visit.']);
});

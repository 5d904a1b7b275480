import type { Element, ElementContent, Root, RootContent } from 'hast';
import rehypeSlug from 'rehype-slug';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { fillArticleFacts } from './article-facts.ts';
import { ArticleError, parseArticleSource, type Frontmatter } from './frontmatter.ts';
import { countWords, readingMinutes } from './reading-time.ts';

/**
 * Build-time compilation of one article: validated frontmatter, the body as
 * safe HTML, the word count and reading time, and where the 'Need help now?'
 * box goes. Runs in Node only (the blog collection's loader, ./collection.ts,
 * and the unit tests); no Markdown parser ever reaches the browser.
 */

export interface CompiledArticle {
  frontmatter: Frontmatter;
  cover: { src: string; alt: string; width: number; height: number };
  /** The body as HTML. Raw HTML in the Markdown is dropped, links are checked. */
  html: string;
  /** Top-level paragraphs of the body. */
  paragraphs: number;
  /** docs/blog.md#need-help-now-box: the help box follows this many top-level paragraphs… */
  helpBoxAfterParagraphs: number;
  /** …which is this character offset in `html`, always between two top-level blocks. */
  helpBoxOffset: number;
  wordCount: number;
  readTimeMinutes: number;
}

export interface CompileOptions {
  /** The public origin (SITE_URL): links to it are made relative. */
  siteUrl: string;
  /** The SVG source of a public file such as /images/blog/x.svg, or null if it does not exist. */
  readPublicFile: (publicPath: string) => string | null;
  /** The values of the `{{name}}` tokens; app/content/facts.ts `articleFacts` unless given. */
  facts?: Readonly<Record<string, string>>;
}

/** docs/blog.md#need-help-now-box: the box goes after min(3, floor(paragraphs / 3)) paragraphs. */
export function helpBoxPosition(paragraphs: number): number {
  return Math.min(3, Math.floor(paragraphs / 3));
}

const HELP_BOX_MARKER = 'help-box';

const markdownToHast = unified().use(remarkParse).use(remarkGfm).use(remarkRehype).use(rehypeSlug);
const hastToHtml = unified().use(rehypeStringify);

export function compileArticle(
  file: string,
  markdown: string,
  options: CompileOptions,
): CompiledArticle {
  const source = fillArticleFacts(file, markdown, options.facts);
  const { frontmatter, body } = parseArticleSource(file, source);
  const cover = readCover(file, frontmatter, options);
  const tree = markdownToHast.runSync(markdownToHast.parse(body));
  checkHeadings(file, tree);
  makeLinksSafe(file, tree, options.siteUrl);
  wrapTables(tree);

  const paragraphs = tree.children.filter(isParagraph).length;
  const helpBoxAfterParagraphs = helpBoxPosition(paragraphs);
  insertMarker(tree, helpBoxAfterParagraphs);
  const marked = hastToHtml.stringify(tree);
  const marker = `<!--${HELP_BOX_MARKER}-->`;
  const helpBoxOffset = marked.indexOf(marker);
  const html = marked.slice(0, helpBoxOffset) + marked.slice(helpBoxOffset + marker.length);

  // Same rule as scripts/blog-wordcount.ts: counted on the file with its facts filled in, frontmatter stripped.
  const wordCount = countWords(source);
  return {
    frontmatter,
    cover,
    html,
    paragraphs,
    helpBoxAfterParagraphs,
    helpBoxOffset,
    wordCount,
    readTimeMinutes: readingMinutes(wordCount),
  };
}

function isParagraph(node: RootContent): node is Element {
  return node.type === 'element' && node.tagName === 'p';
}

/** Puts a comment after the nth top-level paragraph (at the very start for n = 0). */
function insertMarker(tree: Root, afterParagraphs: number): void {
  let index = 0;
  if (afterParagraphs > 0) {
    let seen = 0;
    index = tree.children.findIndex((node) => isParagraph(node) && ++seen === afterParagraphs) + 1;
  }
  tree.children.splice(index, 0, { type: 'comment', value: HELP_BOX_MARKER });
}

/** The cover must exist; its intrinsic size is read so the page reserves its space. */
function readCover(file: string, frontmatter: Frontmatter, options: CompileOptions) {
  const svg = options.readPublicFile(frontmatter.coverImage);
  if (svg === null) {
    throw new ArticleError(
      `${file}: coverImage: ${frontmatter.coverImage} does not exist in public/`,
    );
  }
  const rootTag = /<svg\b[^>]*>/.exec(svg)?.[0] ?? '';
  const attribute = (name: string) =>
    new RegExp(`\\s${name}="([^"]+)"`).exec(rootTag)?.[1] ?? undefined;
  const viewBox = attribute('viewBox')
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  const width = Number(attribute('width') ?? viewBox?.[2]);
  const height = Number(attribute('height') ?? viewBox?.[3]);
  if (!(width > 0) || !(height > 0)) {
    throw new ArticleError(
      `${file}: coverImage: ${frontmatter.coverImage} has no width and height (or viewBox)`,
    );
  }
  return { src: frontmatter.coverImage, alt: frontmatter.coverAlt, width, height };
}

function* elements(node: Root | Element): Generator<Element> {
  for (const child of node.children) {
    if (child.type === 'element') {
      yield child;
      yield* elements(child);
    }
  }
}

/** The page's title is its one h1: sections in the body start at ##. */
function checkHeadings(file: string, tree: Root): void {
  for (const element of elements(tree)) {
    if (element.tagName === 'h1') {
      throw new ArticleError(
        `${file}: body: use ## for section headings; the title is the page's only level-1 heading`,
      );
    }
  }
}

/**
 * Internal links stay relative (so they work on any SITE_URL and navigate in
 * the app); external links get rel="noopener noreferrer"; anything else
 * (javascript:, a path without its leading slash) fails the build.
 */
function makeLinksSafe(file: string, tree: Root, siteUrl: string): void {
  const site = new URL(siteUrl);
  for (const element of elements(tree)) {
    if (element.tagName !== 'a') continue;
    const href = String(element.properties.href ?? '');
    if (href.startsWith('#') || /^\/(?!\/)/.test(href)) continue;
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      throw new ArticleError(
        `${file}: body: link "${href}" must be a site path starting with / or a full https:// address`,
      );
    }
    if (url.protocol === 'mailto:' || url.protocol === 'tel:') continue;
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new ArticleError(`${file}: body: link "${href}" uses a scheme that is not allowed`);
    }
    if (url.host === site.host) {
      element.properties.href = `${url.pathname}${url.search}${url.hash}`;
    } else {
      element.properties.rel = ['external', 'noopener', 'noreferrer'];
    }
  }
}

function textOf(node: Element | ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

/**
 * A wide table scrolls inside its own box on a phone instead of widening the
 * page; the box is focusable (keyboard scrolling) and named after the section
 * heading above it.
 */
function wrapTables(tree: Root): void {
  let heading = '';
  tree.children = tree.children.map((node) => {
    if (node.type !== 'element') return node;
    if (/^h[2-6]$/.test(node.tagName)) heading = textOf(node).trim();
    if (node.tagName !== 'table') return node;
    return {
      type: 'element',
      tagName: 'div',
      properties: {
        className: ['table-scroll'],
        role: 'region',
        tabIndex: 0,
        ariaLabel: heading ? `Table: ${heading}` : 'Table',
      },
      children: [node],
    } satisfies Element;
  });
}

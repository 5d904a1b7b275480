import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { NextFunction, Request, Response } from 'express';
import { contentSecurityPolicy, type CspOptions, type InlineCodeRecord } from './csp.server.ts';
import type { Env } from './env.server.ts';
import { ON_DEMAND_ROUTES } from './on-demand-routes.server.ts';
import { StaticFiles } from './static.server.ts';

/*
 * One release's files as the server serves them: its prerendered pages with
 * their CSPs, its static files and its Astro handler. The app (app.server.ts)
 * serves one; the served site (site-release.server.ts) loads the next. Both
 * import this module, and it imports neither.
 */

/**
 * One release as the server serves it: its files, its prerendered pages
 * with their CSPs, and its Astro handler. Everything a request needs of the
 * build comes from the one release it started on.
 */
export interface SiteRelease {
  render: AstroHandler;
  files: StaticFiles;
  pages: ReadonlyMap<string, PrerenderedPage>;
  /** The CSP of a page rendered on request: the hashes of every prerendered page. */
  renderedPageCsp: string;
  /** The same for a form's page answering a post: its form starts a worker (the proof of work). */
  formPageCsp: string;
  /** The same for the owner's pages (/admin), which also register their service worker. */
  ownerPageCsp: string;
  /**
   * The files of the release whose code renders the pages on request, when
   * that is another release (site-release.server.ts): the hashed scripts and
   * styles those pages name are sent from there when this release has no
   * file of that name.
   */
  codeFiles?: StaticFiles;
}

/**
 * @astrojs/node's handler in middleware mode: locals become Astro.locals.
 * Without `next`, a request no page matches gets Astro's 404 page.
 */
export type AstroHandler = (
  req: Request,
  res: Response,
  next: NextFunction | undefined,
  locals?: App.Locals,
) => unknown;

export interface PrerenderedPage {
  /** Relative to the client build directory. */
  file: string;
  csp: string;
  /** Its inline scripts' and styles' hashes. */
  hashes: readonly string[];
  styleHashes: readonly string[];
}

/**
 * The pages with a lead form: those a form posts to without JavaScript.
 * Their form's script solves a proof of work in a Web Worker
 * (docs/forms.md#proof-of-work).
 */
const LEAD_FORM_PAGES: ReadonlySet<string> = new Set(
  ON_DEMAND_ROUTES.filter((route) => route.method === 'POST').map((route) => route.path),
);

/**
 * Finds every prerendered page and the CSP its inline scripts need: those
 * the build recorded for it (csp.server.ts, INLINE_CODE_FILE), none when
 * it recorded nothing (the page then works as it does without JavaScript).
 * A page with a lead form may start the site's own workers.
 */
export async function loadPrerenderedPages(
  files: StaticFiles,
  cspOptions: CspOptions,
  inlineCode: InlineCodeRecord = { pages: {} },
): Promise<Map<string, PrerenderedPage>> {
  const pages = new Map<string, PrerenderedPage>();
  const entries = await readdir(files.root, { recursive: true, encoding: 'utf8' });
  for (const entry of entries) {
    const relative = entry.split(path.sep).join('/');
    if (relative !== 'index.html' && !relative.endsWith('/index.html')) continue;
    const urlPath = `/${relative.replace(/\/?index\.html$/, '')}`;
    const recorded = Object.hasOwn(inlineCode.pages, relative)
      ? inlineCode.pages[relative]
      : undefined;
    const hashes = recorded?.scripts ?? [];
    const styleHashes = recorded?.styles ?? [];
    pages.set(urlPath, {
      file: relative,
      csp: contentSecurityPolicy(
        { hashes, styleHashes },
        { ...cspOptions, formWorker: LEAD_FORM_PAGES.has(urlPath) },
      ),
      hashes,
      styleHashes,
    });
  }
  return pages;
}

/** The CSP settings of a release: the map it frames is its content's. */
export function cspOptionsOf(env: Env, mapEmbedUrl: string | undefined): CspOptions {
  return {
    gtagId: env.GTAG_ID,
    adsConversionSendTo: env.ADS_CONVERSION_SEND_TO,
    mapEmbedUrl,
    https: env.SITE_URL.startsWith('https:'),
  };
}

/** Scans a release's client folder and computes its pages' CSPs. */
export async function loadSiteRelease(
  clientDir: string,
  render: AstroHandler,
  cspOptions: CspOptions,
  inlineCode?: InlineCodeRecord,
  code?: { files: StaticFiles; pages: ReadonlyMap<string, PrerenderedPage> },
): Promise<SiteRelease> {
  const files = await StaticFiles.scan(clientDir);
  const pages = await loadPrerenderedPages(files, cspOptions, inlineCode);
  // A page rendered on request has the same inline scripts and styles as the
  // prerendered ones (Astro's island loader): the hashes of all of them, and
  // nothing else; those of the release whose code renders it too. A form's
  // page answering a post has a form, which starts a worker.
  const all = [...pages.values(), ...(code?.pages.values() ?? [])];
  const inline = {
    hashes: [...new Set(all.flatMap((page) => page.hashes))],
    styleHashes: [...new Set(all.flatMap((page) => page.styleHashes))],
  };
  const renderedPageCsp = contentSecurityPolicy(inline, cspOptions);
  const formPageCsp = contentSecurityPolicy(inline, { ...cspOptions, formWorker: true });
  const ownerPageCsp = contentSecurityPolicy(inline, { ...cspOptions, serviceWorker: true });
  return {
    render,
    files,
    pages,
    renderedPageCsp,
    formPageCsp,
    ownerPageCsp,
    ...(code ? { codeFiles: code.files } : {}),
  };
}

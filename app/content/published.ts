/**
 * The site content the pages state (docs/operations.md#site-content), read
 * as data when a page renders, never compiled into the code.
 *
 * Whoever serves or builds pages puts the content in one place for the
 * whole process (`usePublishedContent`): the build (astro.config.ts) from
 * the file scripts/build.ts wrote, the server (server/site-release.server.ts)
 * from the release it serves, switching it at each publication without
 * loading new code. Every module of app/content/ that derives text from it
 * (the business's identity, the facts, the offers and reviews, the sentences
 * made of them) derives it again when it changes (`derived`); the pages'
 * middleware (app/middleware.ts) checks for a change before each page
 * renders (`refreshPublishedContent`).
 *
 * Where nobody put content (Vitest, the CLIs, the browser), every section is
 * null and the modules give their shipped defaults. Islands take what they
 * state of the content as props, so their code is the same for every
 * publication.
 */
import type { SiteContent } from './site-content-schema.ts';

/** The content put in place, and its version (0 for the shipped defaults). */
export interface PublishedContent {
  version: number;
  content: SiteContent;
}

/** One place per process, shared by the server bundle and the server's own modules. */
const SLOT = Symbol.for('harbourside-glass.published-content');

type Slot = { [SLOT]?: PublishedContent | null };

/** Puts `published` in place for every page rendered from now on; null: the shipped defaults. */
export function usePublishedContent(published: PublishedContent | null): void {
  (globalThis as Slot)[SLOT] = published;
}

let applied: PublishedContent | null = null;
const derivations: Array<() => void> = [];

/**
 * The published content, as this module instance last applied it. Modules
 * read it inside a `derived` function, never once at load.
 */
export function published(): PublishedContent | null {
  return applied;
}

/**
 * Runs `derive` now and again whenever the published content changes, in
 * the order the modules registered (a module's imports register first, so
 * what it derives from is already current).
 */
export function derived(derive: () => void): void {
  derivations.push(derive);
  derive();
}

/**
 * Applies the content put in place, if it changed since the last call.
 * Cheap when nothing changed: one comparison.
 */
export function refreshPublishedContent(): void {
  const current = (globalThis as Slot)[SLOT] ?? null;
  if (current === applied) return;
  applied = current;
  for (const derive of derivations) derive();
}

// Whatever was in place when this module loaded (the build sets it first).
refreshPublishedContent();

import { createRequire } from 'node:module';
import type axeCore from 'axe-core';
import type { AxeResults, RunOptions } from 'axe-core';
import type { Frame, Page } from '@playwright/test';

type Axe = typeof axeCore;

/** The axe-core that @axe-core/playwright runs: its own dependency, so the same version and rules. */
const axeSource = (
  createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'))('axe-core') as Axe
).source;

const OPTIONS: RunOptions = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
  resultTypes: ['violations'],
};

/** Puts axe in a frame's document unless it is there already, set up as AxeBuilder sets it up. */
async function injectOnce(frame: Frame): Promise<void> {
  const present = await frame.evaluate(
    () => typeof (window as unknown as { axe?: Partial<Axe> }).axe?.run === 'function',
  );
  if (present) return;
  await frame.evaluate(axeSource);
  await frame.evaluate(() =>
    (window as unknown as { axe: Axe }).axe.configure({
      allowedOrigins: ['<same_origin>'],
      branding: { application: 'playwright' },
    }),
  );
}

/**
 * An axe run over the page as it is now. Only violations are reported: axe
 * then skips detailing every passing node (these tests took a tenth less
 * time here), and a violation is reported exactly as before.
 *
 * This is what AxeBuilder's legacy mode does (`withTags`, `options`,
 * `setLegacyMode(true)`, `analyze()`), with one difference: axe-core goes
 * into a document once, not twice per run. Its 650 kB source took 0.3 to
 * 0.6 s to send and compile each time on this machine, so two runs over one
 * page (two widths) sent it four times. A new document (a navigation) gets
 * it again; the rules and results are the same.
 *
 * Legacy mode runs axe in the page itself. The default opens a blank page
 * per run to merge the results of cross-origin frames, which these pages do
 * not have (the map's frame loads only on a click, and no test here clicks
 * it): measured on four pages, one run took 1.2-1.9 s that way and 0.4-0.8 s
 * in the page, with the same rules and results. Like AxeBuilder, a child
 * frame that cannot take axe within a second is left out.
 */
export async function axe(page: Page): Promise<AxeResults> {
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) {
      await injectOnce(frame);
      continue;
    }
    let timer: NodeJS.Timeout | undefined;
    const ceiling = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('axe injection timed out')), 1000);
    });
    const injected = injectOnce(frame);
    injected.catch(() => {});
    try {
      await Promise.race([injected, ceiling]);
    } catch {
      // As AxeBuilder's legacy mode: the run goes on without that frame.
    } finally {
      clearTimeout(timer);
    }
  }
  return page.evaluate(
    (options) => (window as unknown as { axe: Axe }).axe.run(document, options),
    OPTIONS,
  );
}

import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * An axe run over the page as it is now. Only violations are reported: axe
 * then skips detailing every passing node (these tests took a tenth less
 * time here), and a violation is reported exactly as before.
 *
 * Legacy mode runs axe in the page itself. The default opens a blank page
 * per run to merge the results of cross-origin frames, which these pages do
 * not have (the map's frame loads only on a click, and no test here clicks
 * it): measured on four pages, one run took 1.2-1.9 s that way and 0.4-0.8 s
 * in the page, with the same rules and results.
 */
export function axe(page: Page) {
  return new AxeBuilder({ page })
    .withTags(WCAG_TAGS)
    .options({ resultTypes: ['violations'] })
    .setLegacyMode(true)
    .analyze();
}

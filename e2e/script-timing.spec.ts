import { expect, test } from '@playwright/test';

// The first paint gets the bandwidth: a page fetches no script before its
// load event and its first contentful paint (scripts/defer-scripts.ts;
// islands hydrate after both, app/directives/after-load.ts).
for (const pagePath of ['/', '/services/windows', '/blog/double-pane-window-repair', '/quote']) {
  test(`${pagePath} fetches no script before its load event and first paint`, async ({ page }) => {
    await page.goto(pagePath);
    await expect(page.locator('html[data-ready]')).toBeAttached();
    const timing = await page.evaluate(() => {
      const [navigation] = performance.getEntriesByType(
        'navigation',
      ) as PerformanceNavigationTiming[];
      const [paint] = performance.getEntriesByName('first-contentful-paint');
      const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
        .map((entry) => ({ url: entry.name, startTime: entry.startTime }));
      return {
        loadEventStart: navigation!.loadEventStart,
        firstContentfulPaint: paint?.startTime,
        scripts,
      };
    });
    expect(timing.firstContentfulPaint).toBeDefined();
    expect(timing.scripts.length).toBeGreaterThan(0);
    for (const script of timing.scripts) {
      expect(script.startTime, script.url).toBeGreaterThanOrEqual(timing.loadEventStart);
      expect(script.startTime, script.url).toBeGreaterThan(timing.firstContentfulPaint!);
    }
  });
}

import type { Page } from '@playwright/test';

/**
 * Resolves once the page has run the tasks already queued in it: React's
 * scheduler posts its renders as MessageChannel messages, which run in the
 * order they were posted, so two rounds of a message posted now come after a
 * render an event just scheduled (and after the render's own follow-up). It
 * also runs under Playwright's paused clock, which holds timers and frames.
 * For checks that something did NOT happen: they wait for the page to have
 * had its turn, not for some number of milliseconds to pass.
 */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let round = 0; round < 2; round += 1) {
      await new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          channel.port1.close();
          resolve();
        };
        channel.port2.postMessage(null);
      });
    }
  });
}

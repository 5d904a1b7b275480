import { randomUUID } from 'node:crypto';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { openStore } from '../app/db/open-store.server.ts';
import type { AppStore, LeadRecord } from '../app/db/store.server.ts';
import { axe } from './support/axe.ts';
import { freePort } from './support/free-port.ts';
import {
  attachServerLogsOnFailure,
  startSiteServer,
  tempDataDir,
  type SiteServer,
} from './support/lead-server.ts';
import { signInAsOwner } from './support/owner-session.ts';
import { NO_ATTRIBUTION } from '../app/leads/intake/attribution.ts';

/**
 * "Follow up" at the top of the inbox (docs/operations.md#follow-ups), as
 * an owner sees it on a phone, with JavaScript and without: enquiries still
 * new a day on and quotes older than FOLLOW_UP_QUOTED_DAYS (2 here), each
 * saying why and opening its enquiry; nothing at all while nothing waits.
 * The enquiries are written to the server's store with the times they
 * would have had.
 */

test.describe.configure({ mode: 'default', timeout: 240_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

const PHONE_WIDTH = { width: 390, height: 844 };
const DESK_WIDTH = { width: 1280, height: 800 };
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let server: SiteServer;
let site: string;
let data: ReturnType<typeof tempDataDir>;

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

function lead(overrides: Partial<LeadRecord>): LeadRecord {
  return {
    id: randomUUID(),
    name: 'Someone',
    email: 'someone@example.nz',
    phone: '021 555 0100',
    service: 'Windows',
    message: `A cracked pane, ${randomUUID()}`,
    created_at: ago(HOUR),
    source: 'contact_form',
    status: 'accepted',
    idempotency_key: null,
    urgent: false,
    attribution: NO_ATTRIBUTION,
    ...overrides,
  };
}

async function withStore<T>(work: (store: AppStore) => Promise<T>): Promise<T> {
  const store = await openStore({ dataDir: data.dir });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

async function ownerPage(browser: Browser, js: boolean): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: js, viewport: PHONE_WIDTH });
  await signInAsOwner(context, server, `owner-${js ? 'js' : 'plain'}@example.nz`);
  return context.newPage();
}

test.beforeAll(async () => {
  data = tempDataDir();
  const port = await freePort();
  site = `http://localhost:${port}`;
  server = await startSiteServer({
    PORT: String(port),
    SITE_URL: site,
    DATA_DIR: data.dir,
    LEAD_ACCEPT: 'stored',
    FOLLOW_UP_QUOTED_DAYS: '2',
  });
});

test.afterAll(async () => {
  await server?.stop();
  data?.remove();
});

const ids = {
  callback: '',
  urgent: '',
  quoted: '',
};

test('no section at all while nothing waits', async ({ browser }) => {
  await withStore(async (store) => {
    await store.insertLead(lead({ name: 'Fresh Today', created_at: ago(2 * HOUR) }), []);
    const quoted = lead({ name: 'Quoted Yesterday', created_at: ago(5 * DAY) });
    await store.insertLead(quoted, []);
    await store.saveLeadTracking(quoted.id, 0, { stage: 'quoted' }, ago(DAY));
  });
  const page = await ownerPage(browser, true);
  await page.goto(`${site}/admin`);
  await expect(page.getByRole('heading', { name: 'Enquiries', level: 1 })).toBeVisible();
  await expect(page.getByText('Fresh Today')).toBeVisible();
  await expect(page.getByTestId('follow-ups')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Follow up' })).toHaveCount(0);
  await page.context().close();
});

test.describe('with enquiries waiting', () => {
  test.beforeAll(async () => {
    await withStore(async (store) => {
      const callback = lead({
        name: 'Aroha Ngata',
        source: 'hero_form',
        service: 'Home Glass',
        message: 'Service type: Home Glass\nPostal code: 3110',
        created_at: ago(2 * DAY + HOUR),
      });
      const urgent = lead({ name: 'Tama Rewi', urgent: true, created_at: ago(30 * HOUR) });
      const quoted = lead({
        name: 'Mere Kahu',
        service: 'Shower screens',
        created_at: ago(8 * DAY),
      });
      const spam = lead({
        name: 'Cheap Rankings',
        status: 'spam',
        spam_reason: 'words',
        created_at: ago(3 * DAY),
      });
      for (const each of [callback, urgent, quoted, spam]) await store.insertLead(each, []);
      await store.saveLeadTracking(quoted.id, 0, { stage: 'quoted' }, ago(3 * DAY + HOUR));
      ids.callback = callback.id;
      ids.urgent = urgent.id;
      ids.quoted = quoted.id;
    });
  });

  for (const js of [true, false]) {
    test(`"Follow up" ${js ? 'with' : 'without'} JavaScript: why, who, what and where; each opens its enquiry`, async ({
      browser,
    }) => {
      const page = await ownerPage(browser, js);
      await page.goto(`${site}/admin`);
      const section = page.getByTestId('follow-ups');
      await expect(section.getByRole('heading', { name: 'Follow up', level: 2 })).toBeVisible();
      const rows = section.getByTestId('follow-up');
      await expect(rows).toHaveText([
        /^New for 2 days\s*Aroha Ngata\s*Home Glass, Postcode 3110$/,
        /^New for 1 day\s*Urgent: glass broken now\s*Tama Rewi\s*Windows$/,
        /^Quoted 3 days ago\s*Mere Kahu\s*Shower screens$/,
      ]);
      await expect(section).not.toContainText('Cheap Rankings');
      await expect(section).not.toContainText('Fresh Today');
      await expect(section).not.toContainText('Quoted Yesterday');

      // Readable at 390 px: nothing wider than the screen, every link a 44 px target.
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(PHONE_WIDTH.width);
      for (const link of await section.getByRole('link').all()) {
        const box = await link.boundingBox();
        expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
        expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE_WIDTH.width);
      }
      // The whole row is the link, but only the name is underlined, as on the inbox's cards.
      const underlines = await rows
        .first()
        .evaluate((row) =>
          [row.querySelector('a')!, ...row.querySelectorAll('a > *')].map(
            (element) => `${element.textContent}: ${getComputedStyle(element).textDecorationLine}`,
          ),
        );
      expect(underlines).toEqual([
        'New for 2 daysAroha NgataHome Glass, Postcode 3110: none',
        'New for 2 days: none',
        'Aroha Ngata: underline',
        'Home Glass, Postcode 3110: none',
      ]);

      if (js) {
        for (const size of [PHONE_WIDTH, DESK_WIDTH]) {
          await page.setViewportSize(size);
          const result = await axe(page);
          expect(result.violations, `/admin at ${size.width} px`).toEqual([]);
        }
        await page.setViewportSize(PHONE_WIDTH);
      }

      await rows.filter({ hasText: 'Mere Kahu' }).getByRole('link').click();
      await page.waitForURL(`${site}/admin/leads/${ids.quoted}`);
      await expect(page.getByRole('heading', { name: 'Mere Kahu' })).toBeVisible();

      // Searching or filtering the inbox leaves it out.
      await page.goto(`${site}/admin?stage=new`);
      await expect(page.getByText('Aroha Ngata')).toBeVisible();
      await expect(page.getByTestId('follow-ups')).toHaveCount(0);
      await page.context().close();
    });
  }
});

import { readFile } from 'node:fs/promises';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { nzConversionTime } from '../app/owner/google-ads.server.ts';
import {
  monthlyReport,
  monthWords,
  nzMonth,
  wonRate,
  type ReportLead,
} from '../app/owner/reports.ts';
import { main } from '../server/cli/leads-cli.ts';
import { axe } from './support/axe.ts';
import { freePort } from './support/free-port.ts';
import {
  attachServerLogsOnFailure,
  startSiteServer,
  tempDataDir,
  type SiteServer,
} from './support/lead-server.ts';
import { signInAsOwner } from './support/owner-session.ts';

/**
 * Where enquiries come from, as the owner reads it (docs/operations.md#reports):
 * the value typed when marking a job won, the report, and the won jobs for
 * Google Ads, on a server of its own. The tests run in order on one server.
 */

test.describe.configure({ mode: 'default', timeout: 240_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

const PHONE_WIDTH = { width: 390, height: 844 };

let server: SiteServer;
let site: string;
let data: ReturnType<typeof tempDataDir>;

test.beforeAll(async () => {
  data = tempDataDir();
  const port = await freePort();
  site = `http://localhost:${port}`;
  server = await startSiteServer({
    PORT: String(port),
    SITE_URL: site,
    DATA_DIR: data.dir,
    LEAD_ACCEPT: 'stored',
  });
});

test.afterAll(async () => {
  await server?.stop();
  data?.remove();
});

async function postLead(fields: Record<string, string>): Promise<string> {
  const response = await fetch(`${server.url}/api/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: 'someone@example.nz',
      phone: '021 555 0100',
      service: 'Windows',
      message: `A cracked pane in the lounge, sent ${Date.now()}`,
      source: 'contact_form',
      ...fields,
    }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** `npm run leads -- ARGS` against the server's store, its stdout. */
async function leadsCli(args: string[]): Promise<string> {
  let stdout = '';
  const code = await main(args, {
    env: { ...process.env, DATA_DIR: data.dir },
    stdout: (text) => (stdout += text),
    stderr: () => undefined,
  });
  expect(code).toBe(0);
  return stdout;
}

async function exported(id: string): Promise<Record<string, unknown> | undefined> {
  const leads = JSON.parse(await leadsCli(['export', '--format', 'json'])) as Array<
    Record<string, unknown>
  >;
  return leads.find((lead) => lead.id === id);
}

async function ownerPage(browser: Browser, js: boolean, email: string): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: js, viewport: PHONE_WIDTH });
  await signInAsOwner(context, server, email);
  return context.newPage();
}

test('the value of a won job, without JavaScript: refused beside the field, kept, cleared', async ({
  browser,
}) => {
  const id = await postLead({ name: 'Wiremu Value' });
  const page = await ownerPage(browser, false, 'value@glass.example.com');
  await page.goto(`${site}/admin/leads/${id}`);
  const stage = page.getByLabel('Stage', { exact: true });
  const value = page.getByLabel('Job value (optional), NZ$');
  const save = page.getByRole('button', { name: 'Save stage and note' });

  await stage.selectOption('won');
  await value.fill('1250 dollars');
  await save.click();
  // Said beside the field, what was typed kept; nothing saved.
  const error = page.locator('#job-value-error');
  await expect(error).toHaveText(
    "Type the job's value in dollars, like 1250 or $1,250.50. Nothing was saved.",
  );
  await expect(value).toHaveAttribute('aria-invalid', 'true');
  await expect(value).toHaveAttribute('aria-describedby', /job-value-error/);
  await expect(value).toHaveValue('1250 dollars');
  await expect(stage).toHaveValue('won');
  // Said at the top too, where the page opens, with a link down to the field.
  const refused = page.getByTestId('value-refused');
  await expect(refused).toHaveText(
    'Nothing was saved: the job value could not be read. Fix the job value',
  );
  await expect(refused.getByRole('link', { name: 'Fix the job value' })).toHaveAttribute(
    'href',
    '#job-value',
  );
  expect(await exported(id)).toEqual(
    expect.objectContaining({ stage: 'new', job_value_nzd: null }),
  );

  await value.fill('$1,250.50');
  await save.click();
  await expect(page.getByRole('status')).toHaveText('Saved the stage and note.');
  await expect(page.getByTestId('value-refused')).toHaveCount(0);
  await expect(page.getByTestId('job-value')).toHaveText('$1,250.50');
  await expect(value).toHaveValue('1250.50');
  expect(await exported(id)).toEqual(
    expect.objectContaining({ stage: 'won', job_value_nzd: '1250.50' }),
  );

  // Moved away from won: the value goes.
  await stage.selectOption('lost');
  await save.click();
  await expect(page.getByRole('status')).toHaveText('Saved the stage and note.');
  await expect(page.getByTestId('job-value')).toHaveCount(0);
  await expect(value).toHaveValue('');
  expect(await exported(id)).toEqual(
    expect.objectContaining({ stage: 'lost', job_value_nzd: null }),
  );
  await page.context().close();
});

/** What a report row says, as the page writes it from the counts. */
const figures = (row: { enquiries: number; won: number }) =>
  `${row.enquiries} ${row.enquiries === 1 ? 'enquiry' : 'enquiries'}, ${row.won} won (${wonRate(row.won, row.enquiries)})`;

/** The report as the page shows it: each month's total and rows, in order. */
async function reportOnPage(page: Page) {
  return page.getByTestId('report-month').evaluateAll((sections) =>
    sections.map((section) => {
      const rows = (id: string) =>
        [...section.querySelectorAll(`[data-testid="${id}"]`)].map((li) =>
          [...li.querySelectorAll('span')].map((span) => span.textContent?.trim()).join(' | '),
        );
      return {
        label: section.querySelector('h2')?.textContent?.trim(),
        total: section.querySelector('[data-testid="month-total"]')?.textContent?.trim(),
        bySource: rows('source-row'),
        byLanding: rows('landing-row'),
      };
    }),
  );
}

/** The same, computed from `leads export` (JSON). */
async function reportFromExport() {
  const leads = JSON.parse(await leadsCli(['export', '--format', 'json'])) as ReportLead[];
  return monthlyReport(leads).map((month) => ({
    label: month.label,
    total: figures(month),
    bySource: month.bySource.map((row) => `${row.name} | ${figures(row)}`),
    byLanding: month.byLanding.map((row) => `${row.name} | ${figures(row)}`),
  }));
}

test('a stranger gets the sign-in page, never the report or the file', async () => {
  for (const path of ['/admin/reports', '/admin/reports/google-ads.csv']) {
    const response = await fetch(`${server.url}${path}`, { redirect: 'manual' });
    expect(response.status, path).toBe(303);
    expect(response.headers.get('location'), path).toBe('/admin/sign-in');
    expect(await response.text(), path).not.toContain('Google Click ID');
  }
});

test('the report shows the figures the export gives, month by month, without JavaScript', async ({
  browser,
}) => {
  // Two enquiries a program sent with where they came from, one won.
  await postLead({
    name: 'Ana Report',
    landing: '/services/windows',
    referrer: 'www.facebook.com',
  });
  const won = await postLead({ name: 'Ben Report', landing: '/quote' });
  const page = await ownerPage(browser, false, 'figures@glass.example.com');
  await page.goto(`${site}/admin/leads/${won}`);
  await page.getByLabel('Stage', { exact: true }).selectOption('won');
  await page.getByRole('button', { name: 'Save stage and note' }).click();
  await expect(page.getByRole('status')).toHaveText('Saved the stage and note.');
  await page.goto(`${site}/admin/reports`);
  const report = await reportOnPage(page);
  expect(report.length).toBeGreaterThan(0);
  expect(report).toEqual(await reportFromExport());
  await page.context().close();

  // axe runs in the page: with JavaScript, the key to the sources open.
  const scripted = await browser.newContext({ viewport: PHONE_WIDTH });
  await signInAsOwner(scripted, server, 'reports-axe@glass.example.com');
  const withScript = await scripted.newPage();
  await withScript.goto(`${site}/admin/reports`);
  await withScript.getByText('How sources are named').click();
  expect((await axe(withScript)).violations).toEqual([]);
  await scripted.close();
});

test('"Reports" in the navigation: on a phone it fits in two rows, nothing wider than the screen', async ({
  browser,
}, testInfo) => {
  const page = await ownerPage(browser, false, 'nav@glass.example.com');
  await page.goto(`${site}/admin/reports`);
  const nav = page.getByRole('navigation', { name: "Owner's pages" });
  await expect(nav.getByRole('link', { name: 'Reports' })).toHaveAttribute('aria-current', 'page');
  // Every link and the sign-out button.
  const items = await nav.locator('a, button').all();
  const rows = new Set<number>();
  for (const item of items) {
    const box = await item.boundingBox();
    expect(box, (await item.textContent()) ?? '').not.toBeNull();
    rows.add(Math.round(box!.y + box!.height / 2));
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE_WIDTH.width);
    expect(box!.height).toBeGreaterThanOrEqual(44);
  }
  expect(rows.size).toBeLessThanOrEqual(2);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE_WIDTH.width,
  );
  await page.screenshot({ path: testInfo.outputPath('navigation-390.png') });
  await testInfo.attach('navigation at 390 px', {
    path: testInfo.outputPath('navigation-390.png'),
  });
  await page.context().close();
});

test('an ad click to a won job: the lead, the report and the file for Google Ads agree', async ({
  browser,
}, testInfo) => {
  const gclid = `EAIaIQobChMI${Date.now()}`;
  const landing = `/?utm_source=google&utm_medium=cpc&gclid=${gclid}`;
  const token = `Ad${Date.now()}`;

  // The visitor: lands from the ad, moves to the quote page, sends the form.
  const visitor = await browser.newContext({ viewport: PHONE_WIDTH });
  const page = await visitor.newPage();
  await page.goto(`${site}${landing}`);
  await expect(page.locator('html[data-ready]')).toBeAttached();
  await page.goto(`${site}/quote`);
  await expect(page.locator('html[data-ready]')).toBeAttached();
  const form = page.locator('form[data-quote-form]');
  await form.getByLabel('Name', { exact: true }).fill(`Hemi ${token}`);
  await form.getByLabel('Email', { exact: true }).fill(`hemi.${token.toLowerCase()}@example.co.nz`);
  await form.getByLabel('Phone', { exact: true }).fill('027 555 0142');
  await form.getByLabel('Service').selectOption('Windows');
  await form.getByLabel('Message', { exact: true }).fill(`New glass for a slider, ${token}.`);
  await form.getByRole('button', { name: 'Request My Free Quote' }).click();
  await expect(page).toHaveURL(/\/thank-you$/, { timeout: 60_000 });
  await visitor.close();

  // The lead: where it came from.
  const leads = JSON.parse(await leadsCli(['export', '--format', 'json'])) as Array<
    Record<string, unknown> & ReportLead & { id: string; name: string }
  >;
  const lead = leads.find((each) => each.name === `Hemi ${token}`);
  expect(lead?.attribution).toEqual({
    landing,
    referrer: null,
    utm_source: 'google',
    utm_medium: 'cpc',
    utm_campaign: null,
    utm_term: null,
    utm_content: null,
    gclid,
  });
  const month = monthWords(nzMonth(lead!.created_at));

  // The report: that month, google / cpc, 1 enquiry; the same figures as the export.
  const owner = await ownerPage(browser, false, 'reports@glass.example.com');
  await owner.goto(`${site}/admin/reports`);
  const section = owner.getByTestId('report-month').filter({ hasText: month });
  await expect(section.getByTestId('source-row').filter({ hasText: 'google / cpc' })).toHaveText(
    'google / cpc1 enquiry, 0 won (0%)',
  );
  await expect(section.getByTestId('landing-row').filter({ hasText: 'home page' })).toContainText(
    '1 enquiry, 0 won (0%)',
  );
  expect(await reportOnPage(owner)).toEqual(await reportFromExport());

  // Its page says where it came from, in the report's words.
  await owner.goto(`${site}/admin/leads/${lead!.id}`);
  await expect(owner.getByTestId('came-from')).toHaveText('google / cpc');

  // Marked won with a value on its page.
  await owner.getByLabel('Stage', { exact: true }).selectOption('won');
  await owner.getByLabel('Job value (optional), NZ$').fill('$1,250.50');
  await owner.getByRole('button', { name: 'Save stage and note' }).click();
  await expect(owner.getByRole('status')).toHaveText('Saved the stage and note.');

  await owner.goto(`${site}/admin/reports`);
  await expect(section.getByTestId('source-row').filter({ hasText: 'google / cpc' })).toHaveText(
    'google / cpc1 enquiry, 1 won (100%)',
  );
  expect(await reportOnPage(owner)).toEqual(await reportFromExport());

  // The file for Google Ads: the report's link, and the command, the same row.
  const won = (JSON.parse(await leadsCli(['export', '--format', 'json'])) as typeof leads).find(
    (each) => each.id === lead!.id,
  ) as unknown as { stage: string; stage_changed_at: string; job_value_nzd: string };
  expect(won).toEqual(expect.objectContaining({ stage: 'won', job_value_nzd: '1250.50' }));
  const row = `${gclid},Won job,${nzConversionTime(won.stage_changed_at)},1250.50,NZD`;
  const download = owner.waitForEvent('download');
  await owner.getByRole('link', { name: 'Download for Google Ads' }).click();
  const file = await (await download).path();
  const downloaded = await readFile(file, 'utf8');
  expect(downloaded.split('\r\n')).toEqual([
    'Parameters:TimeZone=Pacific/Auckland',
    'Google Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency',
    row,
    '',
  ]);
  const answer = await owner.request.get(`${site}/admin/reports/google-ads.csv`);
  expect(answer.headers()['content-disposition']).toMatch(/^attachment; filename=/);
  expect(answer.headers()['content-type']).toBe('text/csv; charset=utf-8');
  expect(await leadsCli(['export', '--google-ads'])).toBe(downloaded);

  // On a phone: nothing wider than the screen, every link and button 44 px, axe clean.
  await owner.setViewportSize(PHONE_WIDTH);
  await owner.goto(`${site}/admin/reports`);
  expect(await owner.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    PHONE_WIDTH.width,
  );
  for (const target of await owner
    .locator('main')
    .locator('a:visible, button:visible, summary:visible')
    .all()) {
    const box = await target.boundingBox();
    expect(box?.height, (await target.textContent()) ?? '').toBeGreaterThanOrEqual(44);
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE_WIDTH.width);
  }
  // Every row's figures keep to the right edge, beside the name or wrapped under it.
  const ragged = await owner.locator('[data-testid$="-row"]').evaluateAll((rows) =>
    rows
      .filter((row) => {
        const figures = row.querySelector('.admin-report__figures')!.getBoundingClientRect();
        const box = row.getBoundingClientRect();
        return Math.abs(box.right - figures.right) > 1;
      })
      .map((row) => row.textContent),
  );
  expect(ragged).toEqual([]);
  // The month is the larger heading; the key says it opens.
  const sizes = await owner
    .getByTestId('report-month')
    .first()
    .evaluate((month) =>
      ['h2', 'h3'].map((tag) => parseFloat(getComputedStyle(month.querySelector(tag)!).fontSize)),
    );
  expect(sizes[0]).toBeGreaterThan(sizes[1]!);
  const marker = await owner
    .locator('.admin-report__key > summary')
    .evaluate((summary) => getComputedStyle(summary, '::before').content);
  expect(marker).not.toBe('none');
  await owner.screenshot({ path: testInfo.outputPath('reports-390.png'), fullPage: true });
  await testInfo.attach('the report at 390 px', { path: testInfo.outputPath('reports-390.png') });
  await owner.context().close();
});

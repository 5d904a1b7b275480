import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { openStore } from '../app/db/open-store.server.ts';
import { E2E_BUILD_DIR } from './support/env.ts';
import { attachServerLogsOnFailure } from './support/lead-server.ts';
import {
  addVirtualAuthenticator,
  signInLinkMailed,
  startOwnerSite,
  type OwnerSite,
} from './support/owner-server.ts';
import { signInAsOwner } from './support/owner-session.ts';

/**
 * The owner's pages speak plainly (docs/operations.md, "Owner's pages"): a
 * tradesperson on a phone never sees a command, a file name, an id, an
 * internal state or a developer's word. This walks every owner page, found
 * from the page files under app/pages/admin (so a new page must be walked
 * too), signed out and signed in, in the states an owner meets (a link
 * asked for, a form saved, a form refused with its messages, an upload),
 * at 390 px wide and at 1280, and lists every such word in the visible text
 * or in an attribute an owner may see or hear (title, placeholder,
 * aria-label, alt, a button's or a field's value, the tab's title), with the
 * page it is on.
 *
 * With OWNER_SCREENSHOTS_DIR set, the same walk saves a full-page screenshot
 * of every page at both widths there (`<page>-390.png`, `<page>-1280.png`),
 * before anything is checked.
 */

test.describe.configure({ mode: 'serial', timeout: 15 * 60_000 });
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

const root = path.resolve(import.meta.dirname, '..');
const PAGES_DIR = path.join(root, 'app/pages/admin');
const PHONE = { width: 390, height: 844 };
const DESK = { width: 1280, height: 800 };
const SHOTS = process.env.OWNER_SCREENSHOTS_DIR;

/** What an owner must never read, each with the name a failure gives it. */
const DEVELOPER_WORDS: ReadonlyArray<readonly [string, RegExp]> = [
  ['npm', /\bnpm\b/i],
  ['E.164', /\bE\.?164\b/i],
  ['uuid', /\buuids?\b/i],
  ['an id (UUID)', /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i],
  ['src=', /\bsrc\s*=/i],
  ['revision', /\brevisions?\b/i],
  // The site being built, not a customer's "three of our builds".
  [
    'build',
    /\b(?:re)?build(?:s|ing)?\s+(?:(?:the|a|your|this|that|each|its)\s+)?(?:site|website|version|pages?)\b|\b(?:the|a|this|last|next|new)\s+(?:re)?build\b|\bbuild (?:failed|error|log|started|finished)\b/i,
  ],
  ['accepted', /\baccepted\b/i],
  ['check:launch', /check:launch/i],
  ['a file name', /\b[\w-]+\.(json|ts|tsx|md|astro|mjs|sql|sqlite|env)\b/i],
  // `owner.signed-in`, `passkey.added`, `site.published`; not `glass.example.nz` or `e.g.`
  [
    'an event name',
    /(?<![\w.@/:-])[a-z]+(?:[-_][a-z]+)*\.(?!(?:nz|com|org|net|co|io|app|dev)\b)[a-z]+(?:[-_][a-z]+)*(?![\w.@/-])/,
  ],
  ['latitude', /\blatitude\b/i],
  ['longitude', /\blongitude\b/i],
  ['a setting name', /\b[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+\b/],
  ['JSON', /\bjson\b/i],
  ['cli', /\bcli\b/i],
  ['shipped', /\bshipped\b/i],
  ['undefined', /\bundefined\b|\bNaN\b|\[object \w+\]/],
];

interface Hit {
  page: string;
  width: number;
  word: string;
  found: string;
  where: string;
  text: string;
}

/** Every .astro page's URL pattern under /admin: `leads/[id]`, `site/offers/[id]`, ''. */
function ownerPages(): string[] {
  const routes: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.astro')) {
        routes.push(
          path
            .relative(PAGES_DIR, full)
            .split(path.sep)
            .join('/')
            .replace(/\.astro$/, '')
            .replace(/(^|\/)index$/, ''),
        );
      }
    }
  };
  walk(PAGES_DIR);
  return routes.sort();
}

/** A URL path under /admin as the route pattern of the page file that serves it. */
function routeOf(pathname: string, routes: readonly string[]): string | undefined {
  const rest = pathname.replace(/^\/admin\/?/, '').replace(/\/$/, '');
  const parts = rest === '' ? [] : rest.split('/');
  // A fixed name wins over a parameter, as Astro's routing does.
  const candidates = routes.filter((route) => {
    const pattern = route === '' ? [] : route.split('/');
    return (
      pattern.length === parts.length &&
      pattern.every((part, i) => part === parts[i] || /^\[\w+\]$/.test(part))
    );
  });
  return candidates.sort(
    (a, b) => (a.match(/\[/g)?.length ?? 0) - (b.match(/\[/g)?.length ?? 0),
  )[0];
}

/** What the owner sees and hears on the page as it is: text, and the attributes that show. */
async function ownerText(page: Page): Promise<Array<{ where: string; text: string }>> {
  return page.evaluate(() => {
    // A closed <details> is one tap from open: read it as the owner would.
    for (const details of document.querySelectorAll('details')) details.open = true;
    const found: Array<{ where: string; text: string }> = [
      { where: 'tab title', text: document.title },
      { where: 'text', text: document.body.innerText },
    ];
    const shown = (element: Element) => {
      const box = (element as HTMLElement).getBoundingClientRect?.();
      return (
        (element as HTMLElement).offsetParent !== null ||
        (box && box.width > 0 && box.height > 0) ||
        getComputedStyle(element).position === 'fixed'
      );
    };
    for (const element of document.body.querySelectorAll('*')) {
      if (!shown(element) && element.tagName !== 'OPTION') continue;
      for (const name of ['title', 'placeholder', 'aria-label', 'alt', 'aria-description']) {
        const value = element.getAttribute(name);
        if (value) found.push({ where: `${element.tagName.toLowerCase()}[${name}]`, text: value });
      }
      if (element instanceof HTMLInputElement && element.type !== 'hidden' && element.value) {
        found.push({ where: `input[${element.name || element.type}] value`, text: element.value });
      }
      if (element instanceof HTMLButtonElement && element.value) {
        found.push({ where: 'button value', text: element.value });
      }
    }
    return found;
  });
}

let site: OwnerSite;
let scratch: string;
const hits: Hit[] = [];
const walked = new Map<string, string[]>();
let routes: string[];

test.beforeAll(async () => {
  // The site's own BUILD_DIR (a link to the suite's build to start from), as
  // e2e/site-admin.spec.ts does, so nothing here changes what others are served.
  scratch = mkdtempSync(path.join(root, 'build-owner-words-test-'));
  const buildDir = path.join(scratch, 'build');
  symlinkSync(realpathSync(path.resolve(root, E2E_BUILD_DIR)), buildDir);
  site = await startOwnerSite({ BUILD_DIR: buildDir, SITE_PUBLISH_INTERVAL_S: '3600' });
  routes = ownerPages();
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
});

test.afterAll(async () => {
  await site?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/**
 * Looks at the page as it is now, under `name`: its words at 390 px and at
 * 1280 px (and a full-page screenshot of each when asked for), then back to
 * 390 px.
 */
async function look(page: Page, name: string): Promise<void> {
  const url = new URL(page.url());
  const route = routeOf(url.pathname, routes);
  if (route !== undefined) walked.set(route, [...(walked.get(route) ?? []), name]);
  await page.waitForLoadState('load');
  for (const size of [PHONE, DESK]) {
    await page.setViewportSize(size);
    if (SHOTS) {
      await page.screenshot({
        path: path.join(SHOTS, `${name}-${size.width}.png`),
        fullPage: true,
      });
    }
    for (const { where, text } of await ownerText(page)) {
      for (const [word, pattern] of DEVELOPER_WORDS) {
        for (const match of text.matchAll(new RegExp(pattern.source, `${pattern.flags}g`))) {
          const at = match.index;
          const context = text
            .slice(Math.max(0, at - 40), at + match[0].length + 40)
            .replace(/\s+/g, ' ');
          const already = hits.some(
            (hit) => hit.page === name && hit.word === word && hit.found === match[0],
          );
          if (!already) {
            hits.push({
              page: name,
              width: size.width,
              word,
              found: match[0],
              where,
              text: context,
            });
          }
        }
      }
    }
  }
  await page.setViewportSize(PHONE);
}

async function newOwnerContext(
  browser: Browser,
  javaScriptEnabled = true,
): Promise<BrowserContext> {
  return browser.newContext({ viewport: PHONE, javaScriptEnabled });
}

/** The links on the page to owner pages under `prefix`, other than `new`. */
async function linksUnder(page: Page, prefix: string): Promise<string[]> {
  const hrefs = await page
    .locator(`main a[href^="${prefix}/"]`)
    .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).pathname));
  return [...new Set(hrefs)].filter((href) => !href.endsWith('/new'));
}

/**
 * The editor pages: each page file under site/ without a parameter, and
 * each list's `new`; then the first item of each list, as the list links it.
 */
async function editorPaths(page: Page): Promise<string[]> {
  const fixed = routes
    .filter((route) => route.startsWith('site/') && !route.includes('['))
    .map((route) => `/admin/${route}`);
  const lists = routes
    .filter((route) => /^site\/.+\/\[\w+\]$/.test(route))
    .map((route) => `/admin/${route.replace(/\/\[\w+\]$/, '')}`);
  const items: string[] = [];
  for (const list of lists) {
    await page.goto(`${site.url}${list}`);
    items.push(`${list}/new`, ...(await linksUnder(page, list)).slice(0, 1));
  }
  return [...new Set([...fixed, ...items])].sort();
}

/** A page's name for its screenshots and its hits: `site-offers-new`, `site-offers-item-refused`. */
function nameOf(pathname: string, state = ''): string {
  const route = routeOf(pathname, routes) ?? pathname;
  const named = route.replace(/\[\w+\]/g, pathname.endsWith('/new') ? 'new' : 'item');
  return [named.replace(/[^\w]+/g, '-').replace(/^-|-$/g, '') || 'inbox', state]
    .filter(Boolean)
    .join('-');
}

/**
 * Saves the first form on the page that saves something as it is
 * (`saved`), then with its text fields emptied and the browser's own checks
 * off, so the server's messages show (`refused`). Without JavaScript, so
 * each is the plain form post and the page it leads to.
 */
async function saveStates(page: Page, pathname: string): Promise<void> {
  const saving = () =>
    page
      .locator('main form[method="post"]')
      .filter({ has: page.getByRole('button', { name: /^(Save|Add|Upload)/ }) })
      .first();
  await page.goto(`${site.url}${pathname}`);
  if ((await saving().count()) === 0) return;
  const button = () =>
    saving()
      .getByRole('button', { name: /^(Save|Add|Upload)/ })
      .first();
  if (!(await saving().locator('input[type="file"]').count())) {
    await button().click();
    await page.waitForLoadState('load');
    await look(page, nameOf(pathname, 'saved'));
    await page.goto(`${site.url}${pathname}`);
  }
  await saving().evaluate((form: HTMLFormElement) => {
    form.noValidate = true;
    for (const field of form.querySelectorAll('input, textarea')) {
      const input = field as HTMLInputElement;
      if (['hidden', 'checkbox', 'radio', 'file', 'submit'].includes(input.type)) continue;
      input.value = '';
    }
  });
  await button().click();
  await page.waitForLoadState('load');
  await look(page, nameOf(pathname, 'refused'));
}

/** A won enquiry's customer sent a review with their link (the store as the review page leaves it). */
async function sentReview(leadId: string, email: string): Promise<void> {
  const store = await openStore({ dataDir: site.env.DATA_DIR ?? '' });
  try {
    await store.saveLeadTracking(leadId, 0, { stage: 'won' });
    const tokenHash = createHash('sha256').update(randomBytes(32)).digest('hex');
    const now = new Date();
    await store.createReviewRequest({
      lead_id: leadId,
      email,
      token_hash: tokenHash,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + 30 * 24 * 60 * 60 * 1000).toISOString(),
      sent_by: 'aroha@glass.example.nz',
    });
    await store.submitReview(
      tokenHash,
      {
        rating: 2,
        text: 'Fixed the lounge window, but it took two visits to get it right.',
        display_name: 'Mere W.',
        suburb: 'Greerton',
        consent_at: now.toISOString(),
      },
      now.toISOString(),
    );
  } finally {
    await store.close();
  }
}

test('every owner page speaks plainly, at 390 and 1280 px', async ({ browser }) => {
  const tag = randomUUID().slice(0, 8);
  const email = 'aroha@glass.example.nz';

  // An enquiry, as a visitor sends one.
  const sent = await fetch(`${site.server.url}/api/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Mere Walker',
      email: `mere.${tag}@example.nz`,
      phone: '027 555 0123',
      service: 'Windows',
      message: 'A cracked pane in the lounge window.\nCan you come this week?',
      source: 'quote_form',
      idempotency_key: `words-${tag}`,
    }),
  });
  expect(sent.status).toBe(201);
  const leadId = ((await sent.json()) as { id: string }).id;
  // Won, and the customer sent a review with the link they were e-mailed: it waits for the owner.
  await sentReview(leadId, `mere.${tag}@example.nz`);

  // Signed out: the sign-in page, a link asked for, a link that works and one that does not.
  const setupLink = await site.addOwner(email);
  const stranger = await newOwnerContext(browser);
  const out = await stranger.newPage();
  await out.goto(`${site.url}/admin/sign-in`);
  await expect(out.getByRole('heading', { level: 1 })).toBeVisible();
  await look(out, 'sign-in');
  const mailed = site.smtp.messages.length;
  await out.getByLabel(/e-mail address/i).fill(email);
  await out.getByRole('button', { name: /e-mail me/i }).click();
  await out.waitForURL(/asked/);
  await look(out, 'sign-in-asked');
  const signInLink = await signInLinkMailed(site, email, mailed);
  await out.goto(`${site.url}/admin/sign-in/${randomBytes(32).toString('base64url')}`);
  await look(out, 'sign-in-link-broken');
  await out.goto(`${site.url}/admin/setup/${randomBytes(32).toString('base64url')}`);
  await look(out, 'setup-broken');
  await out.goto(signInLink);
  await look(out, 'sign-in-link');
  // The link signs in: that is in the activity list too.
  await out.getByRole('button', { name: 'Sign in' }).click();
  await out.waitForURL(`${site.url}/admin`);
  await stranger.close();

  // The set-up link makes a passkey on this "phone" and signs in with it.
  const phone = await newOwnerContext(browser);
  const page = await phone.newPage();
  await addVirtualAuthenticator(page);
  await page.goto(setupLink);
  await expect(page.locator('[data-passkey-start]')).toBeVisible();
  await look(page, 'setup');
  await page.locator('[data-passkey-start]').click();
  await page.waitForURL(`${site.url}/admin`);

  // Signed in: the inbox and a lead.
  await look(page, 'inbox');
  await page.goto(`${site.url}/admin/leads/${leadId}`);
  await look(page, 'lead');

  // The forms, without JavaScript: a stage and a note on the lead, each editor saved and refused.
  const plain = await newOwnerContext(browser, false);
  await signInAsOwner(plain, site.server, 'tane@glass.example.nz');
  const form = await plain.newPage();
  await form.goto(`${site.url}/admin/leads/${leadId}`);
  const stage = form.locator('main select[name="stage"]').first();
  if (await stage.count()) {
    const values = await stage
      .locator('option')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    await stage.selectOption(values[values.length > 1 ? 1 : 0] ?? []);
  }
  const note = form.locator('main textarea[name="note"]').first();
  if (await note.count()) await note.fill('Rang back, measuring Thursday.');
  const saveLead = form.getByRole('button', { name: /^Save/ }).first();
  if (await saveLead.count()) {
    await saveLead.click();
    await form.waitForLoadState('load');
    await look(form, 'lead-saved');
  }
  // A job's value that cannot be read, refused beside its field.
  await form.goto(`${site.url}/admin/leads/${leadId}`);
  await form.locator('main select[name="stage"]').selectOption('won');
  await form.locator('main input[name="job_value"]').fill('about twelve hundred');
  await form.getByRole('button', { name: 'Save stage and note' }).click();
  await expect(form.locator('#job-value-error')).toBeVisible();
  await look(form, 'lead-job-value-refused');

  // A job photo, uploaded as a phone sends it.
  await form.goto(`${site.url}/admin/site/photos`);
  const upload = form.locator('main form:has(input[type="file"])').first();
  const photo = await sharp({
    create: { width: 1200, height: 900, channels: 3, background: '#5a7d8c' },
  })
    .jpeg({ quality: 80 })
    .toBuffer();
  await upload
    .locator('input[type="file"]')
    .setInputFiles({ name: 'IMG_2041.JPG', mimeType: 'image/jpeg', buffer: photo });
  for (const select of await upload.locator('select').all()) {
    const values = await select
      .locator('option')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
    if (values[0] !== undefined) await select.selectOption(values[0]);
  }
  for (const field of await upload
    .locator('input[type="text"], input:not([type]), textarea')
    .all()) {
    if (!(await field.inputValue())) await field.fill('A new double-glazed lounge window');
  }
  await upload
    .getByRole('button', { name: /^Upload/ })
    .first()
    .click();
  await form.waitForLoadState('load');
  await look(form, 'site-photos-uploaded');

  // With JavaScript, as the owner's phone has it: the site page and every
  // editor as they are, before anything is saved (a sample offer says so
  // until it is saved).
  const editors = await editorPaths(page);
  await page.goto(`${site.url}/admin/site`);
  await look(page, 'site');
  for (const editor of editors) {
    await page.goto(`${site.url}${editor}`);
    await look(page, nameOf(editor));
  }
  // Then each editor saved and refused, and the activity all this left.
  for (const editor of editors) await saveStates(form, editor);
  // The customer's review declined without a reason (refused), then with one.
  await form.goto(`${site.url}/admin/site/testimonials`);
  const decline = form.locator('main form:has(input[value="decline-review"])').first();
  await decline.evaluate((element: HTMLFormElement) => (element.noValidate = true));
  await decline.getByRole('button', { name: /^Decline/ }).click();
  await form.waitForLoadState('load');
  await look(form, 'site-testimonials-decline-refused');
  await form.getByLabel('It is not about our work').first().check();
  await form
    .getByRole('button', { name: /^Decline/ })
    .first()
    .click();
  await form.waitForLoadState('load');
  await look(form, 'site-testimonials-declined');
  // Publishing, as the site page says it while it happens.
  await page.goto(`${site.url}/admin/site`);
  await page
    .getByRole('button', { name: /^Publish/ })
    .first()
    .click();
  await page.waitForLoadState('load');
  await look(page, 'site-publishing');

  await page.goto(`${site.url}/admin/activity`);
  await expect(page.getByTestId('activity-row').first()).toBeVisible();
  await look(page, 'activity');
  // At 1280 px each sentence has the room to be read on a line or two: at
  // least half its card's width, the time and the link beside it.
  await page.setViewportSize(DESK);
  const cramped = await page.getByTestId('activity-row').evaluateAll((rows) =>
    rows
      .filter((row) => {
        const what = row.querySelector('p')!.getBoundingClientRect().width;
        return what < row.getBoundingClientRect().width / 2;
      })
      .map((row) => row.textContent?.trim().slice(0, 60)),
  );
  expect(cramped, 'activity sentences squeezed at 1280 px').toEqual([]);
  // The alerts page, with JavaScript and without (which says what it needs).
  await page.goto(`${site.url}/admin/notifications`);
  await look(page, 'notifications');
  await form.goto(`${site.url}/admin/notifications`);
  await look(form, 'notifications-no-script');
  // The report, with the enquiries and the won job above, and its key open.
  await page.goto(`${site.url}/admin/reports`);
  await expect(page.getByTestId('report-month').first()).toBeVisible();
  await page.getByText('How sources are named').click();
  await look(page, 'reports');
  await plain.close();
  await phone.close();

  // Every page file was walked (a new one is walked once added here).
  const missed = routes.filter((route) => !walked.has(route));
  test.info().annotations.push({
    type: 'walked',
    description: [...walked]
      .map(([route, states]) => `/admin/${route}: ${states.join(', ')}`)
      .join('\n'),
  });
  console.log(
    `owner pages walked:\n${[...walked].map(([route, states]) => `  /admin/${route}: ${states.join(', ')}`).join('\n')}`,
  );
  console.log(
    `owner words: ${hits.length} found\n` +
      hits
        .map((hit) => `  ${hit.page} (${hit.width} px, ${hit.where}): ${hit.word}: “${hit.text}”`)
        .join('\n'),
  );
  expect(missed, 'owner pages the walk did not reach').toEqual([]);
  expect(hits, 'developer words on the owner pages').toEqual([]);
});

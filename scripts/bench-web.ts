import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Result as LighthouseResult } from 'lighthouse';
import { computeMedianRun, filterToValidRuns } from 'lighthouse/core/lib/median-run.js';

/**
 * `npm run bench:web`: Lighthouse (mobile preset: a simulated mid-range phone
 * on a slow 4G network) on every page of the site, served by the production
 * server from a fresh build. Each page runs BENCH_RUNS times (default 3) and
 * its row is the median run (Lighthouse's own `computeMedianRun`), with the
 * four category scores, LCP, TBT, CLS, the JavaScript the page received
 * before it was idle (brotli) and all bytes; a second table gives each of
 * performance, LCP, TBT and CLS its own median over the runs, and the worst
 * run's TBT and CLS. Writes the median runs' rows to reports/lighthouse.json.
 *
 *   npm run bench:web                      every page, the public ones and the owner's
 *   npm run bench:web -- / /about          only these paths
 *   BENCH_PAGES=owner npm run bench:web    only the owner's pages (a few minutes)
 *   BENCH_PAGES=public npm run bench:web   only the public pages (about half an hour)
 *
 * The owner's pages: the sign-in page, as anyone sees it, then the inbox, a
 * lead, the site page and the notice editor as a signed-in owner sees them.
 * Each server has a store of its own in a temporary folder, where the bench
 * adds an owner, a session (as a passkey sign-in leaves them) and one
 * enquiry (POST /api/leads, as a visitor sends it); Lighthouse sends the
 * session's cookie with every request (its extraHeaders) to the pages that
 * need one. The lead e-mail is set up (to a mail server that is not there)
 * so the sign-in page shows its e-mail form, as on a live site.
 *
 * BENCH_BEFORE=<checkout>: another checkout of this site (an earlier commit,
 * built there with `npm ci && npm run build`) is served too, and every run
 * measures each page on both, one after the other, so a change is measured
 * before and after on the same machine at the same time. Its owner and
 * session are made with that checkout's own store code.
 */

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.BENCH_PORT ?? 3400);
const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const beforeRoot = process.env.BENCH_BEFORE?.trim();
const pageSet = process.env.BENCH_PAGES?.trim() || 'all';
if (!['all', 'public', 'owner'].includes(pageSet)) {
  console.error(`BENCH_PAGES is "${pageSet}": give all, public or owner.`);
  process.exit(1);
}

const started = Date.now();
const load = () =>
  loadavg()
    .map((average) => average.toFixed(2))
    .join(', ');
const loadAtStart = load();

const built = spawnSync('node', ['scripts/ensure-build.ts'], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

interface Site {
  name: string;
  origin: string;
  /** The signed-in owner's session, as a Cookie header. */
  cookie: string;
  /** The enquiry the bench sent, for its page. */
  leadPath: string;
  stop: () => void;
}

/** The page of the enquiry the bench sent, whose address each site gives its own id. */
const LEAD_PAGE = '/admin/leads/:id';

/** The owner's pages measured: the sign-in page, and four a signed-in owner uses most. */
const OWNER_PAGES = ['/admin/sign-in', '/admin', LEAD_PAGE, '/admin/site', '/admin/site/notice'];

/** Whether a page is one of the owner's behind the sign-in, measured with the session's cookie. */
function signedIn(pagePath: string): boolean {
  return (
    (pagePath === '/admin' || pagePath.startsWith('/admin/')) &&
    !pagePath.startsWith('/admin/sign-in') &&
    !pagePath.startsWith('/admin/setup')
  );
}

/**
 * An owner and a session in the store of a running server, made with the
 * checkout's own store code (`cwd`), as a passkey sign-in leaves them
 * (e2e/support/owner-session.ts does the same for the browser tests).
 */
async function signIn(cwd: string, dataDir: string, siteUrl: string): Promise<string> {
  const importFrom = (file: string) => import(pathToFileURL(path.join(cwd, file)).href);
  const { openStore } = await importFrom('app/db/open-store.server.ts');
  const { ownerSessions, sessionCookie } = await importFrom('app/owner/sessions.server.ts');
  const store = await openStore({ dataDir });
  try {
    const { owner } = await store.addOwner('owner@glass.example.nz', new Date().toISOString());
    const session = (await ownerSessions(store).create(owner.id)) as string | null;
    if (!session) throw new Error('no session for the bench owner');
    return `${(sessionCookie(siteUrl) as { name: string }).name}=${session}`;
  } finally {
    await store.close();
  }
}

async function startSite(name: string, cwd: string, sitePort: number): Promise<Site> {
  const origin = `http://127.0.0.1:${sitePort}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), `glass-bench-${name}-`));
  const siteUrl = process.env.SITE_URL?.trim() || `http://localhost:${sitePort}`;
  const server = spawn('node', ['server/start.ts'], {
    cwd,
    env: {
      ...process.env,
      PORT: String(sitePort),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      SITE_URL: siteUrl,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      // The sign-in page offers a link by e-mail only with the lead e-mail set
      // up; nothing is sent while the bench runs (enquiries are only stored).
      LEAD_EMAIL_TO: 'office@glass.example.nz',
      LEAD_EMAIL_FROM: 'website@glass.example.nz',
      SMTP_URL: 'smtp://127.0.0.1:9',
      LEAD_ACCEPT: 'stored',
      LEAD_WEBHOOK_URLS: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = () => {
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.on('exit', stop);
  for (let attempt = 0; ; attempt += 1) {
    try {
      if ((await fetch(`${origin}/healthz`)).ok) break;
    } catch {
      // not up yet
    }
    if (attempt === 100) throw new Error(`The ${name} server did not start.`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (pageSet === 'public') return { name, origin, cookie: '', leadPath: '', stop };
  const cookie = await signIn(cwd, dataDir, siteUrl);
  const lead = await fetch(`${origin}/api/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: siteUrl },
    body: JSON.stringify({
      name: 'Aroha Ngata',
      email: 'aroha@example.nz',
      phone: '021 555 0100',
      service: 'Windows',
      suburb: 'Greerton',
      message: 'A cracked pane in the lounge window, about 900 by 1200. Could you come this week?',
      source: 'contact_form',
    }),
  });
  const { id } = (await lead.json().catch(() => ({}))) as { id?: string };
  if (!lead.ok || !id) throw new Error(`The ${name} server took no enquiry (${lead.status}).`);
  return { name, origin, cookie, leadPath: `/admin/leads/${id}`, stop };
}

const sites: Site[] = [await startSite('now', root, port)];
if (beforeRoot) sites.push(await startSite('before', path.resolve(beforeRoot), port + 1));

let paths = process.argv.slice(2);
if (paths.length === 0 && pageSet !== 'owner') {
  const xml = await (await fetch(`${sites[0]!.origin}/sitemap.xml`)).text();
  paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map(
    (match) => new URL((match[1] ?? '').replace(/&amp;/g, '&')).pathname,
  );
  paths.push('/thank-you', '/thank-you/urgent');
}
if (process.argv.length <= 2 && pageSet !== 'public') {
  paths.push(...OWNER_PAGES);
}

const chromePath = existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
const chrome = await chromeLauncher.launch({
  chromePath,
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
});

interface Row {
  site: string;
  path: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  jsBytes: number;
  bytes: number;
}

/**
 * The JavaScript a page received before Lighthouse found it idle, in bytes as
 * this server sends it to a browser that takes brotli (every browser, over
 * HTTPS): each script the run loaded, asked for again with
 * `Accept-Encoding: br`, by its Content-Length. (Lighthouse's own transfer
 * sizes are gzip's: Chromium asks for brotli only over HTTPS, and the bench
 * serves plain HTTP on loopback.)
 */
async function scriptBrotliBytes(lhr: LighthouseResult): Promise<number> {
  const items =
    (
      lhr.audits['network-requests']?.details as
        { items?: Array<{ url: string; resourceType?: string; transferSize?: number }> } | undefined
    )?.items ?? [];
  let total = 0;
  for (const item of items.filter((request) => request.resourceType === 'Script')) {
    const response = await fetch(item.url, { headers: { 'accept-encoding': 'br' } }).catch(
      () => undefined,
    );
    const length = Number(response?.headers.get('content-length'));
    await response?.body?.cancel();
    total += response?.ok && length > 0 ? length : (item.transferSize ?? 0);
  }
  return total;
}

/** The figures of one Lighthouse result. */
async function toRow(site: string, pagePath: string, lhr: LighthouseResult): Promise<Row> {
  const { categories, audits } = lhr;
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
  return {
    site,
    path: pagePath,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? NaN),
    tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? NaN),
    cls: Number((audits['cumulative-layout-shift']?.numericValue ?? NaN).toFixed(3)),
    jsBytes: await scriptBrotliBytes(lhr),
    bytes: Math.round(audits['total-byte-weight']?.numericValue ?? NaN),
  };
}

/**
 * One Lighthouse run of a page. A run that failed (a runtime error, or no
 * first paint in the trace, which headless Chromium gives now and then) is
 * run again, at most twice; the median needs whole runs.
 */
async function measure(site: Site, pagePath: string): Promise<LighthouseResult> {
  for (let attempt = 1; ; attempt += 1) {
    const address = pagePath === LEAD_PAGE ? site.leadPath : pagePath;
    const result = await lighthouse(`${site.origin}${encodeURI(address)}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      ...(signedIn(pagePath) ? { extraHeaders: { Cookie: site.cookie } } : {}),
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${pagePath} (${site.name})`);
    const { lhr } = result;
    if (filterToValidRuns([lhr]).length === 1 && !lhr.runtimeError) return lhr;
    const reason = lhr.runtimeError?.message ?? 'no first contentful paint';
    if (attempt === 3)
      throw new Error(`Lighthouse failed 3 times on ${pagePath} (${site.name}): ${reason}`);
    console.log(`${site.name} ${pagePath}: Lighthouse failed (${reason}); running it again`);
  }
}

const results = new Map<string, LighthouseResult[]>();
const rows: Row[] = [];
try {
  for (let run = 1; run <= runs; run += 1) {
    for (const pagePath of paths) {
      for (const site of sites) {
        const lhr = await measure(site, pagePath);
        const key = `${site.name} ${pagePath}`;
        results.set(key, [...(results.get(key) ?? []), lhr]);
        const row = await toRow(site.name, pagePath, lhr);
        console.log(
          [
            `${run}/${runs}`,
            site.name.padEnd(6),
            row.path.padEnd(48),
            row.performance,
            row.lcpMs,
            row.tbtMs,
            row.jsBytes,
          ].join('\t'),
        );
      }
    }
  }
  // Each page's median run, with its scripts' sizes read while the servers run.
  for (const pagePath of paths) {
    for (const site of sites) {
      const median = computeMedianRun(results.get(`${site.name} ${pagePath}`) ?? []);
      rows.push(await toRow(site.name, pagePath, median));
    }
  }
} finally {
  await chrome.kill();
  for (const site of sites) site.stop();
}

const kib = (bytes: number) => (bytes / 1024).toFixed(1);
const table = [
  `| page | site | perf | a11y | best pr. | SEO | LCP ms | TBT ms | CLS | JS KiB | all KiB |`,
  '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (row) =>
      `| ${row.path} | ${row.site} | ${row.performance} | ${row.accessibility} | ${row.bestPractices} | ${row.seo} | ${row.lcpMs} | ${row.tbtMs} | ${row.cls} | ${kib(row.jsBytes)} | ${kib(row.bytes)} |`,
  ),
];
console.log(
  `\nMedian of ${runs} run(s) a page (Lighthouse's median run), in ${Math.round((Date.now() - started) / 60_000)} min; load average ${loadAtStart} at the start, ${load()} at the end:\n${table.join('\n')}`,
);

/**
 * Lighthouse's median run is the one nearest the median first paint and
 * time to interactive; its TBT and CLS are that run's, not their own
 * medians. So each figure's own median over the runs too, with the
 * worst run's TBT and CLS: a layout shift that shows in one run of three
 * happens to some visitors.
 */
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? sorted[middle]!
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
const figure = (lhr: LighthouseResult, id: string) => lhr.audits[id]?.numericValue ?? NaN;
const figures = [
  `| page | site | perf | LCP ms | TBT ms | CLS | worst TBT ms | worst CLS | perf of each run |`,
  '|---|---|---:|---:|---:|---:|---:|---:|---|',
];
for (const pagePath of paths) {
  for (const site of sites) {
    const all = results.get(`${site.name} ${pagePath}`) ?? [];
    const perf = all.map((lhr) => Math.round((lhr.categories.performance?.score ?? 0) * 100));
    const tbt = all.map((lhr) => figure(lhr, 'total-blocking-time'));
    const cls = all.map((lhr) => figure(lhr, 'cumulative-layout-shift'));
    const lcp = all.map((lhr) => figure(lhr, 'largest-contentful-paint'));
    figures.push(
      `| ${pagePath} | ${site.name} | ${median(perf)} | ${Math.round(median(lcp))} | ${Math.round(median(tbt))} | ${median(cls).toFixed(3)} | ${Math.round(Math.max(...tbt))} | ${Math.max(...cls).toFixed(3)} | ${perf.join(', ')} |`,
    );
  }
}
console.log(
  `\nEach figure's own median over the ${runs} run(s), and the worst run:\n${figures.join('\n')}`,
);

for (const site of sites) {
  const own = rows.filter((row) => row.site === site.name);
  const min = (key: keyof Row) => Math.min(...own.map((row) => row[key] as number));
  const max = (key: keyof Row) => Math.max(...own.map((row) => row[key] as number));
  console.log(
    `\n${site.name}: ${own.length} pages. Lowest scores: performance ${min('performance')}, accessibility ${min('accessibility')}, best practices ${min('bestPractices')}, SEO ${min('seo')}. Highest: LCP ${max('lcpMs')} ms, TBT ${max('tbtMs')} ms, CLS ${max('cls')}, JavaScript ${kib(max('jsBytes'))} KiB.`,
  );
}
mkdirSync(path.join(root, 'reports'), { recursive: true });
writeFileSync(path.join(root, 'reports/lighthouse.json'), `${JSON.stringify(rows, null, 2)}\n`);
process.exit(0);

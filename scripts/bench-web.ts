import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Result as LighthouseResult } from 'lighthouse';
import { computeMedianRun, filterToValidRuns } from 'lighthouse/core/lib/median-run.js';

/**
 * `npm run bench:web`: Lighthouse (mobile preset: a simulated mid-range phone
 * on a slow 4G network) on every page of the site, served by the production
 * server from a fresh build. Each page runs BENCH_RUNS times (default 3) and
 * its row is the median run (Lighthouse's own `computeMedianRun`), with the
 * four category scores, LCP, TBT, CLS, the JavaScript the page received
 * before it was idle (brotli) and all bytes. Writes the rows to reports/lighthouse.json.
 *
 *   npm run bench:web                 every page
 *   npm run bench:web -- / /about     only these paths
 *
 * BENCH_BEFORE=<checkout>: another checkout of this site (an earlier commit,
 * built there with `npm ci && npm run build`) is served too, and every run
 * measures each page on both, one after the other, so a change is measured
 * before and after on the same machine at the same time.
 */

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.BENCH_PORT ?? 3400);
const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const beforeRoot = process.env.BENCH_BEFORE?.trim();

const built = spawnSync('node', ['scripts/ensure-build.ts'], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

interface Site {
  name: string;
  origin: string;
  stop: () => void;
}

async function startSite(name: string, cwd: string, sitePort: number): Promise<Site> {
  const origin = `http://127.0.0.1:${sitePort}`;
  const server = spawn('node', ['server/start.ts'], {
    cwd,
    env: { ...process.env, PORT: String(sitePort), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = () => server.kill('SIGTERM');
  process.on('exit', stop);
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      if ((await fetch(`${origin}/healthz`)).ok) return { name, origin, stop };
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The ${name} server did not start.`);
}

const sites: Site[] = [await startSite('now', root, port)];
if (beforeRoot) sites.push(await startSite('before', path.resolve(beforeRoot), port + 1));

let paths = process.argv.slice(2);
if (paths.length === 0) {
  const xml = await (await fetch(`${sites[0]!.origin}/sitemap.xml`)).text();
  paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map(
    (match) => new URL((match[1] ?? '').replace(/&amp;/g, '&')).pathname,
  );
  paths.push('/thank-you', '/thank-you/urgent');
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
    const result = await lighthouse(`${site.origin}${encodeURI(pagePath)}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
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
console.log(`\nMedian of ${runs} run(s) a page (Lighthouse's median run):\n${table.join('\n')}`);
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

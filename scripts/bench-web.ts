import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

/**
 * `npm run bench:web`: Lighthouse (mobile preset) on every page of the site,
 * served by the production server from a fresh build. Prints one row per page
 * with the four category scores, LCP, TBT, CLS and the bytes transferred, and
 * writes the full figures to reports/lighthouse.json.
 *
 *   npm run bench:web                 every page
 *   npm run bench:web -- / /about     only these paths
 */

const root = path.resolve(import.meta.dirname, '..');
const port = Number(process.env.BENCH_PORT ?? 3400);
const origin = `http://127.0.0.1:${port}`;

const built = spawnSync('node', ['scripts/ensure-build.ts'], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

const server = spawn('node', ['server/start.ts'], {
  cwd: root,
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const stopServer = () => server.kill('SIGTERM');
process.on('exit', stopServer);

async function waitForServer() {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      if ((await fetch(`${origin}/healthz`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('The server did not start.');
}
await waitForServer();

let paths = process.argv.slice(2);
if (paths.length === 0) {
  const xml = await (await fetch(`${origin}/sitemap.xml`)).text();
  paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map(
    (match) => new URL((match[1] ?? '').replace(/&amp;/g, '&')).pathname,
  );
  paths.push('/thank-you');
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
  path: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  bytes: number;
}

const rows: Row[] = [];
try {
  for (const pagePath of paths) {
    const result = await lighthouse(`${origin}${encodeURI(pagePath)}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${pagePath}`);
    const { categories, audits } = result.lhr;
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    const row: Row = {
      path: pagePath,
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      lcpMs: Math.round(audits['largest-contentful-paint']?.numericValue ?? NaN),
      tbtMs: Math.round(audits['total-blocking-time']?.numericValue ?? NaN),
      cls: Number((audits['cumulative-layout-shift']?.numericValue ?? NaN).toFixed(3)),
      bytes: Math.round(audits['total-byte-weight']?.numericValue ?? NaN),
    };
    rows.push(row);
    console.log(
      [
        row.path.padEnd(48),
        row.performance,
        row.accessibility,
        row.bestPractices,
        row.seo,
        row.lcpMs,
        row.tbtMs,
        row.cls,
        row.bytes,
      ].join('\t'),
    );
  }
} finally {
  await chrome.kill();
  stopServer();
}

const header = '| page | perf | a11y | best pr. | SEO | LCP ms | TBT ms | CLS | bytes |';
const table = [
  header,
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (row) =>
      `| ${row.path} | ${row.performance} | ${row.accessibility} | ${row.bestPractices} | ${row.seo} | ${row.lcpMs} | ${row.tbtMs} | ${row.cls} | ${row.bytes} |`,
  ),
];
console.log(`\n${table.join('\n')}`);
const min = (key: keyof Row) => Math.min(...rows.map((row) => row[key] as number));
const max = (key: keyof Row) => Math.max(...rows.map((row) => row[key] as number));
console.log(
  `\n${rows.length} pages. Lowest scores: performance ${min('performance')}, accessibility ${min('accessibility')}, best practices ${min('bestPractices')}, SEO ${min('seo')}. Highest: LCP ${max('lcpMs')} ms, TBT ${max('tbtMs')} ms, CLS ${max('cls')}.`,
);
mkdirSync(path.join(root, 'reports'), { recursive: true });
writeFileSync(path.join(root, 'reports/lighthouse.json'), `${JSON.stringify(rows, null, 2)}\n`);
process.exit(0);

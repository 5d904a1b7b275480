import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { defaultSiteContent } from '../app/content/site-content.ts';
import { createRelease, publishRelease } from '../server/build-releases.ts';
import { E2E_BUILD_DIR } from './support/env.ts';
import {
  attachServerLogsOnFailure,
  startSiteServer,
  type SiteServer,
} from './support/lead-server.ts';

/**
 * A publication changes data, never the running code
 * (docs/decisions/0011-content-is-data-not-code.md). Each of 20
 * publications here is a whole release of the real site (this suite's
 * build, its files linked, its content its own), which the server follows
 * as it follows the builder's; each is read back from a page rendered on
 * request. Importing each release's server bundle, as the server once did,
 * grew it by about 3 MB a publication and never gave it back: its memory
 * after the 20th must be within 30 MB of its memory after the first.
 */

test.describe.configure({ timeout: 10 * 60_000 });
// eslint-disable-next-line no-empty-pattern
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

const root = path.resolve(import.meta.dirname, '..');
const PUBLICATIONS = 20;
const ALLOWED_GROWTH_KB = 30 * 1024;

let scratch: string | undefined;
let server: SiteServer | undefined;

test.afterAll(async () => {
  await server?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/**
 * A full garbage collection in the server, asked for through its inspector
 * (the DevTools protocol's HeapProfiler.collectGarbage).
 */
async function collectGarbage(site: SiteServer): Promise<void> {
  const url = /ws:\/\/127\.0\.0\.1:\d+\/[\w-]+/.exec(site.output())?.[0];
  if (!url) throw new Error('the server printed no inspector address');
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  try {
    const done = new Promise<void>((resolve) => {
      socket.addEventListener('message', (event) => {
        if ((JSON.parse(String(event.data)) as { id?: number }).id === 1) resolve();
      });
    });
    socket.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' }));
    await done;
  } finally {
    socket.close();
  }
}

/** The server's resident memory, in kB, as the kernel counts it. */
function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]);
}

test('20 publications keep the server within 30 MB of its memory after the first', async () => {
  scratch = mkdtempSync(path.join(root, 'build-memory-test-'));
  const buildDir = path.join(scratch, 'build');
  const suiteRelease = realpathSync(path.resolve(root, E2E_BUILD_DIR));

  /** Publishes version `n`: the suite's release, its business named for the version. */
  const publish = (n: number): string => {
    const release = createRelease(buildDir, new Date(Date.UTC(2026, 0, 1, 0, 0, n)));
    const copied = spawnSync('cp', ['-al', `${suiteRelease}/.`, release]);
    if (copied.status !== 0) throw new Error(`cp: ${copied.stderr.toString()}`);
    const content = {
      ...defaultSiteContent,
      identity: { ...defaultSiteContent.identity, name: `Kōwhai Glass ${n}` },
    };
    // New files, not the linked ones written over.
    for (const file of ['content/site-content.json', 'build-stamp.json']) {
      rmSync(path.join(release, file), { force: true });
    }
    writeFileSync(
      path.join(release, 'content/site-content.json'),
      JSON.stringify({ version: n, key: `v${n}`, content }),
    );
    const stamp = JSON.parse(
      readFileSync(path.join(suiteRelease, 'build-stamp.json'), 'utf8'),
    ) as Record<string, unknown>;
    writeFileSync(
      path.join(release, 'build-stamp.json'),
      JSON.stringify({ ...stamp, content: { version: n, key: `v${n}` } }),
    );
    publishRelease(buildDir, release);
    return release;
  };

  publish(0);
  // Its inspector, on a port of its own, only for the collection below.
  server = await startSiteServer({ BUILD_DIR: buildDir, NODE_OPTIONS: '--inspect=127.0.0.1:0' });
  const pid = server.process.pid!;
  const served = async (n: number) => {
    await expect
      .poll(async () => (await fetch(`${server!.url}/not-a-page`)).text(), {
        timeout: 30_000,
        intervals: [100],
      })
      .toContain(`Kōwhai Glass ${n}`);
    // The pages rendered on request and a search, as visitors would ask for them.
    for (const page of ['/blog?q=glass', '/not-a-page', '/blog/category/windows?q=double']) {
      expect((await fetch(`${server!.url}${page}`)).ok || page === '/not-a-page').toBe(true);
    }
  };
  await served(0);
  // Its code warmed up first (compiled, its caches filled), as a server that
  // has answered visitors for a while: what grows after that is what stays.
  for (let round = 0; round < 30; round++) await served(0);

  const series: number[] = [];
  /**
   * The memory the server keeps: read after a full garbage collection, so
   * what it counts is what the server holds on to, not garbage the last
   * burst of requests left for a later collection.
   */
  const settledRss = async () => {
    await collectGarbage(server!);
    return rssKb(pid);
  };
  let first = 0;
  for (let n = 1; n <= PUBLICATIONS; n++) {
    publish(n);
    await served(n);
    if (n === 1) first = await settledRss();
    series.push(rssKb(pid));
  }
  const last = await settledRss();
  const growth = last - first;
  console.log(
    `RSS after each of ${PUBLICATIONS} publications (kB): ${series.join(', ')}; ` +
      `after a full collection: after the first ${first} kB, after the 20th ${last} kB ` +
      `(${growth >= 0 ? '+' : ''}${growth} kB)`,
  );
  expect(growth).toBeLessThanOrEqual(ALLOWED_GROWTH_KB);
});

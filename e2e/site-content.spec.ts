import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { defaultSiteContent, type SiteContent } from '../app/content/site-content.ts';
import { openSqliteStore } from '../app/db/store-sqlite.server.ts';
import { E2E_BUILD_ENV } from './support/env.ts';
import {
  attachServerLogsOnFailure,
  startSiteServer,
  tempDataDir,
  type SiteServer,
} from './support/lead-server.ts';

/**
 * The site built from the store's content (docs/operations.md#site-content):
 * a version published there (here stored directly, as /admin/site will) is
 * what `npm run build` builds: its identity, its notice on every page, its
 * job photos as "Recent work" on their service page; and `npm start` sees
 * when the store has a newer live version than the build.
 */

const root = path.resolve(import.meta.dirname, '..');

// eslint-disable-next-line no-empty-pattern -- Playwright needs the destructuring to pass testInfo.
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

function runNode(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...(process.env as Record<string, string>), ...E2E_BUILD_ENV, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

const NOTICE = 'Closed 24 December to 5 January; emergency calls answered as usual.';

test('a build makes the pages from the newest live content: identity, notice, job photos', async ({
  page,
}) => {
  test.setTimeout(15 * 60_000);
  // Inside the project: the server bundle finds its packages in node_modules.
  const scratch = mkdtempSync(path.join(root, 'build-content-test-'));
  const buildDir = path.join(scratch, 'build');
  const data = tempDataDir();
  let server: SiteServer | undefined;
  try {
    const store = await openSqliteStore({ dataDir: data.dir });
    const jpeg = await sharp({
      create: { width: 1200, height: 900, channels: 3, background: '#5a7d8c' },
    })
      .jpeg({ quality: 80 })
      .toBuffer();
    const photo = await store.addSitePhoto({
      bytes: new Uint8Array(jpeg),
      width: 1200,
      height: 900,
      ownerId: null,
    });
    const content: SiteContent = {
      ...defaultSiteContent,
      identity: {
        ...defaultSiteContent.identity,
        name: 'Kōwhai Glass',
        phone: { display: '07 578 2468', e164: '+6475782468' },
      },
      notice: { text: NOTICE },
      jobPhotos: [
        {
          photoId: photo.id,
          service: 'windows',
          alt: 'A new double-glazed lounge window in Bethlehem',
          caption: 'Retrofit double glazing, Bethlehem',
        },
      ],
    };
    const version = await store.createSiteContentVersion(content, null);
    await store.setSiteContentVersionState(version.version, 'live');
    await store.close();

    const env = { BUILD_DIR: buildDir, DATA_DIR: data.dir };
    const missing = await runNode(['scripts/build.ts'], { ...env, SITE_CONTENT_VERSION: '9' });
    expect(missing.code).toBe(1);
    expect(missing.output).toContain('Site content version 9 does not exist');

    const built = await runNode(['scripts/build.ts'], env);
    expect(built.code, built.output).toBe(0);
    expect(built.output).toContain(`Site content: version ${version.version} (v1-notice)`);
    const stamp = JSON.parse(readFileSync(path.join(buildDir, 'build-stamp.json'), 'utf8')) as {
      content: unknown;
    };
    expect(stamp.content).toEqual({ version: 1, key: 'v1-notice' });

    const stale = () =>
      runNode(
        [
          '--input-type=module',
          '-e',
          "import { staleReason } from './scripts/ensure-build.ts'; console.log(String(await staleReason()));",
        ],
        env,
      );
    expect((await stale()).output.trim()).toBe('null');

    server = await startSiteServer(env);
    await page.goto(`${server.url}/`);
    const notice = page.getByRole('complementary', { name: 'Notice' });
    await expect(notice).toHaveText(`Notice: ${NOTICE}`);
    // Above the header, its own box.
    const [noticeBox, headerBox] = await Promise.all([
      notice.boundingBox(),
      page.locator('.site-header').boundingBox(),
    ]);
    expect(noticeBox!.y + noticeBox!.height).toBeLessThanOrEqual(headerBox!.y + 1);
    await expect(page.locator('.site-header')).toContainText('07 578 2468');
    expect(
      await page.locator('script[type="application/ld+json"]').first().textContent(),
    ).toContain('"telephone":"+6475782468"');

    await page.goto(`${server.url}/services/windows`);
    await expect(page.getByRole('complementary', { name: 'Notice' })).toBeVisible();
    const recent = page.getByRole('region', { name: 'Recent work' });
    const image = recent.getByRole('img', {
      name: 'A new double-glazed lounge window in Bethlehem',
    });
    await expect(image).toHaveAttribute('loading', 'lazy');
    await expect(image).toHaveAttribute('width', '720');
    await expect(image).toHaveAttribute('height', '540');
    await expect(recent.locator('source[type="image/avif"]')).toHaveAttribute(
      'srcset',
      /\.avif 360w, .*\.avif 1080w, .*\.avif 1200w$/,
    );
    await expect(recent.locator('source[type="image/webp"]')).toHaveAttribute('sizes', /vw/);
    await expect(recent).toContainText('Retrofit double glazing, Bethlehem');
    await image.scrollIntoViewIfNeeded();
    await expect
      .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth))
      .toBeGreaterThan(0);

    // A service without job photos keeps its illustrations only.
    await page.goto(`${server.url}/services/doors`);
    await expect(page.getByRole('region', { name: 'Recent work' })).toHaveCount(0);

    // A newer live version makes the build stale.
    const again = await openSqliteStore({ dataDir: data.dir });
    const two = await again.createSiteContentVersion(defaultSiteContent, null);
    await again.setSiteContentVersionState(two.version, 'live');
    await again.close();
    expect((await stale()).output.trim()).toBe(
      'site content version 2 is live, the build has version 1',
    );
  } finally {
    await server?.stop();
    data.remove();
    rmSync(scratch, { recursive: true, force: true });
  }
});

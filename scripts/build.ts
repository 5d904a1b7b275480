import { spawnSync } from 'node:child_process';
import {
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import islandScript from 'astro/runtime/server/astro-island.prebuilt.js';
import sharp from 'sharp';
import { SiteContentError } from '../app/db/site-content/site-content.server.ts';
import {
  createRelease,
  linkDependencies,
  publishRelease,
  pruneReleases,
} from '../server/build-releases.ts';
import { hashSource, INLINE_CODE_FILE, type InlineCodeRecord } from '../server/csp.server.ts';
import { parseEnv } from '../server/env.server.ts';
import {
  CONTENT_DIR_NAME,
  contentForBuild,
  fallbackContent,
  openStoreForBuild,
  pruneJobPhotoCache,
  requestedVersion,
  SiteContentBuildError,
  writeContentFiles,
  type BuiltContentFile,
} from '../server/site-content-build.server.ts';
import {
  buildDir,
  currentPublicConfig,
  root,
  STAMP_FILE_NAME,
  type BuildStamp,
} from './build-config.ts';
import { deferPageScripts } from './defer-scripts.ts';

/**
 * `npm run build`: the Astro build (every content page prerendered),
 * then the raster images that must exist as PNG (share image, touch icon),
 * then the pages' scripts deferred until they have loaded and painted, then precompression and the stamp that tells ensure-build.ts what this build was made from.
 *
 * Everything is written to a new release folder; only when it is complete
 * does BUILD_DIR switch to it, in one rename (server/build-releases.ts), so a
 * running server never sees a build half made.
 *
 * The site content comes from the store (docs/operations.md#site-content):
 * SITE_CONTENT_VERSION when set, else the newest live version, else the
 * shipped defaults (version 0). It is checked, written with the job photos
 * it names to a folder Astro reads (SITE_CONTENT_FILE, astro.config.ts), and
 * kept in the release as `content/`.
 */

const startedAt = Date.now();
const publicConfig = currentPublicConfig();

let built: BuiltContentFile;
const contentStaging = mkdtempSync(path.join(tmpdir(), 'glass-site-content-'));
let contentFile: string;
let fallbackUsed = false;
/** Why the store could not be read, in words (never the DATABASE_URL). */
const storeProblem = (problem: unknown) => {
  const { message, code } = problem as { message?: unknown; code?: unknown };
  return (typeof message === 'string' && message) || (typeof code === 'string' && code) || 'error';
};
{
  const env = parseEnv();
  let store: Awaited<ReturnType<typeof openStoreForBuild>> = null;
  let requested: number | undefined;
  try {
    requested = requestedVersion(process.env.SITE_CONTENT_VERSION);
    store = await openStoreForBuild(env);
    built = await contentForBuild(store, requested, new Date(startedAt));
    contentFile = await writeContentFiles(contentStaging, built, store);
  } catch (problem) {
    if (problem instanceof SiteContentBuildError || problem instanceof SiteContentError) {
      rmSync(contentStaging, { recursive: true, force: true });
      console.error(problem.message);
      process.exit(1);
    }
    // The store cannot be read (a database that is down). A version asked
    // for (the builder) is only in the store: it fails, and
    // the publisher tries again. Otherwise (npm start, npm run build) the
    // site is built from what it serves, so a deploy during an outage
    // never takes it down; the publisher catches up once the store answers.
    if (requested !== undefined) {
      rmSync(contentStaging, { recursive: true, force: true });
      throw problem;
    }
    rmSync(contentStaging, { recursive: true, force: true });
    mkdirSync(contentStaging);
    const fallback = await fallbackContent(buildDir, contentStaging, new Date(startedAt));
    built = fallback.built;
    contentFile = fallback.file;
    fallbackUsed = true;
    console.warn(
      `Cannot read the site content (${storeProblem(problem)}); building from ` +
        (fallback.release
          ? `the content of the release being served (version ${built.version})`
          : 'the shipped defaults (no release served has any)') +
        '; the server builds the published content once the lead store answers.',
    );
  } finally {
    await store?.close().catch(() => undefined);
  }
}
if (!fallbackUsed)
  console.log(
    built.version === 0
      ? 'Site content: the shipped defaults (nothing published yet)'
      : `Site content: version ${built.version} (${built.key})`,
  );

const release = createRelease(buildDir);
linkDependencies(buildDir, path.join(root, 'node_modules'));
// Astro writes its generated types and content store to `.astro/` in the
// project. Where the project is read-only (the systemd unit) that is a link
// to a writable folder (deploy/README.md), made here if it is missing.
const dotAstro = path.join(root, '.astro');
if (lstatSync(dotAstro, { throwIfNoEntry: false })?.isSymbolicLink()) {
  mkdirSync(path.resolve(root, readlinkSync(dotAstro)), { recursive: true });
}

const result = spawnSync('astro', ['build'], {
  cwd: root,
  stdio: 'inherit',
  // astro.config.ts writes there; BUILD_DIR stays the served link. No
  // usage reports leave the machine (Astro's telemetry).
  env: {
    ...process.env,
    BUILD_OUTPUT_DIR: release,
    ASTRO_TELEMETRY_DISABLED: '1',
    SITE_CONTENT_FILE: contentFile,
  },
});
if (result.status !== 0) {
  rmSync(contentStaging, { recursive: true, force: true });
  process.exit(result.status ?? 1);
}
// Astro's image cache keeps no copy of a job photo this build does not
// show (a photo taken off the site): it is where astro.config.ts puts it.
const buildCacheDir = process.env.BUILD_CACHE_DIR?.trim();
pruneJobPhotoCache(
  buildCacheDir
    ? path.resolve(buildCacheDir, 'astro/assets')
    : path.join(root, 'node_modules/.astro/assets'),
  path.join(release, 'client/assets'),
);
// What this release was built from, beside it (never served: outside client/).
cpSync(contentStaging, path.join(release, CONTENT_DIR_NAME), { recursive: true });
rmSync(contentStaging, { recursive: true, force: true });

const clientDir = path.join(release, 'client');
mkdirSync(clientDir, { recursive: true });

// The one page list (app/site-pages.ts, which /sitemap.xml is built from)
// and the pages Astro prerendered must agree: every listed page built, and
// every built page listed or kept out of search (noindex: /thank-you).
const sitemap = readFileSync(path.join(clientDir, 'sitemap.xml'), 'utf8');
const listed = new Set(
  [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) =>
    decodeURIComponent(new URL(match[1]!.replace(/&amp;/g, '&')).pathname),
  ),
);
const builtPages = readdirSync(clientDir, { recursive: true, encoding: 'utf8' })
  .map((file) => file.split(path.sep).join('/'))
  .filter((file) => file === 'index.html' || file.endsWith('/index.html'));
const problems = [
  ...[...listed]
    .filter((page) => !builtPages.includes(`${page.slice(1)}/index.html`.replace(/^\//, '')))
    .map((page) => `${page} is in the sitemap but was not built`),
  ...builtPages
    .filter((file) => !listed.has(`/${file.replace(/\/?index\.html$/, '')}`))
    .filter(
      (file) =>
        !/<meta name="robots" content="noindex/.test(
          readFileSync(path.join(clientDir, file), 'utf8'),
        ),
    )
    .map((file) => `${file} was built but is not in the sitemap (nor noindex)`),
];
if (problems.length > 0) {
  console.error(`The prerendered pages and app/site-pages.ts disagree:\n${problems.join('\n')}`);
  process.exit(1);
}

// Social networks do not show SVG: the share image is composed and rendered
// to PNG here, from the business identity built and the hero illustration.
const identity = built.content.identity;
const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const shareCard = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630">
  <rect width="1200" height="630" fill="#0b2e3f"/>
  <rect x="0" y="560" width="1200" height="70" fill="#c2410c"/>
  <text x="64" y="150" font-family="DejaVu Sans, Arial, sans-serif" font-size="54" font-weight="bold" fill="#ffffff">${escapeXml(identity.name)}</text>
  <text x="64" y="230" font-family="DejaVu Sans, Arial, sans-serif" font-size="32" fill="#e3f3f7">Glass repairs, replacement</text>
  <text x="64" y="276" font-family="DejaVu Sans, Arial, sans-serif" font-size="32" fill="#e3f3f7">and installation in Tauranga</text>
  <text x="64" y="360" font-family="DejaVu Sans, Arial, sans-serif" font-size="28" fill="#7cc4d6">${escapeXml(built.content.hours.emergency.hours)} emergency service · Free quotes</text>
  <text x="64" y="606" font-family="DejaVu Sans, Arial, sans-serif" font-size="30" font-weight="bold" fill="#ffffff">${escapeXml(identity.phone.display)}</text>
</svg>`;
const hero = await sharp(path.join(root, 'public/images/hero.svg'))
  .resize(560, 420)
  .png()
  .toBuffer();
await sharp(Buffer.from(shareCard))
  .composite([{ input: hero, left: 600, top: 110 }])
  .png({ compressionLevel: 9 })
  .toFile(path.join(clientDir, 'og-image.png'));
await sharp(path.join(root, 'public/favicon.svg'), { density: 400 })
  .resize(180, 180)
  .png({ compressionLevel: 9 })
  .toFile(path.join(clientDir, 'apple-touch-icon.png'));
// For browsers that take no SVG icon: a PNG, which every browser takes (an
// .ico file would need a container format sharp does not write).
await sharp(path.join(root, 'public/favicon.svg'), { density: 200 })
  .resize(32, 32)
  .png({ compressionLevel: 9 })
  .toFile(path.join(clientDir, 'favicon-32.png'));

// The pages' own scripts and Astro's island runtime wait until the page has
// loaded and painted, so the first paint gets the bandwidth
// (scripts/defer-scripts.ts). A page whose script tag is
// not the shape expected fails the build, so an Astro upgrade cannot quietly
// undo it. What each page runs inline is recorded by hash, as written
// here, for its Content Security Policy (server/csp.server.ts).
const inlineCode: InlineCodeRecord = { pages: {} };
let deferred = 0;
for (const file of builtPages) {
  const full = path.join(clientDir, file);
  const html = readFileSync(full, 'utf8');
  const page = deferPageScripts(html);
  if (page.html === html || /<script type="module" src=/.test(page.html)) {
    console.error(`Cannot defer the scripts of ${file}: no module script of the expected shape`);
    process.exit(1);
  }
  // An island (its element has quoted attributes, which owner text cannot
  // spell) needs Astro's island runtime, recognised above.
  if (html.includes('<astro-island uid="') && !page.scripts.includes(islandScript)) {
    console.error(`Cannot defer the scripts of ${file}: no island runtime of the expected shape`);
    process.exit(1);
  }
  writeFileSync(full, page.html);
  inlineCode.pages[file] = {
    scripts: page.scripts.map(hashSource),
    styles: page.styles.map(hashSource),
  };
  deferred += 1;
}
writeFileSync(path.join(release, INLINE_CODE_FILE), `${JSON.stringify(inlineCode, null, 2)}\n`);
console.log(
  `Deferred the scripts of ${deferred} prerendered pages until they have loaded and painted`,
);

// Text files are compressed once, at the highest settings, so the server
// sends them without compressing on every request (server/static.server.ts).
const compressible = /\.(?:js|css|html|svg|xml|txt|json|webmanifest)$/;
let precompressed = 0;
for (const file of readdirSync(clientDir, { recursive: true, encoding: 'utf8' })) {
  if (!compressible.test(file)) continue;
  const full = path.join(clientDir, file);
  const body = readFileSync(full);
  if (body.length < 512) continue;
  writeFileSync(
    `${full}.br`,
    brotliCompressSync(body, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  );
  writeFileSync(`${full}.gz`, gzipSync(body, { level: 9 }));
  precompressed += 1;
}
console.log(`Precompressed ${precompressed} files (brotli, gzip)`);

const stamp: BuildStamp = {
  builtAt: startedAt,
  publicConfig,
  content: { version: built.version, key: built.key },
};
writeFileSync(path.join(release, STAMP_FILE_NAME), `${JSON.stringify(stamp, null, 2)}\n`);

publishRelease(buildDir, release);
const removed = pruneReleases(buildDir);
console.log(
  `Build complete in ${((Date.now() - startedAt) / 1000).toFixed(1)} s: ${path.relative(root, buildDir)} → ${path.relative(root, release)}` +
    (removed.length
      ? ` (${removed.length} older build${removed.length > 1 ? 's' : ''} removed)`
      : ''),
);

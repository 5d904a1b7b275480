import node from '@astrojs/node';
import react from '@astrojs/react';
import { defineConfig } from 'astro/config';
import type { AstroIntegration } from 'astro';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { usePublishedContent } from './app/content/published.ts';
import { checkSiteContent, describeProblems } from './app/content/site-content.ts';
import type * as DevFront from './server/dev-front.server.ts';
import { parseEnv } from './server/env.server.ts';
import { ownerAppPlugin } from './scripts/owner-app.ts';

// The public part of the environment is baked into the prerendered pages at
// build time (canonical links, JSON-LD, analytics id). scripts/ensure-build.ts
// rebuilds when any of these values change. Secrets never reach this object.
const env = parseEnv();
// Astro's and Vite's caches: under node_modules by default, or in
// BUILD_CACHE_DIR where the project folder is read-only (the systemd unit,
// docs/operations.md "Publishing the site").
const buildCacheDir = process.env.BUILD_CACHE_DIR?.trim() || undefined;
export const publicConfig = {
  siteUrl: env.SITE_URL,
  gtagId: env.GTAG_ID ?? '',
  adsConversionSendTo: env.ADS_CONVERSION_SEND_TO ?? '',
  leadRetentionDays: env.LEAD_RETENTION_DAYS,
};

/**
 * The site content the build was given (docs/operations.md#site-content):
 * scripts/build.ts writes it with the job photos it names and sets
 * SITE_CONTENT_FILE. It is put in place for the pages this build prerenders
 * (app/content/published.ts), as data: no bundle carries it, so the code
 * built is the same whatever the content (the server reads the content of
 * the release it serves). The photos are the folder `@site-photos` (the
 * service pages' "Recent work"). Without it (`astro dev`, a bare
 * `astro build`) the shipped defaults apply and there are no job photos.
 */
function siteContentBuild(): { photosDir: string } {
  const file = process.env.SITE_CONTENT_FILE;
  if (!file) return { photosDir: path.resolve('app/content/no-job-photos') };
  const built = JSON.parse(readFileSync(file, 'utf8')) as { version: number; content: unknown };
  const checked = checkSiteContent(built.content);
  if (!checked.ok) {
    throw new Error(`${file} is not valid site content:\n${describeProblems(checked.problems)}`);
  }
  usePublishedContent({ version: built.version, content: checked.content });
  return {
    photosDir: path.join(path.dirname(path.resolve(file)), 'photos'),
  };
}
const siteContent = siteContentBuild();

/** `client:afterload` (app/directives/after-load.ts): how the islands hydrate. */
const afterLoadDirective: AstroIntegration = {
  name: 'client-after-load',
  hooks: {
    'astro:config:setup': ({ addClientDirective }) => {
      addClientDirective({
        name: 'afterload',
        entrypoint: new URL('./app/directives/after-load.ts', import.meta.url).pathname,
      });
    },
  },
};

/**
 * `npm run dev`: the production server's lead pipeline, POST /api/leads and
 * its table of on-demand pages in front of Astro's development server
 * (server/dev-front.server.ts), so form posts and the blog search behave as
 * they do behind `npm start`. Started only by the development server.
 */
const devFront: AstroIntegration = {
  name: 'dev-front',
  hooks: {
    'astro:server:setup': async ({ server }) => {
      // Loaded by Node itself: the loader that read this file is closed by
      // now, and the store loads its driver when it first opens.
      const load = createRequire(import.meta.url);
      const { createDevFront } = load('./server/dev-front.server.ts') as typeof DevFront;
      const front = await createDevFront();
      server.middlewares.use(front.handle);
      server.httpServer?.once('close', () => void front.close());
    },
  },
};

/**
 * Astro builds the pages from the React components (docs/decisions/0006):
 * every content page is prerendered to HTML, and only the islands (the lead
 * forms, the blog search) ship React to the browser. What must answer a
 * request (a form posted without JavaScript, a blog search without
 * JavaScript, the 404 page) is an on-demand page of the server build, which
 * Express mounts as middleware (server/app.server.ts).
 */
export default defineConfig({
  srcDir: './app',
  publicDir: './public',
  // scripts/build.ts builds into a new release folder (BUILD_OUTPUT_DIR), then
  // points BUILD_DIR at it (server/build-releases.ts).
  outDir: process.env.BUILD_OUTPUT_DIR ?? process.env.BUILD_DIR ?? 'build',
  ...(buildCacheDir ? { cacheDir: path.resolve(buildCacheDir, 'astro') } : {}),
  site: env.SITE_URL,
  output: 'static',
  adapter: node({ mode: 'middleware' }),
  integrations: [react(), afterLoadDirective, devFront],
  // Express answers trailing slashes with a 301 (server/trailing-slash.server.ts).
  trailingSlash: 'ignore',
  // Hashed files under /assets, cached for a year by the server.
  build: { format: 'directory', inlineStylesheets: 'never', assets: 'assets' },
  // Express checks the origin of every form post before Astro sees it
  // (the lead guards of server/lead-api.server.ts), as for the API.
  security: { checkOrigin: false },
  devToolbar: { enabled: false },
  vite: {
    ...(buildCacheDir ? { cacheDir: path.resolve(buildCacheDir, 'vite') } : {}),
    resolve: { alias: { '@site-photos': siteContent.photosDir } },
    // The owner's service worker and app icons, for their endpoints under /admin.
    plugins: [ownerAppPlugin()],
    define: {
      'import.meta.env.PUBLIC_SITE_URL': JSON.stringify(publicConfig.siteUrl),
      'import.meta.env.PUBLIC_GTAG_ID': JSON.stringify(publicConfig.gtagId),
      'import.meta.env.PUBLIC_ADS_CONVERSION_SEND_TO': JSON.stringify(
        publicConfig.adsConversionSendTo,
      ),
      'import.meta.env.PUBLIC_LEAD_RETENTION_DAYS': JSON.stringify(publicConfig.leadRetentionDays),
    },
    build: {
      // Keep small SVG illustrations and scripts as files: they are cached,
      // and the CSP allows no inline script that the build did not hash.
      assetsInlineLimit: 0,
    },
  },
});

import type { Config } from '@react-router/dev/config';
import { prerenderPaths } from './app/site-pages.ts';

export default {
  appDirectory: 'app',
  // scripts/build.ts builds into a new release folder (BUILD_OUTPUT_DIR), then
  // points BUILD_DIR at it (server/build-releases.ts).
  buildDirectory: process.env.BUILD_OUTPUT_DIR ?? process.env.BUILD_DIR ?? 'build',
  // Server rendering stays on for what must answer a request: form actions,
  // the 404 page and redirects. Every content page is prerendered.
  ssr: true,
  prerender: { paths: [...prerenderPaths], concurrency: 2 },
  // Load the whole (small) route manifest with the page, so a static host
  // needs no /__manifest endpoint.
  routeDiscovery: { mode: 'initial' },
} satisfies Config;

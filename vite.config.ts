import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';
import { blogArticles } from './app/lib/blog/vite-plugin.ts';
import { parseEnv } from './server/env.server.ts';

// The public part of the environment is baked into the prerendered pages at
// build time (canonical links, JSON-LD, analytics id). scripts/ensure-build.ts
// rebuilds when any of these values change. Secrets never reach this object.
const env = parseEnv();
export const publicConfig = {
  siteUrl: env.SITE_URL,
  gtagId: env.GTAG_ID ?? '',
  adsConversionSendTo: env.ADS_CONVERSION_SEND_TO ?? '',
  leadRetentionDays: env.LEAD_RETENTION_DAYS,
};

export default defineConfig({
  // blogArticles: the Markdown articles become HTML and figures at build time.
  plugins: [blogArticles({ siteUrl: publicConfig.siteUrl }), reactRouter()],
  define: {
    'import.meta.env.PUBLIC_SITE_URL': JSON.stringify(publicConfig.siteUrl),
    'import.meta.env.PUBLIC_GTAG_ID': JSON.stringify(publicConfig.gtagId),
    'import.meta.env.PUBLIC_ADS_CONVERSION_SEND_TO': JSON.stringify(
      publicConfig.adsConversionSendTo,
    ),
    'import.meta.env.PUBLIC_LEAD_RETENTION_DAYS': JSON.stringify(publicConfig.leadRetentionDays),
  },
  build: {
    // Keep small SVG illustrations as files: they are cached and lazy-loaded.
    assetsInlineLimit: 0,
    // Every build goes to a new release folder (scripts/build.ts); emptying
    // it would only remove the mark that keeps it while it is being built.
    emptyOutDir: false,
  },
});

/**
 * The owner's pages as an installable app (docs/operations.md, "Owner's
 * pages"): their web app manifest, served at /admin/manifest.webmanifest
 * (app/pages/admin/manifest.webmanifest.ts) and linked from every owner's
 * page (app/layouts/AdminLayout.astro), with the service worker
 * (/admin/sw.js) and the icons (/admin/icons/NAME.png) that
 * scripts/owner-app.ts builds.
 *
 * The app opens on the inbox, /admin, and covers every owner's page. Its
 * scope is `/admin`, not `/admin/`: a scope is a prefix of the URLs it
 * covers, and `/admin/` is no prefix of `/admin`, so the inbox itself would
 * be outside the app (a browser then ignores such a scope, and the whole
 * site would be in it). The service worker's scope is the same.
 */

export const OWNER_APP_SCOPE = '/admin';
export const OWNER_APP_START = '/admin';
export const SERVICE_WORKER_PATH = '/admin/sw.js';
export const MANIFEST_PATH = '/admin/manifest.webmanifest';
export const APPLE_TOUCH_ICON_PATH = '/admin/icons/apple-touch-icon.png';
/** The header's colour on the owner's pages (admin.css, --c-teal-800). */
export const OWNER_THEME_COLOUR = '#0f4c63';
/** The owner's pages' background (admin.css, --c-grey): the splash screen's. */
export const OWNER_BACKGROUND_COLOUR = '#f1f5f9';

export interface WebAppManifest {
  id: string;
  name: string;
  short_name: string;
  description: string;
  lang: string;
  dir: 'ltr';
  start_url: string;
  scope: string;
  display: 'standalone';
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: 'image/png'; purpose: 'any' | 'maskable' }[];
}

/** The manifest, named after the business served now. */
export function ownerAppManifest(businessName: string): WebAppManifest {
  return {
    id: OWNER_APP_START,
    name: `${businessName}: enquiries`,
    short_name: 'Enquiries',
    description: 'Your website’s enquiries, and alerts for them on this phone.',
    lang: 'en-NZ',
    dir: 'ltr',
    start_url: OWNER_APP_START,
    scope: OWNER_APP_SCOPE,
    display: 'standalone',
    theme_color: OWNER_THEME_COLOUR,
    background_color: OWNER_BACKGROUND_COLOUR,
    icons: [
      { src: '/admin/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/admin/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      {
        src: '/admin/icons/maskable-512.png',
        sizes: '512x512',
        type: 'image/png',
        purpose: 'maskable',
      },
    ],
  };
}

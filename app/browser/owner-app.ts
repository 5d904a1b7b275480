/**
 * Makes the owner's pages an app on this phone or computer
 * (docs/operations.md, "Owner's pages"): registers their service worker
 * (owner-sw.ts, served at /admin/sw.js) for the scope /admin, on every
 * owner's page once signed in (app/layouts/AdminLayout.astro). The worker
 * only shows the notifications the site pushes; a browser without service
 * workers simply has none, and the pages work the same.
 */
import { OWNER_APP_SCOPE, SERVICE_WORKER_PATH } from '../owner/owner-app.ts';

if ('serviceWorker' in navigator && document.body.hasAttribute('data-owner-app')) {
  navigator.serviceWorker
    .register(SERVICE_WORKER_PATH, { scope: OWNER_APP_SCOPE })
    .catch(() => undefined);
}

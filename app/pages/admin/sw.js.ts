import type { APIRoute } from 'astro';
import { serviceWorker } from 'virtual:owner-app';
import { ownerPage } from '../../owner/owner-page.server.ts';

/**
 * GET /admin/sw.js: the owner's pages' service worker
 * (app/browser/owner-sw.ts, bundled by scripts/owner-app.ts). Anyone may
 * fetch it (the gate lets the app's files through; it holds nothing of
 * anyone), so the browser can check it for updates whether or not a session
 * is still going; never cached (the gate's no-store), so a new version
 * reaches the phone at its next check. Its scope is /admin, the inbox and
 * every page under it, which `Service-Worker-Allowed` permits: a worker's
 * scope is a prefix of the URLs it covers, and `/admin/` is no prefix of
 * `/admin`.
 */
export const prerender = false;

export const GET: APIRoute = async (api) => {
  const route = await ownerPage(api, { open: true });
  if (route instanceof Response) return route;
  return new Response(serviceWorker, {
    headers: {
      'content-type': 'text/javascript; charset=utf-8',
      'service-worker-allowed': '/admin',
    },
  });
};

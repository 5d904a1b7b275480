import type { APIRoute } from 'astro';
import { ownerPage } from '../../../owner/owner-page.server.ts';
import { publishStatus } from '../../../owner/site-status.server.ts';

/**
 * GET /admin/site/status: where publishing stands, as JSON, for the
 * publishing bar's script (app/browser/owner-publish.ts) while a version is
 * on its way. Owners only (the gate in front of /admin, then ownerPage),
 * never cached.
 */
export const prerender = false;

export const GET: APIRoute = async (api) => {
  const route = await ownerPage(api);
  if (route instanceof Response) return route;
  const status = await publishStatus(route.context.store, route.context.publishing);
  return new Response(JSON.stringify(status), {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
    },
  });
};

import type { APIRoute } from 'astro';
import { icons } from 'virtual:owner-app';
import { ownerPage } from '../../../owner/owner-page.server.ts';

/**
 * GET /admin/icons/NAME.png: the owner's pages' app icons, drawn as
 * app/owner/app-icon.svg and rendered by the build (scripts/owner-app.ts).
 * Anyone may fetch them: a browser fetches a manifest's icons without
 * cookies.
 */
export const prerender = false;

export const GET: APIRoute = async (api) => {
  const route = await ownerPage(api, { open: true });
  if (route instanceof Response) return route;
  const name = api.params.icon ?? '';
  const png = Object.hasOwn(icons, name) ? icons[name] : undefined;
  if (png === undefined) return api.rewrite('/404');
  return new Response(Buffer.from(png, 'base64'), { headers: { 'content-type': 'image/png' } });
};

import type { APIRoute } from 'astro';
import { business } from '../../content/business.ts';
import { ownerAppManifest } from '../../owner/owner-app.ts';
import { ownerPage } from '../../owner/owner-page.server.ts';

/**
 * GET /admin/manifest.webmanifest: the owner's pages' web app manifest
 * (app/owner/owner-app.ts). Anyone may fetch it: a browser fetches a
 * manifest without cookies, and it holds nothing but the business's name.
 */
export const prerender = false;

export const GET: APIRoute = async (api) => {
  const route = await ownerPage(api, { open: true });
  if (route instanceof Response) return route;
  return new Response(JSON.stringify(ownerAppManifest(business.name)), {
    headers: { 'content-type': 'application/manifest+json; charset=utf-8' },
  });
};

import type { APIRoute } from 'astro';
import { ownerPage } from '../../../../owner/owner-page.server.ts';

/**
 * /admin/site/photos/ID.jpg: a stored job photo, for the owner's pages
 * only (the gate in front of /admin; docs/operations.md "Owner's pages").
 * Visitors get job photos from the build, never from here.
 */
export const prerender = false;

const PHOTO_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const GET: APIRoute = async (api) => {
  const route = await ownerPage(api);
  if (route instanceof Response) return route;
  const id = api.params.id ?? '';
  const photo = PHOTO_ID.test(id) ? await route.context.store.sitePhoto(id) : null;
  if (!photo) return new Response('No such photo', { status: 404 });
  return new Response(new Uint8Array(photo.bytes), {
    headers: {
      'content-type': 'image/jpeg',
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    },
  });
};

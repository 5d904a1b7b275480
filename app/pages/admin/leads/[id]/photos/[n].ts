import type { APIRoute } from 'astro';
import { ownerPage } from '../../../../../owner/owner-page.server.ts';

/**
 * GET /admin/leads/ID/photos/N: photo N (from 1) of a lead, full size, for
 * the lead's page (docs/operations.md "Owner's pages"). Behind the /admin
 * gate like every owner's page: without a session it is never reached, and
 * its answer is private (`Cache-Control: no-store`). The stored JPEG is
 * already bare of metadata (docs/operations.md#photos-with-an-enquiry).
 */
export const prerender = false;

/** 1 to 999, without a leading zero: anything else names no photo. */
const NUMBER = /^[1-9][0-9]{0,2}$/;

export const GET: APIRoute = async (api) => {
  const { params } = api;
  const route = await ownerPage(api);
  if (route instanceof Response) return route;
  const n = params.n ?? '';
  const photo = NUMBER.test(n)
    ? await route.context.store.getLeadPhoto(params.id ?? '', Number(n) - 1)
    : null;
  if (!photo) {
    return new Response('No such photo.', {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
  return new Response(new Uint8Array(photo.data), {
    headers: {
      'Content-Type': 'image/jpeg',
      'Content-Length': String(photo.data.byteLength),
      'Content-Disposition': `inline; filename="photo-${n}.jpg"`,
      'X-Content-Type-Options': 'nosniff',
    },
  });
};

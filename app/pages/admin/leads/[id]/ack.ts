import type { APIRoute } from 'astro';
import { acknowledgeLead } from '../../../../owner/inbox.server.ts';
import { noSuchEnquiry, ownerPage, postOnly } from '../../../../owner/owner-page.server.ts';

/**
 * POST /admin/leads/ID/ack: "I'm on it" (docs/operations.md, "I'm on it"
 * and escalation), from the button on the lead's page (a form: answered
 * with a redirect back to the page, so it works without JavaScript) or
 * from the action on the phone's notification (the service worker's fetch
 * with `Accept: application/json`: answered with the acknowledgement as
 * JSON). The first owner on it stays; asking again changes nothing. A GET
 * (a prefetch, a link followed) is refused and changes nothing.
 */
export const prerender = false;

export const GET: APIRoute = postOnly('Use the “I’m on it” button on the enquiry’s page.');

const wantsJson = (request: Request) =>
  (request.headers.get('accept') ?? '').toLowerCase().includes('application/json');

export const POST: APIRoute = async (api) => {
  const route = await ownerPage(api, { methods: ['POST'] });
  if (route instanceof Response) return route;
  const { context, owner } = route;
  const id = api.params.id ?? '';
  const json = wantsJson(api.request);
  const result = await acknowledgeLead(context.store, owner, id);
  if (!result) {
    return json
      ? Response.json({ error: 'There is no such enquiry.' }, { status: 404 })
      : noSuchEnquiry();
  }
  if (json) return Response.json({ id, ...result });
  return api.redirect(`/admin/leads/${encodeURIComponent(id)}?done=ack`, 303);
};

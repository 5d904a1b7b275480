import type { APIRoute } from 'astro';
import { askForReview } from '../../../../owner/review-requests.server.ts';
import { ownerPage } from '../../../../owner/owner-page.server.ts';

/**
 * POST /admin/leads/ID/review-request: "Ask for a review" (or "Ask again",
 * with `again=1`) on a won enquiry's page (docs/operations.md, "Reviews").
 * A form post, answered with a redirect back to the page with what
 * happened, so it works without JavaScript. A GET changes nothing.
 */
export const prerender = false;

export const GET: APIRoute = () =>
  new Response('Use the “Ask for a review” button on the enquiry’s page.', {
    status: 405,
    headers: { Allow: 'POST', 'Content-Type': 'text/plain; charset=utf-8' },
  });

export const POST: APIRoute = async (api) => {
  const route = await ownerPage(api, { methods: ['POST'] });
  if (route instanceof Response) return route;
  const { context, owner } = route;
  const id = api.params.id ?? '';
  const form = await route.readForm(1024);
  const again = form?.get('again') === '1';
  const result = await askForReview(context, owner, id, { again });
  if (result.kind === 'gone') {
    return new Response('There is no such enquiry.', {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
  return api.redirect(`/admin/leads/${encodeURIComponent(id)}?done=review-${result.kind}`, 303);
};

import type { APIRoute } from 'astro';
import { askForReview } from '../../../../owner/review-requests.server.ts';
import { noSuchEnquiry, ownerPage, postOnly } from '../../../../owner/owner-page.server.ts';

/**
 * POST /admin/leads/ID/review-request: "Ask for a review" (or "Ask again",
 * with `again=1`) on a won enquiry's page (docs/operations.md, "Reviews").
 * A form post, answered with a redirect back to the page with what
 * happened, so it works without JavaScript. A GET changes nothing.
 */
export const prerender = false;

export const GET: APIRoute = postOnly('Use the “Ask for a review” button on the enquiry’s page.');

export const POST: APIRoute = async (api) => {
  const route = await ownerPage(api, { methods: ['POST'] });
  if (route instanceof Response) return route;
  const { context, owner } = route;
  const id = api.params.id ?? '';
  const form = await route.readForm(1024);
  const again = form?.get('again') === '1';
  const result = await askForReview(context, owner, id, { again });
  if (result.kind === 'gone') {
    return noSuchEnquiry();
  }
  return api.redirect(`/admin/leads/${encodeURIComponent(id)}?done=review-${result.kind}`, 303);
};

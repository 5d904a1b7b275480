import type { APIRoute } from 'astro';
import { ACTIVITY, activity, exportPerson } from '../../../../leads/person-data.server.ts';
import { noSuchEnquiry, ownerPage, postOnly } from '../../../../owner/owner-page.server.ts';

/**
 * POST /admin/leads/ID/export.json: "Download everything about this person"
 * on a lead's page (a form's button, so it works without JavaScript): the
 * same JSON as `npm run leads -- export --email` for the lead's address
 * (app/leads/person-data.server.ts), as a file. Noted in the activity list
 * with the lead's id and a count, so only a POST does it: a GET (a
 * prefetch, a scanner following a link) is refused and writes nothing.
 */
export const prerender = false;

export const GET: APIRoute = postOnly('Use the button on the enquiry’s page to download this.');

export const POST: APIRoute = async (api) => {
  const route = await ownerPage(api, { methods: ['POST'] });
  if (route instanceof Response) return route;
  const { context, owner } = route;
  const lead = await context.store.getLead(api.params.id ?? '');
  if (!lead) {
    return noSuchEnquiry();
  }
  const { leads, json } = await exportPerson(context.store, lead.email);
  await context.store.recordActivity(
    activity(owner.email, ACTIVITY.personExported, { lead: lead.id, count: leads.length }),
  );
  return new Response(json, {
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="enquiries-${lead.id}.json"`,
    },
  });
};

import type { APIRoute } from 'astro';
import { googleAdsCsv } from '../../../owner/google-ads.server.ts';
import { ownerPage } from '../../../owner/owner-page.server.ts';

/**
 * GET /admin/reports/google-ads.csv: "Download for Google Ads" on the report
 * (docs/operations.md#won-jobs-for-google-ads): the same file as
 * `npm run leads -- export --google-ads`, as an attachment. A GET, as a
 * link is: it changes nothing, and the gate lets only an owner read it.
 */
export const prerender = false;

export const GET: APIRoute = async (api) => {
  const route = await ownerPage(api);
  if (route instanceof Response) return route;
  const { context } = route;
  const csv = googleAdsCsv(await context.store.exportLeads(), {
    name: context.adsConversionName,
    now: new Date(),
  });
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="won-jobs-for-google-ads.csv"',
    },
  });
};

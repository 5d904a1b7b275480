import type { APIRoute } from 'astro';
import { failedAnswer, jsonAnswer, signInOptions } from '../../../owner/sign-in.server.ts';
import { ownerPage } from '../../../owner/owner-page.server.ts';

/**
 * POST /admin/sign-in/options: the options for signing in with a passkey
 * (any passkey this site's owners hold); refused while this client is over
 * its limit of failed attempts.
 */
export const prerender = false;

export const POST: APIRoute = async (api) => {
  const route = await ownerPage(api, { methods: ['POST'], open: true });
  if (route instanceof Response) return route;
  const answer = await signInOptions(route.context, api.locals.client ?? 'unknown');
  if (!answer.ok) return failedAnswer(answer);
  return jsonAnswer(200, { ok: true, options: answer.value });
};

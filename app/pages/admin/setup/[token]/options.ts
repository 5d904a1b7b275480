import type { APIRoute } from 'astro';
import { failedAnswer, jsonAnswer, setupOptions } from '../../../../owner/sign-in.server.ts';
import { ownerPage } from '../../../../owner/owner-page.server.ts';

/**
 * POST /admin/setup/<token>/options: the options for creating a passkey,
 * for the owner this set-up link is for. The link is not used here; its
 * challenge is kept in the store (app/owner/passkeys.server.ts).
 */
export const prerender = false;

export const POST: APIRoute = async (api) => {
  const route = await ownerPage(api, { methods: ['POST'], open: true });
  if (route instanceof Response) return route;
  const answer = await setupOptions(route.context, api.params.token);
  if (!answer.ok) return failedAnswer(answer);
  return jsonAnswer(200, { ok: true, options: answer.value });
};

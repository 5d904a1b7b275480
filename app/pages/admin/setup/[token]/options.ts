import type { APIRoute } from 'astro';
import { failedAnswer, jsonAnswer, setupOptions } from '../../../../owner/sign-in.server.ts';

/**
 * POST /admin/setup/<token>/options: the options for creating a passkey,
 * for the owner this set-up link is for. The link is not used here; its
 * challenge is kept in the store (app/owner/passkeys.server.ts).
 */
export const prerender = false;

export const POST: APIRoute = async ({ locals, params }) => {
  const context = locals.ownerPages;
  if (!context) return new Response(null, { status: 404 });
  const answer = await setupOptions(context, params.token);
  if (!answer.ok) return failedAnswer(answer);
  return jsonAnswer(200, { ok: true, options: answer.value });
};

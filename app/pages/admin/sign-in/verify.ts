import type { APIRoute } from 'astro';
import {
  failedAnswer,
  finishPasskeySignIn,
  jsonAnswer,
  readJson,
  setSessionCookie,
} from '../../../owner/sign-in.server.ts';

/**
 * POST /admin/sign-in/verify: a passkey's answer. A failure counts against
 * this client and the passkey's owner (app/owner/limits.server.ts); a
 * success starts a session.
 */
export const prerender = false;

export const POST: APIRoute = async ({ locals, request, cookies }) => {
  const context = locals.ownerPages;
  if (!context) return new Response(null, { status: 404 });
  const body = await readJson(request);
  const answer = await finishPasskeySignIn(
    context,
    (body as { response?: unknown } | undefined)?.response,
    locals.client ?? 'unknown',
  );
  if (!answer.ok) return failedAnswer(answer);
  setSessionCookie(cookies, context, answer.value);
  return jsonAnswer(200, { ok: true, next: '/admin' });
};

import type { APIRoute } from 'astro';
import {
  failedAnswer,
  finishPasskeySignIn,
  jsonAnswer,
  readJson,
  setSessionCookie,
} from '../../../owner/sign-in.server.ts';
import { ownerPage } from '../../../owner/owner-page.server.ts';

/**
 * POST /admin/sign-in/verify: a passkey's answer. A failure counts against
 * this client and the passkey's owner (app/owner/limits.server.ts); a
 * success starts a session.
 */
export const prerender = false;

export const POST: APIRoute = async (api) => {
  const { locals, request, cookies } = api;
  const route = await ownerPage(api, { methods: ['POST'], open: true });
  if (route instanceof Response) return route;
  const { context } = route;
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

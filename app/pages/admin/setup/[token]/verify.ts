import type { APIRoute } from 'astro';
import {
  failedAnswer,
  finishSetup,
  jsonAnswer,
  readJson,
  setSessionCookie,
} from '../../../../owner/sign-in.server.ts';
import { ownerPage } from '../../../../owner/owner-page.server.ts';

/**
 * POST /admin/setup/<token>/verify: the browser's new passkey. Once it
 * verifies, the set-up link is used, the passkey stored, and the owner
 * signed in (app/owner/sign-in.server.ts).
 */
export const prerender = false;

export const POST: APIRoute = async (api) => {
  const { params, request, cookies } = api;
  const route = await ownerPage(api, { methods: ['POST'], open: true });
  if (route instanceof Response) return route;
  const { context } = route;
  const body = await readJson(request);
  const answer = await finishSetup(
    context,
    params.token,
    (body as { response?: unknown } | undefined)?.response,
    request.headers.get('user-agent'),
  );
  if (!answer.ok) return failedAnswer(answer);
  setSessionCookie(cookies, context, answer.value);
  return jsonAnswer(200, { ok: true, next: '/admin' });
};

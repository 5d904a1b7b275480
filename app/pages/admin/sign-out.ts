import type { APIRoute } from 'astro';
import { clearSessionCookie, signOut } from '../../owner/sign-in.server.ts';
import { ownerPage } from '../../owner/owner-page.server.ts';

/**
 * POST /admin/sign-out (the form in app/layouts/AdminLayout.astro): the
 * session ends in the store, the cookie is cleared, and the browser goes
 * back to the sign-in page.
 */
export const prerender = false;

export const POST: APIRoute = async (api) => {
  const { cookies, redirect } = api;
  const route = await ownerPage(api, { methods: ['POST'] });
  if (route instanceof Response) return route;
  const { context, owner } = route;
  await signOut(context, owner, cookies.get(context.cookie.name)?.value);
  clearSessionCookie(cookies, context);
  return redirect('/admin/sign-in', 303);
};

import type { APIRoute } from 'astro';
import { clearSessionCookie, signOut } from '../../owner/sign-in.server.ts';

/**
 * POST /admin/sign-out (the form in app/layouts/AdminLayout.astro): the
 * session ends in the store, the cookie is cleared, and the browser goes
 * back to the sign-in page.
 */
export const prerender = false;

export const POST: APIRoute = async ({ locals, cookies, redirect }) => {
  const context = locals.ownerPages;
  if (!context) return new Response(null, { status: 404 });
  await signOut(context, locals.owner, cookies.get(context.cookie.name)?.value);
  clearSessionCookie(cookies, context);
  return redirect('/admin/sign-in', 303);
};

import type { APIContext } from 'astro';
import {
  FORM_LIMIT_BYTES,
  readForm,
  readMultipart,
  type MultipartLimits,
  type MultipartRead,
} from '../http/body.server.ts';
import type { OwnerPagesContext, SignedInOwner } from './context.server.ts';

/**
 * The one opening of every owner's page and endpoint under app/pages/admin
 * (docs/operations.md, "Owner's pages"), as a route's loader and action
 * begin beside its page: the owner's pages' context, the owner signed in,
 * the request's method, and the body read within its limits by the one body
 * reader (app/http/body.server.ts). Or, instead, the answer the page gives
 * at once:
 *
 * - no owner's pages on this server (no context): the 404 page;
 * - no session (the gate in front of /admin already sends these to the
 *   sign-in page; this is the page's own guard): a redirect to sign in,
 *   except on the sign-in pages themselves (`open`);
 * - a method the page does not take: 405, with the methods it does
 *   (GET and HEAD always, and `methods`).
 *
 *     const route = await ownerPage(Astro, { methods: ['POST'] });
 *     if (route instanceof Response) return route;
 */

export const SIGN_IN_PATH = '/admin/sign-in';

export interface OwnerPage<Owner extends SignedInOwner | null = SignedInOwner> {
  context: OwnerPagesContext;
  owner: Owner;
  /** The request's method, in capitals. */
  method: string;
  /** A posted form's fields, or null when it is over `limit` (the page answers 413). */
  readForm(limit?: number): Promise<URLSearchParams | null>;
  /** A multipart post within `limits`, its files in temporary files until `discard()`. */
  readMultipart(limits: MultipartLimits): Promise<MultipartRead>;
}

export interface OwnerPageOptions {
  /** What the page takes besides GET and HEAD (a form's POST). */
  methods?: readonly string[];
  /** A sign-in page: answers without a session, `owner` then null. */
  open?: boolean;
}

type Page = Pick<APIContext, 'locals' | 'request' | 'redirect' | 'rewrite'>;

export async function ownerPage(
  page: Page,
  options: OwnerPageOptions & { open: true },
): Promise<OwnerPage<SignedInOwner | null> | Response>;
export async function ownerPage(
  page: Page,
  options?: OwnerPageOptions & { open?: false },
): Promise<OwnerPage | Response>;
export async function ownerPage(
  page: Page,
  options: OwnerPageOptions = {},
): Promise<OwnerPage<SignedInOwner | null> | Response> {
  const context = page.locals.ownerPages;
  if (!context) return page.rewrite('/404');
  const owner = page.locals.owner ?? null;
  if (!owner && !options.open) return page.redirect(SIGN_IN_PATH, 303);
  const { request } = page;
  const method = request.method.toUpperCase();
  const allowed = ['GET', 'HEAD', ...(options.methods ?? [])];
  if (!allowed.includes(method)) {
    return new Response('This page does not take that kind of request.', {
      status: 405,
      headers: { allow: allowed.join(', '), 'content-type': 'text/plain; charset=utf-8' },
    });
  }
  return {
    context,
    owner,
    method,
    async readForm(limit = FORM_LIMIT_BYTES) {
      const read = await readForm(request, limit);
      return read.ok ? read.value : null;
    },
    readMultipart: (limits) => readMultipart(request, limits),
  };
}

const PLAIN_TEXT = { 'Content-Type': 'text/plain; charset=utf-8' };

/**
 * The GET of an endpoint that only a button's form post may use (a
 * prefetch or a followed link changes nothing): 405, saying which button.
 */
export function postOnly(useTheButton: string): () => Response {
  return () =>
    new Response(useTheButton, { status: 405, headers: { Allow: 'POST', ...PLAIN_TEXT } });
}

/** A lead endpoint's answer for an enquiry that is not there (deleted, or never was). */
export function noSuchEnquiry(): Response {
  return new Response('There is no such enquiry.', { status: 404, headers: PLAIN_TEXT });
}

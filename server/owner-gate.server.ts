import { parseCookie } from 'cookie';
import { Router, type NextFunction, type Request, type Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { OwnerPagesContext, SignedInOwner } from '../app/owner/context.server.ts';
import { SIGN_IN_POST_LIMIT, TOO_MANY } from '../app/owner/limits.server.ts';
import { SIGN_IN_PATH } from '../app/owner/owner-page.server.ts';

/**
 * The door of the owner's pages (docs/operations.md, "Owner's pages"):
 * every request under /admin, whatever its method and whether or not a page
 * answers it, passes here before anything else of the site.
 *
 * - Every answer is private: `Cache-Control: no-store` and
 *   `X-Robots-Tag: noindex`.
 * - A state-changing request (any method but GET and HEAD) must come from
 *   the site's own pages: its `Origin` must be SITE_URL's origin exactly
 *   (scheme, host and port; never whatever Host the request names), or it
 *   is refused with 403 before a page or the store sees it. Browsers send
 *   `Origin` with every such request, so one without it is refused too.
 * - A state-changing request to a sign-in page (the passkey sign-in's
 *   challenge request, POST /admin/sign-in/options, anonymous and stored,
 *   among them) is limited per client (SIGN_IN_POST_LIMIT, an IPv6 client
 *   by its /64) before the store sees it: 429 beyond.
 * - The session cookie is resolved to its owner (a sliding 7 days, 30 at
 *   most). Without one, only the sign-in pages answer (OPEN_PATHS), and a
 *   GET or HEAD of the app's own files (APP_FILES: the manifest, the
 *   service worker, the icons; they hold nothing of anyone, and a browser
 *   fetches the manifest and icons without cookies and checks the worker
 *   for updates whether or not a session is still going); every other URL
 *   leads to /admin/sign-in, with no page rendered at all, so no lead data
 *   can reach a stranger.
 * - The page is then rendered by Astro with the owner's context as
 *   Astro.locals (app/pages/admin).
 */

/** The pages a visitor without a session may reach, under /admin. */
export const OPEN_PATHS: readonly string[] = ['/sign-in', '/setup'];

/** Whether a path under /admin (without the prefix) is a sign-in page. */
export function isOpenPath(path: string): boolean {
  return OPEN_PATHS.some((open) => path === open || path.startsWith(`${open}/`));
}

/**
 * The owner's pages' app files, under /admin (app/pages/admin/sw.js.ts,
 * manifest.webmanifest.ts, icons/[icon].ts), which anyone may GET.
 */
export const APP_FILES: readonly string[] = ['/sw.js', '/manifest.webmanifest'];
const APP_ICON = /^\/icons\/[a-z0-9-]{1,40}\.png$/;

/** Whether a request under /admin (path without the prefix) is a read of the app's files. */
export function isAppFile(method: string, path: string): boolean {
  return SAFE_METHODS.has(method) && (APP_FILES.includes(path) || APP_ICON.test(path));
}

export interface OwnerGateLocals {
  leads: null;
  ownerPages: OwnerPagesContext;
  owner: SignedInOwner | null;
  /** The client's address as the server sees it (req.ip, so behind TRUST_PROXY the visitor's), for the sign-in limits. */
  client: string;
  /** Runs `task` once the answer has been sent (or the client has gone); its failure is logged. */
  afterResponse: (task: () => Promise<unknown>) => void;
}

export interface OwnerGateOptions {
  context: OwnerPagesContext;
  /**
   * Renders the request's page with Astro (the server's on-demand renderer,
   * which routes by the whole path, req.originalUrl; in development, Astro's
   * own server, after `next`).
   */
  render: (req: Request, res: Response, next: NextFunction, locals: OwnerGateLocals) => unknown;
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** Whether an `Origin` header names the site's own origin (SITE_URL's), exactly. */
export function isSiteOrigin(origin: string | undefined, siteOrigin: string): boolean {
  if (origin === undefined) return false;
  try {
    // Through URL, so `HTTPS://Glass.example.nz:443` is the site's too; the
    // opaque origin `null` and anything unparsable are not.
    return new URL(origin.trim()).origin === siteOrigin;
  } catch {
    return false;
  }
}

export function ownerGate(options: OwnerGateOptions): Router {
  const { context } = options;
  const router = Router();
  router.use(async (req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Robots-Tag', 'noindex');
    if (!SAFE_METHODS.has(req.method)) {
      if (!isSiteOrigin(req.get('origin'), context.siteOrigin)) {
        res.status(403).type('text/plain').send('This request did not come from this site.');
        return;
      }
    }
    next();
  });
  // Every state-changing request to a sign-in page, however its path is
  // spelt (Astro decodes it), so none can go round the limit.
  const signInPosts = rateLimit({
    windowMs: SIGN_IN_POST_LIMIT.windowMs,
    limit: SIGN_IN_POST_LIMIT.max,
    // One client: an IPv4 address, or an IPv6 /64 (what one home or phone gets).
    ipv6Subnet: 64,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    handler: (req, res) => {
      res.status(429);
      // The passkey script reads JSON; the link form's page is read by a person.
      if (req.is('application/json')) res.json({ ok: false, message: TOO_MANY });
      else res.type('text/plain').send(TOO_MANY);
    },
  });
  router.use((req, res, next) => {
    if (SAFE_METHODS.has(req.method) || !isOpenPath(req.path)) return next();
    return signInPosts(req, res, next);
  });
  router.use(async (req, res, next) => {
    try {
      const cookies = parseCookie(req.get('cookie') ?? '');
      const signedIn = await context.sessions.resolve(cookies[context.cookie.name]);
      const owner = signedIn ? { id: signedIn.owner.id, email: signedIn.owner.email } : null;
      if (!owner && !isOpenPath(req.path) && !isAppFile(req.method, req.path)) {
        res.redirect(303, SIGN_IN_PATH);
        return;
      }
      await options.render(req, res, next, {
        leads: null,
        ownerPages: context,
        owner,
        client: req.ip ?? req.socket.remoteAddress ?? 'unknown',
        afterResponse: (task) => {
          const run = () => {
            task().catch((error: unknown) =>
              context.logger.error({ err: error }, 'Work after an answer failed'),
            );
          };
          // Sent, or the client gone: either way the answer can no longer tell.
          if (res.closed) run();
          else res.once('close', run);
        },
      });
    } catch (error) {
      next(error);
    }
  });
  return router;
}

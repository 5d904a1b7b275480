import {
  Router,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import type { LeadsRequestContext } from '../app/leads/intake/receive-lead.server.ts';
import type { ReviewPageLocals } from '../app/reviews/review-page.server.ts';

/**
 * The one table of public URLs answered by a page other than their own
 * (docs/pages-and-routes.md). Every page is prerendered, so a GET is a
 * file; but a form posted without JavaScript to its page, and a blog address
 * whose answer depends on its query, must be rendered on request, and Astro
 * cannot make one route both prerendered and on demand. Each such request
 * is rewritten here to its own on-demand page under app/pages/on-demand/,
 * before the files are looked at. The production server (app.server.ts)
 * and `npm run dev` (dev-front.server.ts) mount the same rows.
 *
 * Everything else on demand is found by Astro's router at its own address:
 * an unknown article or category (app/pages/blog/[unknown].astro,
 * app/pages/blog/category/[unknown].astro, beside the prerendered ones) and
 * the 404 page (app/pages/404.astro).
 */

export interface OnDemandRoute {
  method: 'GET' | 'POST';
  /** An Express path; a `:name` in it fills the same `:name` in `page`. */
  path: string;
  /** The row applies only when this query parameter is present, and not equal to `except`. */
  query?: { name: string; except?: string };
  /** The on-demand page that answers (app/pages + this path). */
  page: string;
  /** The page reads the review links in the store (Astro.locals.reviews). */
  reviews?: true;
}

export const ON_DEMAND_ROUTES: readonly OnDemandRoute[] = [
  // A lead form posted without JavaScript (docs/forms.md "Without JavaScript").
  { method: 'POST', path: '/', page: '/on-demand/home-form' },
  { method: 'POST', path: '/contact', page: '/on-demand/contact-form' },
  { method: 'POST', path: '/quote', page: '/on-demand/quote-form' },
  // The blog list has one page: any other page number leads to /blog.
  {
    method: 'GET',
    path: '/blog{/*rest}',
    query: { name: 'page', except: '1' },
    page: '/on-demand/blog-moved',
  },
  // The blog search without JavaScript (docs/blog.md).
  { method: 'GET', path: '/blog', query: { name: 'q' }, page: '/on-demand/blog-search' },
  // A customer's review link, and its form posted (docs/operations.md, "Reviews").
  { method: 'GET', path: '/review/:token', page: '/on-demand/review/:token', reviews: true },
  { method: 'POST', path: '/review/:token', page: '/on-demand/review/:token', reviews: true },
  {
    method: 'GET',
    path: '/blog/category/:category',
    query: { name: 'q' },
    page: '/on-demand/blog-search/:category',
  },
];

/** What a row's page needs, as Astro.locals. */
export interface OnDemandLocals {
  /** Given to a form post's page only, after the lead guards. */
  leads: LeadsRequestContext | null;
  /** Given to the review link's page only (a row with `reviews`); null without a store. */
  reviews?: ReviewPageLocals | null;
}

export interface OnDemandOptions {
  /** Every post to a row passes these first: the lead guards (server/lead-api.server.ts). */
  postGuards: readonly RequestHandler[];
  /** What receiveLead needs of the server for this request. */
  leadsContext: (res: Response) => LeadsRequestContext;
  /** The store the review link's page reads and writes; without it every review link is unknown. */
  reviewStore?: ReviewPageLocals['store'] | undefined;
  /** Renders the page the request now names (req.url is rewritten). */
  render: (req: Request, res: Response, next: NextFunction, locals: OnDemandLocals) => unknown;
}

function fill(page: string, params: Record<string, string | string[] | undefined>): string {
  return page.replace(/:(\w+)/g, (_, name: string) =>
    encodeURIComponent([params[name] ?? ''].flat().join('/')),
  );
}

function queryMatches(req: Request, query: OnDemandRoute['query']): boolean {
  if (!query) return true;
  const value = req.query[query.name];
  return value !== undefined && value !== query.except;
}

/** The table as Express routes: each matching request is rewritten to its page and rendered. */
export function onDemandRoutes(options: OnDemandOptions): Router {
  const router = Router({ caseSensitive: true });
  for (const row of ON_DEMAND_ROUTES) {
    const guards = row.method === 'POST' ? options.postGuards : [];
    const matches: RequestHandler = (req, _res, next) =>
      queryMatches(req, row.query) ? next() : next('route');
    const rewrite: RequestHandler = (req, res, next) => {
      const query = req.url.indexOf('?');
      req.url = fill(row.page, req.params) + (query === -1 ? '' : req.url.slice(query));
      const leads = row.method === 'POST' ? options.leadsContext(res) : null;
      if (!row.reviews) return options.render(req, res, next, { leads });
      const reviews = options.reviewStore ? { store: options.reviewStore } : null;
      return options.render(req, res, next, { leads, reviews });
    };
    const route = router.route(row.path);
    if (row.method === 'POST') route.post(matches, ...guards, rewrite);
    else route.get(matches, rewrite);
  }
  return router;
}

import compression from 'compression';
import express, { type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { business } from '../app/content/business.ts';
import { PHOTO_LINK_PATH } from '../app/leads/delivery/signed-photo-links.server.ts';
import type { LeadsRequestContext } from '../app/leads/intake/receive-lead.server.ts';
import type { Env } from './env.server.ts';
import { addressNetwork } from './log-address.server.ts';
import { onDemandRoutes } from './on-demand-routes.server.ts';
import { ownerGate } from './owner-gate.server.ts';
import type { OwnerPagesContext } from '../app/owner/context.server.ts';
import { JOB_PHOTO_FILE } from './site-content-build.server.ts';
import type { SitePublishSource } from './site-publisher.server.ts';
import { trailingSlashRedirect } from './trailing-slash.server.ts';
import { processUploadSlots } from './upload-slots.server.ts';
import {
  cspOptionsOf,
  loadSiteRelease,
  type AstroHandler,
  type SiteRelease,
} from './release-files.server.ts';

/** What the lead pipeline brings to the server (app/leads, wired in start.ts). */
export interface LeadsIntegration {
  /** Mounted at /api/leads. */
  apiRouter?: express.Router;
  /** Mounted at PHOTO_LINK_PATH: a lead's photo for a webhook's signed link (lead-photo-route.server.ts). */
  photoLinks?: express.RequestHandler;
  /** What a form post's page needs of the lead pipeline (Astro.locals.leads). */
  requestContext?: (res: Response) => LeadsRequestContext;
  /** Applied to every form post to a page (POST /quote …): the API's guards. */
  formPostGuards?: readonly express.RequestHandler[];
  /** Whether leads can be accepted now, and the store's state (GET /healthz). */
  health: () => Promise<{ ok: boolean }>;
  /** What the owner's pages (/admin) need; without it /admin is only the 404 page. */
  ownerPages?: OwnerPagesContext;
  /**
   * The content to serve and where build results go, from the store
   * (site-publisher.server.ts): the web server records through it the
   * version it serves (release-follower.server.ts).
   */
  sitePublishing?: SitePublishSource;
}

export interface AppOptions {
  env: Env;
  logger: Logger;
  /**
   * What the server serves: the release loaded now, replaceable while it
   * runs (site-release.server.ts). Without it, `render` and `clientDir`
   * make one that never changes.
   */
  site?: { readonly current: SiteRelease };
  /** The Astro server build's handler (build/server/entry.mjs, middleware mode). */
  render?: AstroHandler;
  /** build/client: prerendered pages and assets. */
  clientDir?: string;
  leads: LeadsIntegration;
}

/**
 * Powerful features no page of this site uses, turned off for the page and
 * every frame in it (the map included). Only names browsers know: an unknown
 * one (such as FLoC's withdrawn interest-cohort) is an error in the console
 * of every page (e2e/server.spec.ts checks Chromium's).
 */
export const PERMISSIONS_POLICY = [
  'camera=()',
  'microphone=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'browsing-topics=()',
].join(', ');

const ONE_YEAR_S = 365 * 24 * 60 * 60;
const JOB_PHOTO_MAX_AGE_S = 60 * 60;
const REVALIDATE = 'public, max-age=0, must-revalidate';

/** The release a request started on: it finishes on it, whatever is served by then. */
const requestReleases = new WeakMap<Response, SiteRelease>();
const releaseOf = (res: Response): SiteRelease => requestReleases.get(res)!;

export async function createApp(options: AppOptions) {
  const { env, logger, leads } = options;
  let site = options.site;
  if (!site) {
    if (!options.render || !options.clientDir) throw new Error('createApp needs a site');
    const fixed = await loadSiteRelease(
      options.clientDir,
      options.render,
      cspOptionsOf(env, business.mapEmbedUrl),
    );
    site = { current: fixed };
  }
  const served = site;
  const https = env.SITE_URL.startsWith('https:');

  const app = express();
  app.disable('x-powered-by');
  // Whose X-Forwarded-For to believe (TRUST_PROXY): req.ip, which the rate
  // limit counts, is then the client address the proxy reports.
  app.set('trust proxy', env.TRUST_PROXY);

  // Structured request log without personal data: no query string, no IP.
  // The exception is a client the rate limit refused (429): that line names
  // the network of the address the server believes (IPv4 /24, IPv6 /48), so
  // the operator can see where a flood comes from, never the full address.
  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const line = {
        method: req.method,
        path: req.originalUrl.split('?')[0],
        status: res.statusCode,
        ms: Number((process.hrtime.bigint() - started) / 1_000_000n),
      };
      if (res.statusCode === 429)
        logger.warn({ ...line, client: addressNetwork(req.ip) }, 'request refused');
      else logger.info(line, 'request');
    });
    next();
  });
  app.use((_req, res, next) => {
    requestReleases.set(res, served.current);
    next();
  });

  app.use(
    helmet({
      // Set per response below: each page's own hashes, or (rendered on request) all of them.
      contentSecurityPolicy: false,
      // The embedded map is a cross-origin iframe.
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      strictTransportSecurity: https ? { maxAge: ONE_YEAR_S, includeSubDomains: true } : false,
      frameguard: { action: 'deny' },
    }),
  );
  app.use((_req, res, next) => {
    res.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
    next();
  });

  app.use(compression());

  // Rendered on request: a page with no file, or not the one its URL names;
  // an owner's page may register the owner's service worker, and a form's
  // page answering a post (it has the lead service) start the form's worker.
  const renderOnDemand = (
    req: Request,
    res: Response,
    _next: unknown,
    locals: App.Locals,
    owner = false,
  ) => {
    const release = releaseOf(res);
    res.setHeader(
      'Content-Security-Policy',
      owner
        ? release.ownerPageCsp
        : locals.leads || locals.reviews
          ? release.formPageCsp
          : release.renderedPageCsp,
    );
    res.setHeader('Cache-Control', 'no-store');
    return release.render(req, res, undefined, locals);
  };

  const adminUploadTurn = processUploadSlots();
  // The owner's pages: private answers, the origin check, and a session or
  // the sign-in page, before anything else answers under /admin (even the
  // trailing-slash redirect).
  if (leads.ownerPages) {
    app.use(
      '/admin',
      ownerGate({
        context: leads.ownerPages,
        render: (req, res, _next, locals) => {
          // Astro routes by the whole path, not the part below /admin.
          req.url = req.originalUrl;
          // An upload (a job photo) waits its turn to be read (upload-slots.server.ts).
          return adminUploadTurn(req, res, () => renderOnDemand(req, res, undefined, locals, true));
        },
      }),
    );
  }

  app.use(trailingSlashRedirect);

  // The process runs (for a supervisor's restart decision): never the store.
  app.get('/livez', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ ok: true });
  });
  // Leads can be accepted in the current LEAD_ACCEPT mode (for a load
  // balancer or a monitor); pages are served either way.
  app.get('/healthz', async (_req, res) => {
    const health = await leads.health().catch(() => ({ ok: false }));
    res.setHeader('Cache-Control', 'no-store');
    res.status(health.ok ? 200 : 503).json(health);
  });

  if (leads.apiRouter) app.use('/api/leads', leads.apiRouter);
  if (leads.photoLinks) app.use(PHOTO_LINK_PATH, leads.photoLinks);

  // Form posts and blog queries, before the files: the one table
  // (on-demand-routes.server.ts) sends each to its on-demand page.
  app.use(
    onDemandRoutes({
      postGuards: leads.formPostGuards ?? [],
      leadsContext: (res) => {
        if (!leads.requestContext) throw new Error('form posts need the lead pipeline');
        return leads.requestContext(res);
      },
      reviewStore: leads.ownerPages?.store,
      render: renderOnDemand,
    }),
  );

  // Prerendered pages (revalidated on every visit, each with its own CSP),
  // hashed assets (cached for a year) and the other public files.
  app.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const { pages, files } = releaseOf(res);
    const page = pages.get(req.path);
    if (page) {
      res.setHeader('Content-Security-Policy', page.csp);
      files.send(req, res, page.file, REVALIDATE).catch(next);
      return;
    }
    const { codeFiles } = releaseOf(res);
    let file = files.resolve(req.path);
    let from = files;
    // A hashed file the server's code names, from the release that code came from.
    if (!file && codeFiles && req.path.startsWith('/assets/')) {
      file = codeFiles.resolve(req.path);
      from = codeFiles;
    }
    if (!file || file.endsWith('.html')) return next();
    // A job photo's copies for an hour: one taken off the site leaves
    // visitors' caches soon (its names change with the photo all the same).
    const cacheControl = file.startsWith('assets/')
      ? JOB_PHOTO_FILE.test(file.slice('assets/'.length))
        ? `public, max-age=${JOB_PHOTO_MAX_AGE_S}`
        : `public, max-age=${ONE_YEAR_S}, immutable`
      : /\.(?:xml|txt|webmanifest)$/.test(file)
        ? REVALIDATE
        : 'public, max-age=86400';
    from.send(req, res, file, cacheControl).catch(next);
  });

  // Everything else is Astro's router's: an unknown article or category
  // (a redirect, or every article), and for anything no page matches, the
  // 404 page. No lead service: only a row's form post gets one.
  app.all('/{*path}', (req, res, next) => renderOnDemand(req, res, next, { leads: null }));

  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    logger.error({ err: error, method: req.method, path: req.path }, 'unhandled error');
    if (res.headersSent) return;
    res.status(500).type('text/plain').send('Something went wrong. Please call us or try again.');
  });

  return app;
}

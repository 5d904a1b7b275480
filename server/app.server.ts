import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequestHandler } from '@react-router/express';
import compression from 'compression';
import express, { type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { RouterContextProvider, type RouterContext, type ServerBuild } from 'react-router';
import { business } from '../app/content/business.ts';
import { contentSecurityPolicy, inlineScriptHashes, type CspOptions } from './csp.server.ts';
import type { LeadsRequestContext } from '../app/leads/context.ts';
import type { Env } from './env.server.ts';
import { StaticFiles } from './static.server.ts';
import { trailingSlashRedirect } from './trailing-slash.server.ts';

/** What the lead pipeline brings to the server (app/leads, wired in start.ts). */
export interface LeadsIntegration {
  /** Mounted at /api/leads. */
  apiRouter?: express.Router;
  /** Extra values for the route actions' context. */
  provideContext?: (context: RouterContextProvider, keys: AppContexts, res: Response) => void;
  /** Applied to every form post to a page (POST /quote …), as to the API. */
  formPostGuards?: readonly express.RequestHandler[];
  /** Whether leads can be accepted now, and the store's state (GET /healthz). */
  health: () => Promise<{ ok: boolean }>;
}

export interface AppOptions {
  env: Env;
  logger: Logger;
  build: ServerBuild;
  /** build/client: prerendered pages and assets. */
  clientDir: string;
  leads: LeadsIntegration;
}

/** The router context keys exported by the server build (app/entry.server.tsx). */
export interface AppContexts {
  nonce: RouterContext<string>;
  leads: RouterContext<LeadsRequestContext | null>;
}

interface PrerenderedPage {
  /** Relative to the client build directory. */
  file: string;
  csp: string;
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
const REVALIDATE = 'public, max-age=0, must-revalidate';

/** Finds every prerendered page and the CSP its inline scripts need. */
export async function loadPrerenderedPages(
  files: StaticFiles,
  cspOptions: CspOptions,
): Promise<Map<string, PrerenderedPage>> {
  const pages = new Map<string, PrerenderedPage>();
  const entries = await readdir(files.root, { recursive: true, encoding: 'utf8' });
  for (const entry of entries) {
    const relative = entry.split(path.sep).join('/');
    if (relative !== 'index.html' && !relative.endsWith('/index.html')) continue;
    const urlPath = `/${relative.replace(/\/?index\.html$/, '')}`;
    const html = await readFile(path.join(files.root, relative), 'utf8');
    pages.set(urlPath, {
      file: relative,
      csp: contentSecurityPolicy({ hashes: inlineScriptHashes(html) }, cspOptions),
    });
  }
  return pages;
}

/**
 * Requests whose answer depends on the query string are rendered by the
 * server, not answered from the prerendered file (SPEC §4: a page query other
 * than 1 redirects to /blog; a blog search submitted without JavaScript,
 * /blog?q=…, lists the matching articles — also for the route data, .data).
 */
function needsServerRender(req: Request): boolean {
  const page = req.query.page;
  if (page !== undefined && page !== '1') return true;
  return req.query.q !== undefined && /^\/blog(?:[/.]|$)/.test(req.path);
}

export async function createApp(options: AppOptions) {
  const { env, logger, build, clientDir, leads } = options;
  const cspOptions: CspOptions = {
    gtagId: env.GTAG_ID,
    adsConversionSendTo: env.ADS_CONVERSION_SEND_TO,
    mapEmbedUrl: business.mapEmbedUrl,
    https: env.SITE_URL.startsWith('https:'),
  };
  const files = await StaticFiles.scan(clientDir);
  const pages = await loadPrerenderedPages(files, cspOptions);

  const app = express();
  app.disable('x-powered-by');
  // Whose X-Forwarded-For to believe (TRUST_PROXY): req.ip, which the rate
  // limit counts, is then the client address the proxy reports.
  app.set('trust proxy', env.TRUST_PROXY);

  // Structured request log without personal data: no query string, no IP.
  // The exception is a client the rate limit refused (429): that line names
  // the address the server believes, so the operator can see who floods.
  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const line = {
        method: req.method,
        path: req.originalUrl.split('?')[0],
        status: res.statusCode,
        ms: Number((process.hrtime.bigint() - started) / 1_000_000n),
      };
      if (res.statusCode === 429) logger.warn({ ...line, client: req.ip }, 'request refused');
      else logger.info(line, 'request');
    });
    next();
  });

  app.use(
    helmet({
      // Set per response below: hashes for prerendered pages, a nonce otherwise.
      contentSecurityPolicy: false,
      // The embedded map is a cross-origin iframe.
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      strictTransportSecurity: cspOptions.https
        ? { maxAge: ONE_YEAR_S, includeSubDomains: true }
        : false,
      frameguard: { action: 'deny' },
    }),
  );
  app.use((_req, res, next) => {
    res.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
    next();
  });

  app.use(compression());

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

  // Prerendered pages (revalidated on every visit, each with its own CSP),
  // hashed assets (cached for a year) and the other public files.
  app.use((req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || needsServerRender(req)) return next();
    const page = pages.get(req.path);
    if (page) {
      res.setHeader('Content-Security-Policy', page.csp);
      files.send(req, res, page.file, REVALIDATE).catch(next);
      return;
    }
    const file = files.resolve(req.path);
    if (!file || file.endsWith('.html')) return next();
    const cacheControl = file.startsWith('assets/')
      ? `public, max-age=${ONE_YEAR_S}, immutable`
      : /\.(?:data|xml|txt|webmanifest)$/.test(file)
        ? REVALIDATE
        : 'public, max-age=86400';
    files.send(req, res, file, cacheControl).catch(next);
  });

  // Everything else is rendered by React Router: form actions, redirects, 404.
  for (const guard of leads.formPostGuards ?? []) {
    app.use((req, res, next) => (req.method === 'POST' ? guard(req, res, next) : next()));
  }
  const contexts = (build.entry.module as unknown as { appContexts?: AppContexts }).appContexts;
  if (!contexts)
    throw new Error('The server build does not export appContexts (app/entry.server.tsx).');
  const handler = createRequestHandler({
    build,
    mode: 'production',
    getLoadContext(_req, res) {
      const context = new RouterContextProvider();
      context.set(contexts.nonce, res.locals.nonce as string);
      leads.provideContext?.(context, contexts, res);
      return context;
    },
  });
  app.all('/{*path}', (req, res, next) => {
    const nonce = randomBytes(16).toString('base64');
    res.locals.nonce = nonce;
    res.setHeader('Content-Security-Policy', contentSecurityPolicy({ nonce }, cspOptions));
    res.setHeader('Cache-Control', 'no-store');
    return handler(req, res, next);
  });

  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    logger.error({ err: error, method: req.method, path: req.path }, 'unhandled error');
    if (res.headersSent) return;
    res.status(500).type('text/plain').send('Something went wrong. Please call us or try again.');
  });

  return app;
}

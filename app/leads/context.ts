import type { LeadService } from './lead-service.server.ts';

/**
 * What a form post needs from the server: the same lead service as
 * POST /api/leads (CONTRACT "HTTP API": the site's own forms post to the same
 * service). Set by the production server for every server-rendered request
 * (server/app.server.ts), read as `Astro.locals.leads`.
 */
export interface LeadsRequestContext {
  service: LeadService;
  siteUrl: string;
  /** Set by the form-post rate limiter instead of answering itself. */
  rateLimited?: boolean;
}

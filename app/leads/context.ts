import { createContext } from 'react-router';
import type { LeadService } from './lead-service.server.ts';

/**
 * What the form actions need from the server: the same lead service as
 * POST /api/leads (CONTRACT "HTTP API": the site's own forms post to the same
 * service). Set by the production server for every request; the server reads
 * this key from the build (app/entry.server.tsx `appContexts`).
 */
export interface LeadsRequestContext {
  service: LeadService;
  siteUrl: string;
  /** Set by the form-post rate limiter instead of answering itself. */
  rateLimited?: boolean;
}

export const leadsContext = createContext<LeadsRequestContext | null>(null);

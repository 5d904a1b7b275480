import {
  Router,
  type ErrorRequestHandler,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import { createHash } from 'node:crypto';
import {
  rateLimit as expressRateLimit,
  MemoryStore,
  type Options as RateLimitOptions,
  type Store,
} from 'express-rate-limit';
import type { Logger } from 'pino';
import type { LeadService } from '../app/leads/lead-service.server.ts';
import type { AppStore } from '../app/db/store.server.ts';
import {
  API_ERROR_MESSAGES,
  isAllowedOrigin,
  receiveLead,
  type LeadOutcome,
  type LeadRequest,
  type LeadsRequestContext,
} from '../app/leads/intake/receive-lead.server.ts';
import { UNEXPECTED_ERROR_MESSAGE } from '../app/leads/intake/schema.ts';
import type { ProofOfWork } from '../app/leads/intake/proof-of-work.server.ts';
import { processUploadSlots } from './upload-slots.server.ts';

/**
 * The server's side of the one door to the lead service
 * (app/leads/intake/receive-lead.server.ts): the guards every lead post passes
 * first, to /api/leads or to a form's page (the origin check, the rate
 * limit), and POST /api/leads, a thin adapter that answers receiveLead's
 * outcome as JSON (docs/operations.md "HTTP API"); and GET
 * /api/leads/challenge, the proof of work's challenge for a form's script
 * (docs/forms.md#proof-of-work).
 *
 * Every answer is JSON; the only 5xx is 502 (no configured delivery
 * accepted the lead, or an unexpected failure before anything was
 * committed).
 */

/** LEAD_RATE_LIMIT: submissions per client IP per 10 minutes. */
export const LEAD_RATE_LIMIT_WINDOW_MS = 10 * 60 * 1000;

/**
 * Challenges a visitor may fetch per enquiry they may send: one when they
 * first focus a form, one more after each attempt, a page or two more.
 */
export const CHALLENGES_PER_LEAD = 3;

// ---------------------------------------------------------------------------
// Origin check

export function originGuard(siteUrl: string): RequestHandler {
  return (req, res, next) => {
    const allowed = isAllowedOrigin(
      {
        origin: req.get('origin'),
        secFetchSite: req.get('sec-fetch-site'),
        host: req.get('host'),
      },
      siteUrl,
    );
    if (allowed) return next();
    res.status(403).json({ error: API_ERROR_MESSAGES.crossOrigin });
  };
}

// ---------------------------------------------------------------------------
// Answers

/** Answers an unexpected failure in the router with 502; the visitor's data is never logged. */
export function leadApiErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    if (res.headersSent) return next(error);
    logger.error(
      { err: error instanceof Error ? { message: error.message, stack: error.stack } : error },
      'Unexpected error in the lead API',
    );
    res.status(502).json({ error: UNEXPECTED_ERROR_MESSAGE });
  };
}

/** The JSON body of an outcome: `fields` with a 400 only (docs/operations.md "HTTP API"). */
export function apiAnswer(
  outcome: LeadOutcome,
): { id: string; created_at: string } | { error: string; fields?: Record<string, string> } {
  if (outcome.ok) return { id: outcome.id, created_at: outcome.created_at };
  return outcome.status === 400
    ? { error: outcome.error, fields: outcome.fields }
    : { error: outcome.error };
}

/**
 * An Express request as the body reader takes it: its headers, and itself
 * as the stream, which the reader (app/http/body.server.ts) reads by its
 * events with raw-body, as Express's own parsers do.
 */
export function leadRequestOf(req: Request): LeadRequest {
  return { headers: { get: (name) => req.get(name) ?? null }, body: req };
}

// ---------------------------------------------------------------------------
// Rate limit

/** The res.locals key through which receiveLead learns the request is over the limit. */
const RATE_LIMITED_LOCAL = 'leadRateLimited';

/**
 * LEAD_RATE_LIMIT: `limit` requests per client IP per 10 minutes, then 429
 * with Retry-After. Counts every request that reaches it, so a
 * flood of invalid bodies is limited too. The client IP is Express's req.ip:
 * behind a reverse proxy the app must set `trust proxy` accordingly. With a
 * store given (PostgreSQL), the count lives in it, so every server
 * process on that database shares one count per visitor; otherwise in this
 * process's memory. While the store cannot count (the database is down),
 * this process counts in memory instead, so the limit still holds.
 *
 * It sets Retry-After and flags the request (isRateLimited); receiveLead
 * gives the one answer, 429 with the message: without reading the body,
 * unless it is declared small enough to show again (a visitor without
 * JavaScript then gets the page back with the message beside what was
 * typed), and the API the same message as JSON.
 */
export function createLeadRateLimiter(options: {
  limit: number;
  windowMs?: number;
  store?: AppStore | undefined;
  logger?: Logger | undefined;
}): RequestHandler {
  const windowMs = options.windowMs ?? LEAD_RATE_LIMIT_WINDOW_MS;
  const store = options.store
    ? new AppStoreRateLimit(options.store, windowMs, options.logger, 'leads:')
    : undefined;
  return expressRateLimit({
    windowMs,
    limit: options.limit,
    ...(store ? { store } : {}),
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    handler: (_req, res, next) => {
      res.locals[RATE_LIMITED_LOCAL] = true;
      next();
    },
  });
}

/**
 * The proof of work's challenges: CHALLENGES_PER_LEAD × LEAD_RATE_LIMIT per
 * client IP per 10 minutes, counted apart from the enquiries (in the store
 * with PostgreSQL, as theirs), then 429 with Retry-After and the message. A
 * form's script then sends its enquiry without one.
 */
export function createChallengeRateLimiter(options: {
  leadLimit: number;
  windowMs?: number;
  store?: AppStore | undefined;
  logger?: Logger | undefined;
}): RequestHandler {
  const windowMs = options.windowMs ?? LEAD_RATE_LIMIT_WINDOW_MS;
  const store = options.store
    ? new AppStoreRateLimit(options.store, windowMs, options.logger, 'challenges:')
    : undefined;
  return expressRateLimit({
    windowMs,
    limit: options.leadLimit * CHALLENGES_PER_LEAD,
    ...(store ? { store } : {}),
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    handler: (_req, res) => {
      res.status(429).json({ error: API_ERROR_MESSAGES.tooManyRequests });
    },
  });
}

/** True when the lead rate limiter found this request over LEAD_RATE_LIMIT. */
export function isRateLimited(res: Response): boolean {
  return res.locals[RATE_LIMITED_LOCAL] === true;
}

/**
 * express-rate-limit's store, counting in AppStore's rate-limit table. Keys are client
 * addresses, hashed so the table holds no address. When the table cannot be
 * reached, the count falls back to this process's memory (logged once per
 * outage) rather than letting every request through or refusing them all.
 */
class AppStoreRateLimit implements Store {
  readonly localKeys = false;
  readonly prefix: string;
  readonly #store: AppStore;
  readonly #windowMs: number;
  readonly #memory = new MemoryStore();
  readonly #logger: Logger | undefined;
  #failing = false;

  /** `prefix` keeps each limit's counts apart in the one table. */
  constructor(store: AppStore, windowMs: number, logger: Logger | undefined, prefix: string) {
    this.prefix = prefix;
    this.#store = store;
    this.#windowMs = windowMs;
    this.#logger = logger;
    this.#memory.init({ windowMs } as RateLimitOptions);
    // The memory fallback must not keep the process alive at shutdown.
    this.#memory.interval?.unref();
  }

  #key(key: string): string {
    return createHash('sha256').update(`${this.prefix}${key}`).digest('base64url');
  }

  #fellBack(error: unknown): void {
    if (this.#failing) return;
    this.#failing = true;
    this.#logger?.warn(
      { err: { message: (error as Error)?.message } },
      'Rate limit counted in this process while the lead store is unavailable',
    );
  }

  async increment(key: string) {
    try {
      const count = await this.#store.hitRateLimit(this.#key(key), this.#windowMs);
      this.#failing = false;
      return { totalHits: count.hits, resetTime: new Date(count.resetAt) };
    } catch (error) {
      this.#fellBack(error);
      return this.#memory.increment(key);
    }
  }

  async decrement(key: string) {
    await this.#store.undoRateLimitHit(this.#key(key)).catch(() => this.#memory.decrement(key));
  }

  async resetKey(key: string) {
    this.#memory.resetKey(key);
    await this.#store.resetRateLimit(this.#key(key)).catch(() => undefined);
  }

  shutdown() {
    this.#memory.shutdown();
  }
}

/** Every answer of the lead API is the visitor's own: never cached. */
const noStore: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next();
};

/**
 * What every lead post passes before receiveLead, to /api/leads or to a
 * form's page: no caching, the origin check (403), the rate limit (counted,
 * and flagged when over), and for an upload its turn to be read
 * (upload-slots.server.ts; one over the limit is answered unread and needs
 * none). `limiter` is shared by every door, so a visitor has one count.
 */
export function leadGuards(siteUrl: string, limiter: RequestHandler): RequestHandler[] {
  return [noStore, originGuard(siteUrl), limiter, processUploadSlots(isRateLimited)];
}

/** What receiveLead needs of the server for this request. */
export function leadsRequestContext(
  service: LeadService,
  res: Response,
  logger?: Logger,
  proofOfWork?: ProofOfWork,
): LeadsRequestContext {
  return {
    service,
    rateLimited: isRateLimited(res),
    proofOfWork,
    onError: (error) =>
      logger?.error(
        { err: error instanceof Error ? { message: error.message, stack: error.stack } : error },
        'Unexpected error while receiving a lead',
      ),
  };
}

// ---------------------------------------------------------------------------
// Router

export interface LeadApiOptions {
  service: LeadService;
  /** Requests per client IP per 10 minutes (LEAD_RATE_LIMIT). */
  rateLimit: number;
  /** SITE_URL: the site's own origin for the origin check. */
  siteUrl: string;
  logger: Logger;
  /** Defaults to 10 minutes; tests may shorten it. */
  rateLimitWindowMs?: number;
  /**
   * A limiter from createLeadRateLimiter() shared with the form posts' guards,
   * so the API and the forms draw on one count per visitor. Created when absent.
   */
  limiter?: RequestHandler;
  /**
   * The proof of work (docs/forms.md#proof-of-work): GET /challenge issues
   * its challenges and each lead's is checked. Without it there is no
   * /challenge and every lead has none.
   */
  proofOfWork?: ProofOfWork;
  /** The challenges' limiter (createChallengeRateLimiter); created when absent. */
  challengeLimiter?: RequestHandler;
}

/**
 * POST /api/leads: the guards, then receiveLead's outcome as JSON; and GET
 * /api/leads/challenge with a proof of work.
 */
export function createLeadApiRouter(options: LeadApiOptions): Router {
  const { service, logger, proofOfWork } = options;
  const limiter =
    options.limiter ??
    createLeadRateLimiter({ limit: options.rateLimit, windowMs: options.rateLimitWindowMs });
  const router = Router();

  if (proofOfWork) {
    const challengeLimiter =
      options.challengeLimiter ??
      createChallengeRateLimiter({
        leadLimit: options.rateLimit,
        windowMs: options.rateLimitWindowMs,
      });
    // A new challenge for each request, for this visitor only: never cached.
    router.get('/challenge', noStore, challengeLimiter, async (_req, res) => {
      let challenge: Awaited<ReturnType<ProofOfWork['challenge']>>;
      try {
        challenge = await proofOfWork.challenge();
      } catch (error) {
        // No signing key while the store is down: the form sends without one.
        logger.error(
          { err: error instanceof Error ? { message: error.message } : error },
          'No proof-of-work challenge: the store is unavailable',
        );
        res.status(503).json({ error: UNEXPECTED_ERROR_MESSAGE });
        return;
      }
      res.json(challenge);
    });
    router.all('/challenge', noStore, (_req, res) => {
      res.set('Allow', 'GET').status(405).json({ error: API_ERROR_MESSAGES.challengeMethod });
    });
  }

  router.post('/', ...leadGuards(options.siteUrl, limiter), async (req, res) => {
    const outcome = await receiveLead(
      leadRequestOf(req),
      leadsRequestContext(service, res, logger, proofOfWork),
    );
    // A body left unread (too large, another type) would hold up the next
    // request on this connection: close it after the answer instead.
    if (!req.complete) res.set('Connection', 'close');
    res.status(outcome.status).json(apiAnswer(outcome));
  });

  router.all('/', (_req, res) => {
    res.set('Cache-Control', 'no-store');
    res.set('Allow', 'POST').status(405).json({ error: API_ERROR_MESSAGES.methodNotAllowed });
  });

  router.use(leadApiErrorHandler(logger));
  return router;
}

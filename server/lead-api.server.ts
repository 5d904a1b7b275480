import express, {
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
import { resultBody, type LeadService } from '../app/leads/lead-service.server.ts';
import type { LeadStore } from '../app/leads/store.server.ts';
import {
  API_ERROR_MESSAGES,
  FORM_TYPE,
  isAcceptedContentType,
  isAllowedOrigin,
  JSON_TYPE,
  LEAD_BODY_LIMIT_BYTES,
} from '../app/leads/lead-request.server.ts';
import { UNEXPECTED_ERROR_MESSAGE } from '../app/leads/schema.ts';

/**
 * POST /api/leads (CONTRACT "HTTP API"). Mounted by the server at
 * /api/leads. The rules both doors to the lead service share (messages,
 * origin check, body reading from a Web Request) live in
 * app/leads/lead-request.server.ts; the Express pieces are here, and the
 * rate limiter is shared with the page forms' posts.
 *
 * Every answer is JSON; the only 5xx is 502 (CONTRACT: no configured
 * delivery accepted the lead, or an unexpected failure before anything was
 * committed).
 */

/** body-parser notation of the same 16 KiB limit. */
export const LEAD_BODY_LIMIT = `${LEAD_BODY_LIMIT_BYTES / 1024}kb`;
/** CONTRACT LEAD_RATE_LIMIT: submissions per client IP per 10 minutes. */
export const LEAD_RATE_LIMIT_WINDOW_MS = 10 * 60 * 1000;

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
// Body reading

export const requireLeadContentType: RequestHandler = (req, res, next) => {
  if (isAcceptedContentType(req.get('content-type'))) return next();
  res.status(415).json({ error: API_ERROR_MESSAGES.unsupportedType });
};

/** Content-type check and the two body parsers, 16 KiB each. */
export function leadBodyParsers(): RequestHandler[] {
  return [
    requireLeadContentType,
    express.json({ limit: LEAD_BODY_LIMIT, type: JSON_TYPE, strict: true }),
    // Not "extended": flat fields only, no nested objects from a form body.
    express.urlencoded({
      limit: LEAD_BODY_LIMIT,
      type: FORM_TYPE,
      extended: false,
      parameterLimit: 100,
    }),
  ];
}

/** Answers body-parser failures with the right 4xx JSON; anything else with 502. */
export function leadApiErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    const type = (error as { type?: unknown } | null)?.type;
    const status = (error as { status?: unknown } | null)?.status;
    if (type === 'entity.too.large') {
      res.status(413).json({ error: API_ERROR_MESSAGES.tooLarge });
      return;
    }
    if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
      res.status(415).json({ error: API_ERROR_MESSAGES.unsupportedType });
      return;
    }
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // Malformed JSON, aborted or truncated bodies. The raw body (error.body)
      // is never logged: it is the visitor's data.
      logger.debug({ type, status }, 'Unreadable lead request body');
      res.status(400).json({ error: API_ERROR_MESSAGES.malformed, fields: {} });
      return;
    }
    logger.error(
      { err: error instanceof Error ? { message: error.message, stack: error.stack } : error },
      'Unexpected error in the lead API',
    );
    res.status(502).json({ error: UNEXPECTED_ERROR_MESSAGE });
  };
}

// ---------------------------------------------------------------------------
// Rate limit

/** res.locals keys through which a page form post learns it is over the limit. */
const FORM_POST_LOCAL = 'leadFormPost';
const RATE_LIMITED_LOCAL = 'leadRateLimited';

/**
 * CONTRACT LEAD_RATE_LIMIT: `limit` requests per client IP per 10 minutes,
 * then 429 with Retry-After. Counts every request that reaches it, so a
 * flood of invalid bodies is limited too. The client IP is Express's req.ip:
 * behind a reverse proxy the app must set `trust proxy` accordingly. With a
 * lead store given (PostgreSQL), the count lives in it, so every server
 * process on that database shares one count per visitor; otherwise in this
 * process's memory. While the store cannot count (the database is down),
 * this process counts in memory instead, so the limit still holds.
 *
 * The API gets a JSON 429. A page form post (marked by formPostRateLimit)
 * is only flagged and passed on: a visitor without JavaScript must get the
 * page back with the message in the form, so the page that answers the post
 * answers the 429 itself (isFormPostRateLimited). Retry-After is set here in both cases.
 */
export function createLeadRateLimiter(options: {
  limit: number;
  windowMs?: number;
  store?: LeadStore | undefined;
  logger?: Logger | undefined;
}): RequestHandler {
  const windowMs = options.windowMs ?? LEAD_RATE_LIMIT_WINDOW_MS;
  const store = options.store
    ? new LeadStoreRateLimit(options.store, windowMs, options.logger)
    : undefined;
  return expressRateLimit({
    windowMs,
    limit: options.limit,
    ...(store ? { store } : {}),
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    handler: (_req, res, next) => {
      if (res.locals[FORM_POST_LOCAL] === true) {
        res.locals[RATE_LIMITED_LOCAL] = true;
        next();
        return;
      }
      res.status(429).json({ error: API_ERROR_MESSAGES.tooManyRequests });
    },
  });
}

/**
 * express-rate-limit's store on the lead store's table. Keys are client
 * addresses, hashed so the table holds no address. When the table cannot be
 * reached, the count falls back to this process's memory (logged once per
 * outage) rather than letting every request through or refusing them all.
 */
class LeadStoreRateLimit implements Store {
  readonly localKeys = false;
  readonly prefix = 'leads:';
  readonly #store: LeadStore;
  readonly #windowMs: number;
  readonly #memory = new MemoryStore();
  readonly #logger: Logger | undefined;
  #failing = false;

  constructor(store: LeadStore, windowMs: number, logger?: Logger) {
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

/**
 * The same limiter (so the same count per visitor) for posts to the pages'
 * form actions: over the limit, the request goes on flagged instead of
 * being answered.
 */
export function formPostRateLimit(limiter: RequestHandler): RequestHandler {
  return (req, res, next) => {
    res.locals[FORM_POST_LOCAL] = true;
    return limiter(req, res, next);
  };
}

/** True when formPostRateLimit found this request over LEAD_RATE_LIMIT. */
export function isFormPostRateLimited(res: Response): boolean {
  return res.locals[RATE_LIMITED_LOCAL] === true;
}

// ---------------------------------------------------------------------------
// Router

export interface LeadApiOptions {
  service: LeadService;
  /** Requests per client IP per 10 minutes (CONTRACT LEAD_RATE_LIMIT). */
  rateLimit: number;
  /** CONTRACT SITE_URL: the site's own origin for the origin check. */
  siteUrl: string;
  logger: Logger;
  /** Defaults to 10 minutes; tests may shorten it. */
  rateLimitWindowMs?: number;
  /**
   * A limiter from createLeadRateLimiter() shared with the form-post guards,
   * so the API and the forms draw on one count per visitor. Created when absent.
   */
  limiter?: RequestHandler;
}

export function createLeadApiRouter(options: LeadApiOptions): Router {
  const { service, logger } = options;
  const router = Router();
  const noStore: RequestHandler = (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  };

  router.post(
    '/',
    noStore,
    originGuard(options.siteUrl),
    options.limiter ??
      createLeadRateLimiter({ limit: options.rateLimit, windowMs: options.rateLimitWindowMs }),
    ...leadBodyParsers(),
    async (req: Request, res) => {
      const result = await service.submit(req.body as unknown, { clientIp: req.ip });
      res.status(result.status).json(resultBody(result));
    },
  );

  router.all('/', noStore, (_req, res) => {
    res.set('Allow', 'POST').status(405).json({ error: API_ERROR_MESSAGES.methodNotAllowed });
  });

  router.use(leadApiErrorHandler(logger));
  return router;
}

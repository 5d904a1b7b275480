import express, {
  Router,
  type ErrorRequestHandler,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import { rateLimit as expressRateLimit } from 'express-rate-limit';
import type { Logger } from 'pino';
import { resultBody, type LeadService } from '../app/leads/lead-service.server.ts';
import { UNEXPECTED_ERROR_MESSAGE } from '../app/leads/schema.ts';

/**
 * POST /api/leads (CONTRACT "HTTP API"). Mounted by the server at
 * /api/leads. The pieces (origin check, body reading, rate limiter) are
 * exported so the React Router form actions can apply the same rules.
 *
 * Every answer is JSON; the only 5xx is 502 (CONTRACT: no configured
 * delivery accepted the lead, or an unexpected failure before anything was
 * committed).
 */

export const LEAD_BODY_LIMIT_BYTES = 16 * 1024;
/** body-parser notation of the same 16 KiB limit. */
export const LEAD_BODY_LIMIT = '16kb';
/** CONTRACT LEAD_RATE_LIMIT: submissions per client IP per 10 minutes. */
export const LEAD_RATE_LIMIT_WINDOW_MS = 10 * 60 * 1000;

const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

export const API_ERROR_MESSAGES = {
  tooLarge: 'Your request is too large. Please shorten your message or call us directly.',
  unsupportedType: `Please send the form as ${FORM_TYPE} or ${JSON_TYPE}.`,
  malformed: 'The request could not be read. Please try again.',
  crossOrigin: 'Submissions from other websites are not accepted.',
  tooManyRequests: 'Too many requests. Please try again later or call us directly.',
  methodNotAllowed: 'Use POST to submit a lead.',
} as const;

// ---------------------------------------------------------------------------
// Origin check

export interface OriginHeaders {
  origin?: string | null | undefined;
  secFetchSite?: string | null | undefined;
  host?: string | null | undefined;
}

/**
 * Cross-site request forgery guard: a browser always sends Origin on a
 * cross-origin POST, so a present Origin must be the site's own (SITE_URL's
 * origin, or the origin of the Host the request was sent to). A request
 * without Origin comes from a non-browser client or an old browser, and is
 * let through. `Sec-Fetch-Site: cross-site` is refused outright.
 */
export function isAllowedOrigin(headers: OriginHeaders, siteUrl: string): boolean {
  if (headers.secFetchSite?.trim().toLowerCase() === 'cross-site') return false;
  const origin = headers.origin?.trim();
  if (!origin) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false; // includes the opaque origin "null"
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  try {
    if (parsed.origin === new URL(siteUrl).origin) return true;
  } catch {
    // An unusable SITE_URL only leaves the Host comparison.
  }
  const host = headers.host?.trim();
  if (!host) return false;
  try {
    // Normalised through URL so "example.com:80" equals "http://example.com".
    return new URL(`${parsed.protocol}//${host}`).host === parsed.host;
  } catch {
    return false;
  }
}

/** The same check for a Web Request (React Router actions). */
export function isAllowedRequestOrigin(request: globalThis.Request, siteUrl: string): boolean {
  return isAllowedOrigin(
    {
      origin: request.headers.get('origin'),
      secFetchSite: request.headers.get('sec-fetch-site'),
      host: request.headers.get('host') ?? new URL(request.url).host,
    },
    siteUrl,
  );
}

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

/** The media type of a Content-Type header, lower-cased, without parameters. */
function mediaType(header: string | null | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function charsetOf(header: string | null | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(header ?? '');
  return match?.[1]?.toLowerCase();
}

/** Only the two content types, in UTF-8 (the default when no charset is given). */
function isAcceptedContentType(header: string | null | undefined): boolean {
  const type = mediaType(header);
  const charset = charsetOf(header);
  return (type === JSON_TYPE || type === FORM_TYPE) && (!charset || charset === 'utf-8');
}

/** 415 for anything but the two accepted content types, before reading a byte. */
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

export type ReadLeadRequestResult =
  | { ok: true; body: unknown }
  | { ok: false; status: 400 | 413 | 415; error: string; fields?: Record<string, string> };

/**
 * The body rules of the API for a Web Request (React Router actions, where
 * Express's parsers do not run): same content types, same 16 KiB limit.
 * Form fields keep their first value.
 */
export async function readLeadRequest(
  request: globalThis.Request,
  options: { limitBytes?: number } = {},
): Promise<ReadLeadRequestResult> {
  const limit = options.limitBytes ?? LEAD_BODY_LIMIT_BYTES;
  const header = request.headers.get('content-type');
  const type = mediaType(header);
  if (!isAcceptedContentType(header)) {
    return { ok: false, status: 415, error: API_ERROR_MESSAGES.unsupportedType };
  }
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await request.body?.cancel().catch(() => undefined);
    return { ok: false, status: 413, error: API_ERROR_MESSAGES.tooLarge };
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > limit) {
          await reader.cancel().catch(() => undefined);
          return { ok: false, status: 413, error: API_ERROR_MESSAGES.tooLarge };
        }
        chunks.push(value);
      }
    } catch {
      return { ok: false, status: 400, error: API_ERROR_MESSAGES.malformed, fields: {} };
    }
  }
  const text = new TextDecoder().decode(Buffer.concat(chunks));
  if (type === FORM_TYPE) {
    const fields: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const [key, value] of new URLSearchParams(text)) {
      if (!(key in fields)) fields[key] = value;
    }
    return { ok: true, body: fields };
  }
  if (text.trim() === '') return { ok: true, body: {} };
  try {
    const body: unknown = JSON.parse(text);
    // Like body-parser's strict mode: objects and arrays only.
    if (typeof body !== 'object' || body === null) throw new Error('not an object');
    return { ok: true, body };
  } catch {
    return { ok: false, status: 400, error: API_ERROR_MESSAGES.malformed, fields: {} };
  }
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
 * behind a reverse proxy the app must set `trust proxy` accordingly. The
 * count lives in process memory (one count per server process).
 *
 * The API gets a JSON 429. A page form post (marked by formPostRateLimit)
 * is only flagged and passed on: a visitor without JavaScript must get the
 * page back with the message in the form, so the route action answers the
 * 429 itself (isFormPostRateLimited). Retry-After is set here in both cases.
 */
export function createLeadRateLimiter(options: {
  limit: number;
  windowMs?: number;
}): RequestHandler {
  return expressRateLimit({
    windowMs: options.windowMs ?? LEAD_RATE_LIMIT_WINDOW_MS,
    limit: options.limit,
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

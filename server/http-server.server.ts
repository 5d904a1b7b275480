import http from 'node:http';

/**
 * How long a client may take (milliseconds). Node's own limits are 60 s for
 * the headers and 300 s for a whole request, checked every 30 s: a few
 * hundred connections that send their headers a byte at a time, or nothing
 * at all, would each hold a socket and its memory for minutes.
 */
export interface ClientTimeLimits {
  /** From the connection (or, on a kept-alive one, the request's first byte) to the end of the headers. */
  headersMs: number;
  /** The same to the end of the body. */
  requestMs: number;
  /** An idle kept-alive connection between requests. */
  keepAliveMs: number;
  /** How often the server looks for requests over their limits. */
  checkEveryMs: number;
}

/**
 * The largest request the site takes is a 16 KiB form post
 * (LEAD_BODY_LIMIT_BYTES). A phone on a poor 2G connection sends 20 kbit/s
 * or more: headers of 1 to 2 KiB in under a second, the post with its
 * headers in about 7 s. The limits give that phone several times its need
 * (30 s is enough down to 5 kbit/s), and a connection that trickles or says
 * nothing is closed, with a 408, within 11 s. Behind Caddy a slow phone's
 * body reaches the server as slowly as the phone sends it, so the same limits
 * hold there. Kept-alive connections stay for 65 s, longer than the 60 s a
 * load balancer commonly keeps them, so the server never closes one the
 * proxy is about to reuse.
 */
export const CLIENT_TIME_LIMITS: ClientTimeLimits = {
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 65_000,
  checkEveryMs: 1_000,
};

/** The site's HTTP server for a request handler (the Express app), with the time limits above. */
export function createHttpServer(
  handler: http.RequestListener,
  limits: ClientTimeLimits = CLIENT_TIME_LIMITS,
): http.Server {
  const server = http.createServer(
    {
      headersTimeout: limits.headersMs,
      requestTimeout: limits.requestMs,
      keepAliveTimeout: limits.keepAliveMs,
      connectionsCheckingInterval: limits.checkEveryMs,
    },
    handler,
  );
  return server;
}

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
  /** From the end of the headers to the end of the body, for every body but an upload's. */
  requestMs: number;
  /**
   * An upload (a `multipart/form-data` POST: photos with an enquiry, a job
   * photo) has no total limit: it must keep arriving, at least
   * `minBytesPerSecond` over each `windowMs`, or it is ended.
   */
  upload: { minBytesPerSecond: number; windowMs: number };
  /**
   * After an answer given before the body was in, how long the rest of the
   * body is read and thrown away at most (a web server's lingering close).
   */
  lingerMs: number;
  /** An idle kept-alive connection between requests. */
  keepAliveMs: number;
  /** How often the server looks for requests over their limits. */
  checkEveryMs: number;
}

/**
 * The largest form post is 16 KiB (LEAD_BODY_LIMIT_BYTES). A phone on a
 * poor 2G connection sends 20 kbit/s or more: headers of 1 to 2 KiB in
 * under a second, the post with its headers in about 7 s. The limits give
 * that phone several times its need (30 s is enough down to 5 kbit/s), and a
 * connection that trickles or says nothing is closed, with a 408, within
 * 11 s. Behind Caddy a slow phone's body reaches the server as slowly as the
 * phone sends it, so the same limits hold there. Kept-alive connections stay
 * for 65 s, longer than the 60 s a load balancer commonly keeps them, so the
 * server never closes one the proxy is about to reuse.
 *
 * An upload is up to 32 MiB (three photos with an enquiry) or 20 MiB (a job
 * photo): at the 30 s of a form post it would need more than 5 Mbit/s. It
 * takes as long as it needs while it keeps arriving at 16 kbit/s or more
 * (2 KiB/s, measured over 20 s: a weak mobile signal that still moves), so
 * a 20 MiB photo over a 1 Mbit/s connection (about 3 minutes) succeeds, and
 * one that stalls is ended within 20 s. How many uploads are read at once
 * is bounded too (upload-slots.server.ts), so slow uploads cannot hold more
 * than those few.
 */
export const CLIENT_TIME_LIMITS: ClientTimeLimits = {
  headersMs: 10_000,
  requestMs: 30_000,
  upload: { minBytesPerSecond: 2 * 1024, windowMs: 20_000 },
  lingerMs: 30_000,
  keepAliveMs: 65_000,
  checkEveryMs: 1_000,
};

/** A `multipart/form-data` POST: an upload, with the upload's time limit. */
export function isUpload(req: http.IncomingMessage): boolean {
  return (
    req.method === 'POST' &&
    (req.headers['content-type'] ?? '').trimStart().toLowerCase().startsWith('multipart/form-data')
  );
}

/** Uploads whose clock stands still: they wait their turn and are not read meanwhile. */
const held = new WeakMap<http.IncomingMessage, number>();

/**
 * Stops an upload's clock while the server, not the client, keeps it
 * waiting (a turn to be read: upload-slots.server.ts); the function
 * returned starts it again.
 */
export function holdUploadClock(req: http.IncomingMessage): () => void {
  held.set(req, (held.get(req) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held.set(req, (held.get(req) ?? 1) - 1);
  };
}

/**
 * Ends a request over its limit as Node ends one over its own: a 408 when
 * nothing of the answer was written yet, then the connection is destroyed.
 */
function endSlowRequest(res: http.ServerResponse) {
  const socket = res.socket;
  if (!socket) return;
  if (socket.writable && !res.headersSent) {
    socket.write('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
  }
  socket.destroy();
}

/** Applies the body's time limit to one request, until its body is in or its answer ends. */
function watchBody(req: http.IncomingMessage, res: http.ServerResponse, limits: ClientTimeLimits) {
  // Without a body (most requests: a GET), the request is in with its headers.
  const length = req.headers['content-length'];
  if ((length === undefined || length === '0') && req.headers['transfer-encoding'] === undefined) {
    return;
  }
  let timer: NodeJS.Timeout;
  if (isUpload(req)) {
    const { minBytesPerSecond, windowMs } = limits.upload;
    const socket = req.socket;
    let mark = socket.bytesRead;
    timer = setInterval(() => {
      if (req.complete) return clearInterval(timer);
      const read = socket.bytesRead;
      const moved = read - mark;
      mark = read;
      if ((held.get(req) ?? 0) > 0) return;
      if (moved < (minBytesPerSecond * windowMs) / 1000) {
        clearInterval(timer);
        endSlowRequest(res);
      }
    }, windowMs);
  } else {
    timer = setTimeout(() => {
      if (!req.complete) endSlowRequest(res);
    }, limits.requestMs);
  }
  // Not at the answer's end: an answer given early leaves a body still to come (lingerOnClose).
  req.once('close', () => clearTimeout(timer));
}

/**
 * An answer given before the request's body is all in (a refusal that
 * never reads it: 413, 429, 503) says `Connection: close`, and the
 * connection closes the way a careful server closes one (a lingering
 * close, lingerOnClose), so the client reads the answer instead of a reset.
 */
function closeWhenBodyUnread(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  lingerMs: number,
) {
  const writeHead = res.writeHead;
  res.writeHead = function (this: http.ServerResponse, ...args: unknown[]) {
    if (!req.complete && !res.headersSent) {
      res.setHeader('Connection', 'close');
      lingerOnClose(req, lingerMs);
    }
    return (writeHead as (...rest: unknown[]) => http.ServerResponse).apply(this, args);
  } as typeof res.writeHead;
}

/**
 * Node ends a `Connection: close` answer with socket.destroySoon(), which
 * would reset a connection whose client is still sending: instead the
 * server's side is ended after the answer (the client sees the answer,
 * then the end) and what still arrives is read off the wire and thrown
 * away until the client ends its side too, or `lingerMs` has passed.
 */
function lingerOnClose(req: http.IncomingMessage, lingerMs: number) {
  const socket = req.socket;
  const destroySoon = socket.destroySoon.bind(socket);
  socket.destroySoon = () => {
    if (req.complete || socket.destroyed) return destroySoon();
    socket.end();
    socket.on('data', () => undefined);
    socket.once('end', () => socket.destroy());
    setTimeout(() => socket.destroy(), lingerMs).unref();
    socket.resume();
  };
}

/** The site's HTTP server for a request handler (the Express app), with the time limits above. */
export function createHttpServer(
  handler: http.RequestListener,
  limits: ClientTimeLimits = CLIENT_TIME_LIMITS,
): http.Server {
  const server = http.createServer(
    {
      headersTimeout: limits.headersMs,
      // The body's limits are the server's own (watchBody): an upload's
      // depends on what arrives, which Node's single limit cannot say.
      requestTimeout: 0,
      keepAliveTimeout: limits.keepAliveMs,
      connectionsCheckingInterval: limits.checkEveryMs,
    },
    (req, res) => {
      watchBody(req, res, limits);
      closeWhenBodyUnread(req, res, limits.lingerMs);
      return handler(req, res);
    },
  );
  return server;
}

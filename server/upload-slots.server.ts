import type { RequestHandler, Response } from 'express';
import { holdUploadClock, isUpload } from './http-server.server.ts';

/**
 * How many uploads (`multipart/form-data` posts: photos with an enquiry, a
 * job photo) this process reads at once (docs/operations.md#photos-with-an-enquiry).
 * An upload's parts are written to a temporary file as they arrive, never
 * held whole in memory, but each one read costs a connection, a file and
 * the disk's time; beyond these few, an upload waits its turn, unread (its
 * time limit stands still meanwhile: http-server.server.ts), first come
 * first served. One that cannot start within `waitMs` is answered 503 with
 * Retry-After, unread: nothing of it was stored, so nothing is lost, and
 * the visitor is asked to send it again. An answer that needs no body (a
 * 429, a 413 on a declared length) never waits for a turn.
 */
export const UPLOAD_SLOTS = { slots: 2, waitMs: 30_000, retryAfterS: 30 } as const;

export const UPLOAD_BUSY_MESSAGE =
  'We are receiving a lot of photos right now. Please try again in a minute, or call us.';

export interface UploadSlotOptions {
  slots?: number;
  waitMs?: number;
  retryAfterS?: number;
}

/**
 * Turns for uploads, one set per process shared by every upload route:
 * each route's middleware lets an upload on once it has a turn (released
 * when its answer ends or its connection closes), and every other request
 * straight on.
 */
export function uploadSlots(options: UploadSlotOptions = {}) {
  const slots = options.slots ?? UPLOAD_SLOTS.slots;
  const waitMs = options.waitMs ?? UPLOAD_SLOTS.waitMs;
  const retryAfterS = options.retryAfterS ?? UPLOAD_SLOTS.retryAfterS;
  let reading = 0;
  const waiting: Array<() => void> = [];

  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else reading--;
  };

  /** The turn-taker of one route; `unread` says when a request is answered without its body. */
  return (unread?: (res: Response) => boolean): RequestHandler =>
    (req, res, next) => {
      if (!isUpload(req) || unread?.(res)) return next();
      let done = false;
      const start = () => {
        res.once('close', release);
        next();
      };
      if (reading < slots) {
        reading++;
        return start();
      }
      const resume = holdUploadClock(req);
      const turn = () => {
        if (done) return release();
        done = true;
        clearTimeout(timer);
        resume();
        start();
      };
      const timer = setTimeout(() => {
        if (done) return;
        done = true;
        resume();
        const at = waiting.indexOf(turn);
        if (at !== -1) waiting.splice(at, 1);
        res.set('Retry-After', String(retryAfterS)).set('Cache-Control', 'no-store');
        res.status(503);
        // The API answers JSON (docs/operations.md "HTTP API"); a page, words.
        if (req.originalUrl.startsWith('/api/')) res.json({ error: UPLOAD_BUSY_MESSAGE });
        else res.type('text/plain').send(UPLOAD_BUSY_MESSAGE);
      }, waitMs);
      // A client that gave up while waiting leaves the queue.
      res.once('close', () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resume();
        const at = waiting.indexOf(turn);
        if (at !== -1) waiting.splice(at, 1);
      });
      waiting.push(turn);
    };
}

/** This process's turns, shared by every upload route. */
export const processUploadSlots = uploadSlots();

import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { PhotoLinks } from '../app/leads/delivery/signed-photo-links.server.ts';
import { storeErrorForLog, type AppStore } from '../app/db/store.server.ts';

/**
 * GET /lead-photos/LEAD_ID/N?expires=…&sig=…: a photo of a lead, for the
 * signed link a webhook's JSON gives (docs/operations.md#webhook-payload),
 * without a session. Mounted at PHOTO_LINK_PATH.
 *
 * The signature is checked first (app/leads/delivery/signed-photo-links.server.ts),
 * so the store is read only for a link this site made. A bad signature, an
 * expired link, another lead's number, a photo or lead deleted since: all
 * get the same 404, so an answer says nothing about which. The path is
 * split on "/", never matched by a pattern; each part is checked by the
 * signer's bounded, anchored patterns.
 */

/** The photo's own CSP: an image shown alone, with nothing to load and no frame to sit in. */
export const PHOTO_CSP = "default-src 'none'; img-src 'self'; frame-ancestors 'none'; sandbox";

const NOT_FOUND = 'This photo link is not valid. It may have expired.\n';

export interface LeadPhotoRouteOptions {
  links: PhotoLinks;
  store: Pick<AppStore, 'getLeadPhoto'>;
  logger?: Logger | undefined;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
}

export function leadPhotoRoute(options: LeadPhotoRouteOptions): RequestHandler {
  const now = options.now ?? Date.now;
  return async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Robots-Tag', 'noindex');
    res.setHeader('Content-Security-Policy', PHOTO_CSP);
    res.setHeader('Referrer-Policy', 'no-referrer');
    const notFound = () => {
      res.setHeader('Cache-Control', 'no-store');
      res.status(404).type('text/plain').send(NOT_FOUND);
    };
    // req.path below the mount point: "/LEAD_ID/N".
    const parts = req.path.split('/');
    if (parts.length !== 3 || parts[0] !== '') return notFound();
    let leadId: string;
    try {
      leadId = decodeURIComponent(parts[1] ?? '');
    } catch {
      return notFound();
    }
    try {
      const at = now();
      const valid = await options.links.verify(
        leadId,
        parts[2],
        req.query.expires,
        req.query.sig,
        at,
      );
      if (!valid) return notFound();
      const photo = await options.store.getLeadPhoto(leadId, valid.number - 1);
      if (!photo) return notFound();
      // Kept by the browser that opened it, no longer than the link works.
      const maxAge = Math.max(0, Math.floor((valid.expiresAt - at) / 1000));
      res.setHeader('Cache-Control', `private, max-age=${maxAge}`);
      res.setHeader('Content-Disposition', `inline; filename="photo-${valid.number}.jpg"`);
      res.type('image/jpeg').send(Buffer.from(photo.data));
    } catch (error) {
      // The store (or its secret) could not be read: try again later.
      options.logger?.error({ err: storeErrorForLog(error) }, 'Could not serve a lead photo');
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Retry-After', '30');
      res
        .status(503)
        .type('text/plain')
        .send('This photo cannot be shown just now. Please try again shortly.\n');
    }
  };
}

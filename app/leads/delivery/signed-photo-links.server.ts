import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed links to a lead's photos (docs/operations.md#webhook-payload): a
 * webhook's JSON names each photo by a link that works for 7 days without
 * a session, such as
 * `SITE_URL/lead-photos/LEAD_ID/1?expires=1767225600&sig=…`.
 *
 * The signature is an HMAC-SHA256 over the lead's id, the photo's number
 * and the link's expiry, keyed with the store's own secret (made once
 * with random bytes, the same for every process on one database), so nobody
 * can make a link to another lead's photo, to another photo of the same
 * lead, or one that lasts longer. It is checked with a constant-time
 * comparison before the store is asked for anything.
 */

/** Where the links point (server/lead-photo-route.server.ts answers them). */
export const PHOTO_LINK_PATH = '/lead-photos';

/** How long a link works after the delivery that made it. */
export const PHOTO_LINK_DAYS = 7;
export const PHOTO_LINK_TTL_S = PHOTO_LINK_DAYS * 24 * 60 * 60;

/** Photo numbers start at 1, as the e-mail's photo-1.jpg and the lead page's "Photo 1". */
const NUMBER = /^[1-9][0-9]{0,2}$/;
/** Seconds since the epoch. */
const EXPIRES = /^[1-9][0-9]{0,11}$/;
/** A SHA-256 HMAC in base64url, unpadded. */
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;
/** Longer than any lead id (a UUID); the signature decides the rest. */
const LEAD_ID_MAX = 64;

export interface PhotoLinkOptions {
  /** SITE_URL: the links are absolute. */
  siteUrl: string;
  /** The signing key: the store's `photo-links` secret (getOrCreateSecret). */
  secret: () => Promise<Uint8Array>;
}

export interface PhotoLinks {
  /** The link to photo `number` (from 1) of a lead, valid PHOTO_LINK_TTL_S from `nowMs`. */
  link(leadId: string, number: number, nowMs: number): Promise<string>;
  /**
   * The photo number a link names, when its signature holds for this lead,
   * number and expiry and it has not expired at `nowMs`; null otherwise.
   * Each part is taken as the request gave it, checked before use.
   */
  verify(
    leadId: string,
    number: unknown,
    expires: unknown,
    signature: unknown,
    nowMs: number,
  ): Promise<{ number: number; expiresAt: number } | null>;
}

function mac(key: Uint8Array, leadId: string, number: string, expires: string): Buffer {
  return createHmac('sha256', key).update(`${leadId}\n${number}\n${expires}`, 'utf8').digest();
}

export function photoLinks(options: PhotoLinkOptions): PhotoLinks {
  const origin = options.siteUrl.replace(/\/+$/, '');
  // The secret never changes once made: asked for once per process, again after a failure.
  let key: Promise<Uint8Array> | undefined;
  const secret = () => {
    key ??= options.secret().catch((error: unknown) => {
      key = undefined;
      throw error;
    });
    return key;
  };

  return {
    async link(leadId, number, nowMs) {
      const expires = String(Math.floor(nowMs / 1000) + PHOTO_LINK_TTL_S);
      const signature = mac(await secret(), leadId, String(number), expires).toString('base64url');
      const path = `${PHOTO_LINK_PATH}/${encodeURIComponent(leadId)}/${number}`;
      return `${origin}${path}?expires=${expires}&sig=${signature}`;
    },
    async verify(leadId, number, expires, signature, nowMs) {
      if (
        leadId.length === 0 ||
        leadId.length > LEAD_ID_MAX ||
        typeof number !== 'string' ||
        typeof expires !== 'string' ||
        typeof signature !== 'string' ||
        !NUMBER.test(number) ||
        !EXPIRES.test(expires) ||
        !SIGNATURE.test(signature)
      ) {
        return null;
      }
      // Compared as the text the link carries: base64url leaves two spare bits
      // in its last character, so decoding would take four spellings of one
      // signature; only the one this site writes is accepted.
      const expected = Buffer.from(
        mac(await secret(), leadId, number, expires).toString('base64url'),
      );
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      const expiresAt = Number(expires) * 1000;
      if (expiresAt <= nowMs) return null;
      return { number: Number(number), expiresAt };
    },
  };
}

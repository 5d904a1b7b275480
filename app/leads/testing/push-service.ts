import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as ece from 'http_ece';

/**
 * A push service for tests (docs/operations.md#push-notifications), on
 * 127.0.0.1, standing in for the browsers' own (Google's, Mozilla's,
 * Apple's): it issues subscriptions as a browser would make them (a P-256
 * key pair and a 16-byte auth secret of its own, an endpoint here), and
 * checks every push the way a real one does before it takes it:
 *
 * - the VAPID header (RFC 8292): `Authorization: vapid t=JWT, k=KEY`, the
 *   JWT an ES256 signature verified with node:crypto against k, its `aud`
 *   this service's origin, its `exp` in the future and within 24 hours,
 *   its `sub` a mailto: or https: URL;
 * - the body (RFC 8291): `Content-Encoding: aes128gcm`, decrypted with
 *   http_ece and the subscription's private key and auth secret, as the
 *   browser would before handing it to the service worker.
 *
 * It records each push it took (the decrypted text and its JSON, TTL,
 * Urgency, Topic, the JWT's claims) and each it refused with the reason,
 * and answers 201, or the status a test sets for a subscription (404, 410,
 * 500…). Test support only: never imported by production code.
 */

/** What `PushSubscription.toJSON()` gives a page, and the page posts to /admin/push. */
export interface BrowserSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface ReceivedPush {
  endpoint: string;
  /** The decrypted body. */
  text: string;
  /** Its JSON, or undefined when it is not JSON. */
  json: unknown;
  ttl: string | undefined;
  urgency: string | undefined;
  topic: string | undefined;
  /** The VAPID JWT's claims, and the public key it was signed with (k). */
  vapid: { aud: string; exp: number; sub: string; publicKey: string };
  /** performance.now() when it arrived. */
  at: number;
}

export interface RefusedPush {
  endpoint: string;
  status: number;
  reason: string;
}

export interface PushServiceStandIn {
  readonly origin: string;
  /** The pushes taken, in order of arrival. */
  readonly received: ReceivedPush[];
  /** The pushes refused for a bad signature, body or subscription. */
  readonly refused: RefusedPush[];
  /** A new subscription, as a browser's pushManager.subscribe() makes one. */
  subscribe(): BrowserSubscription;
  /** Answer every later push to this subscription with `status` (201 by default). */
  answer(endpoint: string, status: number, headers?: Record<string, string>): void;
  /** Resolves once `count` pushes (to any subscription, or to `endpoint`) were taken. */
  waitForPushes(count: number, options?: { endpoint?: string; timeoutMs?: number }): Promise<void>;
  close(): Promise<void>;
}

interface Device {
  ecdh: ECDH;
  auth: string;
  status: number;
  headers: Record<string, string>;
}

const DAY_S = 24 * 60 * 60;

/** The claims of a VAPID JWT verified against its key, or the reason it is refused. */
function checkVapid(
  authorization: string | undefined,
  origin: string,
): { ok: true; vapid: ReceivedPush['vapid'] } | { ok: false; reason: string } {
  if (!authorization?.startsWith('vapid ')) return { ok: false, reason: 'no vapid authorization' };
  const params = new Map<string, string>();
  for (const part of authorization.slice('vapid '.length).split(',')) {
    const at = part.indexOf('=');
    if (at > 0) params.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  const token = params.get('t');
  const key = params.get('k');
  if (!token || !key) return { ok: false, reason: 'vapid t= or k= missing' };
  const point = Buffer.from(key, 'base64url');
  if (point.length !== 65 || point[0] !== 4) return { ok: false, reason: 'k is not a P-256 point' };
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || !signature) return { ok: false, reason: 'not a JWT' };
  let claims: { aud?: unknown; exp?: unknown; sub?: unknown };
  try {
    const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as {
      alg?: unknown;
    };
    if (head.alg !== 'ES256') return { ok: false, reason: 'JWT alg is not ES256' };
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof claims;
  } catch {
    return { ok: false, reason: 'JWT is not JSON' };
  }
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) return { ok: false, reason: 'JWT signature does not verify against k' };
  if (claims.aud !== origin) return { ok: false, reason: `JWT aud is not ${origin}` };
  const now = Math.floor(Date.now() / 1000);
  if (typeof claims.exp !== 'number' || claims.exp <= now || claims.exp > now + DAY_S) {
    return { ok: false, reason: 'JWT exp is not within the next 24 hours' };
  }
  const sub = typeof claims.sub === 'string' ? claims.sub : '';
  const subOk =
    (sub.startsWith('mailto:') && sub.includes('@')) ||
    (() => {
      try {
        return new URL(sub).protocol === 'https:';
      } catch {
        return false;
      }
    })();
  if (!subOk) return { ok: false, reason: 'JWT sub is not a mailto: or https: URL' };
  return { ok: true, vapid: { aud: claims.aud, exp: claims.exp, sub, publicKey: key } };
}

export async function startPushService(): Promise<PushServiceStandIn> {
  const devices = new Map<string, Device>();
  const received: ReceivedPush[] = [];
  const refused: RefusedPush[] = [];
  const waiters = new Set<() => void>();
  let origin = '';

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const endpoint = `${origin}${req.url ?? ''}`;
      const refuse = (status: number, reason: string) => {
        refused.push({ endpoint, status, reason });
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end(reason);
      };
      const device = devices.get(endpoint);
      if (req.method !== 'POST' || !device) return refuse(404, 'no such subscription');
      const vapid = checkVapid(req.headers.authorization, origin);
      if (!vapid.ok) return refuse(401, vapid.reason);
      if (req.headers['content-encoding'] !== 'aes128gcm') {
        return refuse(400, 'Content-Encoding is not aes128gcm');
      }
      if (req.headers.ttl === undefined) return refuse(400, 'no TTL header');
      let text: string;
      try {
        text = ece
          .decrypt(Buffer.concat(chunks), {
            version: 'aes128gcm',
            privateKey: device.ecdh,
            authSecret: device.auth,
          })
          .toString('utf8');
      } catch (error) {
        return refuse(400, `could not decrypt: ${(error as Error).message}`);
      }
      if (device.status >= 200 && device.status < 300) {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        received.push({
          endpoint,
          text,
          json,
          ttl: req.headers.ttl as string | undefined,
          urgency: req.headers.urgency as string | undefined,
          topic: req.headers.topic as string | undefined,
          vapid: vapid.vapid,
          at: performance.now(),
        });
        for (const wake of [...waiters]) wake();
      }
      res.writeHead(device.status, { 'content-type': 'text/plain', ...device.headers });
      res.end(device.status === 201 ? '' : `answered ${device.status} for ${endpoint}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    received,
    refused,
    subscribe() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16).toString('base64url');
      const endpoint = `${origin}/push/${randomBytes(24).toString('base64url')}`;
      devices.set(endpoint, { ecdh, auth, status: 201, headers: {} });
      return {
        endpoint,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth },
      };
    },
    answer(endpoint, status, headers = {}) {
      const device = devices.get(endpoint);
      if (!device) throw new Error('Not a subscription of this push service');
      device.status = status;
      device.headers = headers;
    },
    waitForPushes(count, options = {}) {
      const taken = () =>
        received.filter((push) => !options.endpoint || push.endpoint === options.endpoint).length >=
        count;
      if (taken()) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const wake = () => {
          if (!taken()) return;
          waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(
            new Error(
              `expected ${count} pushes, got ${received.length} (refused: ${refused.map((r) => r.reason).join('; ') || 'none'})`,
            ),
          );
        }, options.timeoutMs ?? 30_000);
        waiters.add(wake);
      });
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

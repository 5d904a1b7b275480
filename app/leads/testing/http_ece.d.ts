/** The parts of http_ece (RFC 8188) the tests' push service uses; the package ships no types. */
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';

  interface EceParameters {
    version?: 'aes128gcm' | 'aesgcm' | 'aesgcm128';
    /** The receiver's key pair (the browser's p256dh). */
    privateKey?: ECDH;
    /** The subscription's auth secret, base64url. */
    authSecret?: string | Buffer;
    dh?: string | Buffer;
    salt?: string | Buffer;
    key?: string | Buffer;
    keyid?: string | Buffer;
    rs?: number;
  }

  export function decrypt(buffer: Buffer, parameters: EceParameters): Buffer;
  export function encrypt(buffer: Buffer, parameters: EceParameters): Buffer;
}

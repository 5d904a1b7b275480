/*
 * The store's own secrets (docs/operations.md#webhook-payload): 32 random
 * bytes each, made once by whichever process asks first, the same for
 * every process on one database. Its SQLite and PostgreSQL halves are
 * beside it.
 */

/** The secrets the store keeps (getOrCreateSecret): what each signs. */
export type StoreSecretName = 'photo-links';

/** The length of a store secret, in bytes. */
export const STORE_SECRET_BYTES = 32;

export interface SecretStore {
  /**
   * The store's secret of this name: 32 random bytes made once, the first
   * time any process asks, and the same for every process on the store
   * after that (the signed photo links, docs/operations.md#webhook-payload).
   */
  getOrCreateSecret(name: StoreSecretName): Promise<Uint8Array>;
}

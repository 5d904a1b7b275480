/*
 * The store's own secrets (docs/operations.md#webhook-payload): 32 random
 * bytes each, made once by whichever process asks first, the same for
 * every process on one database. Its SQLite and PostgreSQL halves are
 * beside it.
 */

/**
 * The secrets the store keeps (getOrCreateSecret), named for what each
 * signs: the photo links of a webhook's JSON, the lead forms' proof-of-work
 * challenges (docs/forms.md#proof-of-work).
 */
export type StoreSecretName = 'photo-links' | 'lead-challenges';

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

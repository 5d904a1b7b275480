/*
 * The proofs of work already spent (docs/forms.md#proof-of-work): each
 * solved challenge a lead form sent is recorded here once, until the
 * challenge expires, so the same solution sent again is recognised as a
 * replay. Shared by every process on one database. Its SQLite and
 * PostgreSQL halves are beside it.
 */

export interface ProofOfWorkStore {
  /**
   * Records that the challenge `key` has been used, until `expiresAt` (ISO
   * 8601). True the first time; false when it was already recorded. Atomic:
   * of two processes spending the same key at once, exactly one gets true.
   */
  spendProofOfWork(key: string, expiresAt: string): Promise<boolean>;

  /** Forgets the spent challenges whose expiry has passed; returns how many. */
  purgeSpentProofsOfWork(): Promise<number>;
}

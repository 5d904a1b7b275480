import { createHmac } from 'node:crypto';
import {
  createChallenge,
  randomInt,
  verifySolution,
  type Challenge,
  type Solution,
} from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Logger } from 'pino';
import type { AppStore } from '../../db/store.server.ts';
import { storeErrorForLog } from '../../db/store.server.ts';
import type { ProofVerdict } from './spam-rules.server.ts';
import { PROOF_OF_WORK_LIFETIME_MINUTES } from './form-submission.ts';

/**
 * The invisible proof of work of the lead forms (docs/forms.md#proof-of-work),
 * ALTCHA's scheme through its library, altcha-lib
 * (docs/decisions/0015-invisible-proof-of-work-with-altcha.md):
 *
 * - the server issues a challenge (GET /api/leads/challenge), signed with
 *   HMAC-SHA256 under the store's `lead-challenges` secret, so every process
 *   on one database issues and checks alike, and valid for 20 minutes;
 * - the visitor's browser finds the counter whose PBKDF2-SHA256 key starts
 *   with the signed prefix (a Web Worker, while the visitor types) and the
 *   form sends the challenge with its solution in `altcha`;
 * - the server checks it here: signed by us, not expired, the key right
 *   (against the key's own signature, no derivation), and spent once.
 *
 * The verdict (`valid`, `invalid` for anything unreadable, altered, wrong or
 * expired, `replayed`, or `absent`) goes with the lead to the lead service,
 * whose spam rules decide what it means (docs/operations.md#spam). No cookie, nothing stored in the browser,
 * no third party: the challenge and the solution are all there is.
 */

/**
 * How hard a challenge is: the solver tries counters from 0 up to one
 * drawn between counterMin and counterMax, each a PBKDF2 of `cost`
 * iterations. Measured in Chromium on the development machine (one worker):
 * 0.35 to 0.4 ms a try, so 0.4 to 0.8 s; with the CPU slowed four times,
 * as for a slow phone, about 2 s at most: well within the time it takes to
 * type a name (docs/forms.md#proof-of-work).
 */
export interface ProofOfWorkDifficulty {
  cost: number;
  counterMin: number;
  counterMax: number;
}

export const PROOF_OF_WORK_DIFFICULTY: ProofOfWorkDifficulty = {
  cost: 1000,
  counterMin: 1000,
  counterMax: 2000,
};

/** How long a challenge may be solved and sent; a form left open longer fetches another. */
export const PROOF_OF_WORK_LIFETIME_MS = PROOF_OF_WORK_LIFETIME_MINUTES * 60 * 1000;

const ALGORITHM = 'PBKDF2/SHA-256';

/** Far longer than any payload of ours (about 900 characters); the rest is not read. */
const PAYLOAD_MAX_LENGTH = 4000;

export interface ProofOfWork {
  /** A new signed challenge, as GET /api/leads/challenge answers it. */
  challenge(): Promise<Challenge>;
  /** The verdict on what a lead brought in `altcha` (PROOF_OF_WORK_FIELD); a valid one is spent. */
  check(payload: unknown): Promise<ProofVerdict>;
}

interface Keys {
  /** Signs a challenge's parameters. */
  challenge: string;
  /** Signs the key a challenge's solution derives (ALTCHA's key signature). */
  derivedKey: string;
}

/** The two signing keys, from the store's one secret. */
function keysOf(secret: Uint8Array): Keys {
  const key = (label: string) =>
    createHmac('sha256', secret).update(label, 'utf8').digest('base64url');
  return { challenge: key('challenge'), derivedKey: key('derived key') };
}

/** A payload as the form's script sends it: base64 of `{ challenge, solution }`, or nothing. */
function decode(payload: unknown): { challenge: Challenge; solution: Solution } | null {
  if (typeof payload !== 'string' || payload.length > PAYLOAD_MAX_LENGTH) return null;
  try {
    const decoded: unknown = JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
    if (typeof decoded !== 'object' || decoded === null) return null;
    const { challenge, solution } = decoded as Record<string, unknown>;
    if (typeof challenge !== 'object' || challenge === null) return null;
    if (typeof solution !== 'object' || solution === null) return null;
    const { parameters } = challenge as Record<string, unknown>;
    if (typeof parameters !== 'object' || parameters === null) return null;
    return { challenge: challenge as Challenge, solution: solution as Solution };
  } catch {
    return null;
  }
}

export function createProofOfWork(options: {
  store: Pick<AppStore, 'getOrCreateSecret' | 'spendProofOfWork'>;
  logger?: Logger | undefined;
  difficulty?: ProofOfWorkDifficulty;
  /** Milliseconds since the epoch, when a challenge is issued; injectable for tests. */
  now?: () => number;
}): ProofOfWork {
  const { store } = options;
  const difficulty = options.difficulty ?? PROOF_OF_WORK_DIFFICULTY;
  const now = options.now ?? Date.now;
  const log = options.logger?.child({ component: 'proof-of-work' });
  // The secret never changes once made: asked for once per process, again after a failure.
  let keys: Promise<Keys> | undefined;
  const signingKeys = () => {
    keys ??= store.getOrCreateSecret('lead-challenges').then(keysOf, (error: unknown) => {
      keys = undefined;
      throw error;
    });
    return keys;
  };

  return {
    async challenge() {
      const { challenge, derivedKey } = await signingKeys();
      return createChallenge({
        algorithm: ALGORITHM,
        cost: difficulty.cost,
        // Known to the server (ALTCHA's deterministic mode): the solver must
        // reach it, so the work is bounded, and the answer is checked by its
        // signature without deriving the key again.
        counter: randomInt(difficulty.counterMax, difficulty.counterMin),
        deriveKey,
        expiresAt: new Date(now() + PROOF_OF_WORK_LIFETIME_MS),
        hmacSignatureSecret: challenge,
        hmacKeySignatureSecret: derivedKey,
      });
    },

    async check(payload) {
      if (payload === undefined || payload === null) return 'absent';
      if (typeof payload === 'string' && payload.trim() === '') return 'absent';
      const sent = decode(payload);
      if (!sent) return 'invalid';
      let signing: Keys;
      try {
        signing = await signingKeys();
      } catch (error) {
        // Not checkable now: the lead is taken as one without, never as spam for it.
        log?.error({ err: storeErrorForLog(error) }, 'Proof of work not checked: no signing key');
        return 'absent';
      }
      let verified: boolean;
      try {
        // The parameters' signature is checked before anything else is
        // trusted: an altered cost or expiry is refused without any work.
        ({ verified } = await verifySolution({
          challenge: sent.challenge,
          solution: sent.solution,
          deriveKey,
          hmacSignatureSecret: signing.challenge,
          hmacKeySignatureSecret: signing.derivedKey,
        }));
      } catch {
        return 'invalid';
      }
      const { expiresAt } = sent.challenge.parameters;
      if (!verified || typeof sent.challenge.signature !== 'string' || !expiresAt) {
        return 'invalid';
      }
      try {
        const first = await store.spendProofOfWork(
          sent.challenge.signature,
          new Date(expiresAt * 1000).toISOString(),
        );
        return first ? 'valid' : 'replayed';
      } catch (error) {
        // The store cannot say whether it was sent before: a real visitor's
        // enquiry is not made spam by an outage.
        log?.error({ err: storeErrorForLog(error) }, 'Proof of work not spent: store unavailable');
        return 'valid';
      }
    },
  };
}

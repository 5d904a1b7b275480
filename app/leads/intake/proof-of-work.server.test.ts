import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppStore } from '../../db/store.server.ts';
import {
  captureLogger,
  POSTGRES_SKIP_MESSAGE,
  STORE_BACKENDS,
  TEST_DATABASE_URL,
  type StoreHarness,
} from '../testing/test-support.server.ts';
import {
  createProofOfWork,
  PROOF_OF_WORK_DIFFICULTY,
  PROOF_OF_WORK_LIFETIME_MS,
  type ProofOfWorkDifficulty,
} from './proof-of-work.server.ts';

if (!TEST_DATABASE_URL) console.warn(`Proof of work on ${POSTGRES_SKIP_MESSAGE}`);

/** Small enough to solve in a few milliseconds here; the real one is checked once. */
const EASY: ProofOfWorkDifficulty = { cost: 10, counterMin: 10, counterMax: 30 };

/** What a form's script sends in `altcha`: the challenge and its solution, as base64 JSON. */
async function solve(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('not solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** A decoded payload, loosely typed so a test can break any part of it. */
interface Decoded {
  challenge: { parameters: Record<string, number>; signature?: string };
  solution?: { counter: number; derivedKey: string };
}

/** The same payload with one change to what was decoded. */
function altered(payload: string, change: (decoded: Decoded) => void): string {
  const decoded = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as Decoded;
  change(decoded);
  return Buffer.from(JSON.stringify(decoded)).toString('base64');
}

for (const backend of STORE_BACKENDS) {
  describe.skipIf(backend.skip)(`the proof of work on ${backend.label}`, () => {
    const harnesses: StoreHarness[] = [];
    const stores: AppStore[] = [];
    const open = async (harness?: StoreHarness) => {
      if (!harness) {
        harness = await backend.harness();
        harnesses.push(harness);
      }
      const store = await harness.open();
      stores.push(store);
      return { store, harness };
    };

    afterEach(async () => {
      for (const store of stores.splice(0)) await store.close();
      for (const harness of harnesses.splice(0)) await harness.cleanup();
    });

    it('issues a signed challenge that expires, and accepts its solution once', async () => {
      const { store } = await open();
      const proof = createProofOfWork({ store, difficulty: EASY });
      const before = Date.now();
      const challenge = await proof.challenge();
      expect(challenge.parameters.algorithm).toBe('PBKDF2/SHA-256');
      expect(challenge.parameters.cost).toBe(EASY.cost);
      expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
      const expiresAtMs = (challenge.parameters.expiresAt ?? 0) * 1000;
      expect(expiresAtMs).toBeGreaterThanOrEqual(before + PROOF_OF_WORK_LIFETIME_MS - 1000);
      expect(expiresAtMs).toBeLessThanOrEqual(Date.now() + PROOF_OF_WORK_LIFETIME_MS);

      const payload = await solve(challenge);
      expect(await proof.check(payload)).toBe('valid');
      expect(await proof.check(payload)).toBe('replayed');
      // Another challenge is its own.
      expect(await proof.check(await solve(await proof.challenge()))).toBe('valid');
    });

    it('every process on one database signs alike, and a replay is refused across them', async () => {
      const { store, harness } = await open();
      const { store: other } = await open(harness);
      const first = createProofOfWork({ store, difficulty: EASY });
      const second = createProofOfWork({ store: other, difficulty: EASY });
      const payload = await solve(await first.challenge());
      // Sent twice at once to two processes: one takes it.
      const verdicts = await Promise.all([first.check(payload), second.check(payload)]);
      expect(verdicts.sort()).toEqual(['replayed', 'valid']);
      expect(await second.check(await solve(await first.challenge()))).toBe('valid');
      // Another database's secret is another: its challenges are not ours.
      const { store: elsewhere } = await open();
      const foreign = createProofOfWork({ store: elsewhere, difficulty: EASY });
      expect(await first.check(await solve(await foreign.challenge()))).toBe('invalid');
    });

    it('refuses an expired, altered or wrong solution, and anything unreadable', async () => {
      const { store } = await open();
      const log = captureLogger();
      const proof = createProofOfWork({ store, difficulty: EASY, logger: log.logger });
      // Issued 21 minutes ago: expired.
      const old = createProofOfWork({
        store,
        difficulty: EASY,
        now: () => Date.now() - PROOF_OF_WORK_LIFETIME_MS - 60_000,
      });
      expect(await proof.check(await solve(await old.challenge()))).toBe('invalid');

      const payload = await solve(await proof.challenge());
      const wrong = [
        // An easier challenge than the one signed.
        altered(payload, (decoded) => (decoded.challenge.parameters.cost = 1)),
        // A later expiry than the one signed.
        altered(payload, (decoded) => (decoded.challenge.parameters.expiresAt! += 3600)),
        altered(payload, (decoded) => (decoded.challenge.signature = 'ab'.repeat(32))),
        altered(payload, (decoded) => delete decoded.challenge.signature),
        // The key is the proof (checked against its signature), one digit off.
        altered(payload, (decoded) => {
          const key = decoded.solution!.derivedKey;
          decoded.solution!.derivedKey = `${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`;
        }),
        altered(payload, (decoded) => (decoded.solution!.counter = -1)),
        altered(payload, (decoded) => (decoded.solution!.derivedKey = '00'.repeat(32))),
        altered(payload, (decoded) => (decoded.solution!.derivedKey = 'not hex')),
        altered(payload, (decoded) => delete decoded.solution),
        altered(payload, (decoded) => Object.assign(decoded, { challenge: 'nothing' })),
        Buffer.from('{"challenge":').toString('base64'),
        Buffer.from('[]').toString('base64'),
        'not base64 at all!',
        'x'.repeat(10_000),
        42,
        { challenge: {}, solution: {} },
      ];
      for (const sent of wrong) expect(await proof.check(sent), String(sent)).toBe('invalid');
      // None of them spent the challenge.
      expect(await proof.check(payload)).toBe('valid');
      expect(log.text()).not.toContain(payload);
    });

    it('a lead without one has none', async () => {
      const { store } = await open();
      const proof = createProofOfWork({ store, difficulty: EASY });
      for (const sent of [undefined, null, '', '   '])
        expect(await proof.check(sent)).toBe('absent');
    });

    it('the real difficulty is solved and checked as the browser does it', async () => {
      const { store } = await open();
      const proof = createProofOfWork({ store });
      const challenge = await proof.challenge();
      expect(challenge.parameters.cost).toBe(PROOF_OF_WORK_DIFFICULTY.cost);
      const payload = await solve(challenge);
      const { solution } = JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
      expect(solution.counter).toBeGreaterThanOrEqual(PROOF_OF_WORK_DIFFICULTY.counterMin);
      expect(solution.counter).toBeLessThanOrEqual(PROOF_OF_WORK_DIFFICULTY.counterMax);
      expect(await proof.check(payload)).toBe('valid');
    });
  });
}

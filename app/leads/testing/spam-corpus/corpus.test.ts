import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLeadService } from '../../lead-service.server.ts';
import {
  createProofOfWork,
  type ProofOfWork,
  type ProofOfWorkDifficulty,
} from '../../intake/proof-of-work.server.ts';
import { openSqliteStore } from '../../../db/store-sqlite.server.ts';
import type { AppStore } from '../../../db/store.server.ts';
import { captureLogger, tempDataDir } from '../test-support.server.ts';
import { spamCorpus, type CorpusEntry } from './corpus.ts';

/**
 * The spam rules measured on the corpus (docs/operations.md#spam): every
 * entry, in the order it arrives, through the real lead service and a real
 * store (the repeated-message rule needs the earlier leads), with the
 * service's clock at the entry's time. Prints the share of spam caught and
 * the share of real enquiries caught; fails if one real enquiry is caught.
 *
 * The proof-of-work is the real one (proof-of-work.server.ts), issued and
 * checked by the server's code and solved here as the form's worker solves
 * it (altcha-lib), at a small difficulty so 400 solutions take seconds: an
 * entry that comes with a valid one gets a fresh challenge, solved; an
 * invalid one is a solution to another site's challenge, or a made-up
 * string; a replayed one is a solution already spent. The verdict the check
 * gives is the one the corpus says, or the test fails.
 */

/** Now, so the challenges' expiry (20 minutes on) is ahead of the clock that checks it. */
const START = Date.now();
const EASY: ProofOfWorkDifficulty = { cost: 10, counterMin: 10, counterMax: 30 };

/** What the form's script sends in `altcha`: the challenge and its solution, as base64 JSON. */
async function solved(proofOfWork: ProofOfWork): Promise<string> {
  const challenge = await proofOfWork.challenge();
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('not solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

interface Outcome {
  entry: CorpusEntry;
  spam: boolean;
  reason: string | null;
}

let store: AppStore;
let elsewhere: AppStore;
let data: ReturnType<typeof tempDataDir>;
let otherData: ReturnType<typeof tempDataDir>;
const outcomes: Outcome[] = [];
const corpus = spamCorpus();

beforeAll(async () => {
  data = tempDataDir('spam-corpus-');
  otherData = tempDataDir('spam-corpus-other-');
  store = await openSqliteStore({ dataDir: data.dir });
  // Another site's store: its challenges are signed with another secret.
  elsewhere = await openSqliteStore({ dataDir: otherData.dir });
  let now = START;
  const proofOfWork = createProofOfWork({ store, difficulty: EASY, now: () => now });
  const foreign = createProofOfWork({ store: elsewhere, difficulty: EASY });
  // A solution a program captured once and sent on (its first use, outside the corpus).
  const captured = await solved(proofOfWork);
  expect(await proofOfWork.check(captured)).toBe('valid');
  let invalid = 0;
  const payloadFor = async (entry: CorpusEntry): Promise<string | undefined> => {
    switch (entry.proof) {
      case 'absent':
        return undefined;
      case 'valid':
        return solved(proofOfWork);
      case 'replayed':
        return captured;
      case 'invalid':
        invalid += 1;
        return invalid % 2 === 0
          ? solved(foreign)
          : Buffer.from(`{"challenge":{},"solution":${invalid}}`).toString('base64');
    }
  };
  const service = createLeadService({
    store,
    targets: [],
    acceptMode: 'stored',
    logger: captureLogger().logger,
    now: () => now,
  });
  for (const entry of corpus) {
    now = START + entry.minute * 60_000;
    const proof = await proofOfWork.check(await payloadFor(entry));
    expect(proof, JSON.stringify(entry.lead)).toBe(entry.proof);
    const result = await service.submit(entry.lead, [], { proof });
    if (result.kind !== 'accepted') {
      throw new Error(`Not accepted (${result.kind}): ${JSON.stringify(entry.lead)}`);
    }
    const stored = await store.getLead(result.id);
    outcomes.push({
      entry,
      spam: stored?.status === 'spam',
      reason: stored?.spam_reason ?? null,
    });
  }
}, 120_000);

afterAll(async () => {
  await store?.close();
  await elsewhere?.close();
  data?.remove();
  otherData?.remove();
});

const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;

describe('the spam corpus', () => {
  it('holds at least 200 spam-like submissions and 200 real enquiries, of every kind asked', () => {
    const spam = corpus.filter((entry) => entry.kind === 'spam');
    const real = corpus.filter((entry) => entry.kind === 'real');
    expect(spam.length).toBeGreaterThanOrEqual(200);
    expect(real.length).toBeGreaterThanOrEqual(200);
    expect(new Set(spam.map((entry) => entry.family))).toEqual(
      new Set([
        'SEO offer',
        'offer with a link',
        'crypto and loans',
        'link in the name',
        'repeated message',
        'filled trap',
        'invalid or replayed proof-of-work',
        'browser program, new pitch',
      ]),
    );
    // Real enquiries without JavaScript, in te reo Māori, with macrons, accents and emoji.
    expect(real.filter((entry) => entry.proof === 'absent').length).toBeGreaterThanOrEqual(50);
    expect(real.some((entry) => entry.family === 'te reo Māori')).toBe(true);
    const text = real.map((entry) => `${entry.lead.name} ${entry.lead.message}`).join(' ');
    for (const sign of ['ā', 'ō', 'ū', 'é', 'ü', 'ø', '🙏', '😊']) expect(text).toContain(sign);
  });

  it('catches spam and never a real enquiry', () => {
    const real = outcomes.filter((outcome) => outcome.entry.kind === 'real');
    const spam = outcomes.filter((outcome) => outcome.entry.kind === 'spam');
    const caught = spam.filter((outcome) => outcome.spam);
    const wronglyCaught = real.filter((outcome) => outcome.spam);
    const lines = [
      `Spam corpus: ${spam.length} spam-like submissions, ${real.length} real enquiries.`,
      `Spam caught: ${caught.length} of ${spam.length} (${percent(caught.length, spam.length)}).`,
      `Real enquiries caught as spam: ${wronglyCaught.length} of ${real.length} (${percent(wronglyCaught.length, real.length)}).`,
      'Spam caught, by kind:',
      ...[...new Set(spam.map((outcome) => outcome.entry.family))].map((family) => {
        const of = spam.filter((outcome) => outcome.entry.family === family);
        const hit = of.filter((outcome) => outcome.spam).length;
        return `  ${family}: ${hit} of ${of.length}`;
      }),
      'Spam caught, by rule:',
      ...[...new Set(caught.map((outcome) => outcome.reason))].map(
        (reason) => `  ${reason}: ${caught.filter((outcome) => outcome.reason === reason).length}`,
      ),
    ];
    console.info(lines.join('\n'));
    expect(
      wronglyCaught.map((outcome) => outcome.entry.lead),
      'real enquiries caught as spam',
    ).toEqual([]);
    // Every kind of spam the rules are for is caught whole: only the first
    // of a repeated pitch and a browser program's new pitch can pass.
    for (const outcome of spam) {
      if (outcome.entry.family === 'repeated message' || outcome.entry.door === 'browser program') {
        continue;
      }
      expect(outcome.spam, JSON.stringify(outcome.entry.lead)).toBe(true);
    }
    expect(caught.length / spam.length).toBeGreaterThan(0.9);
  });
});

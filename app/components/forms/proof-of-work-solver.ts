import { solveChallengeWorkers, type Challenge } from 'altcha-lib';
import { LEAD_CHALLENGE_PATH } from '../../leads/intake/form-submission.ts';

/**
 * The lead forms' invisible proof of work, in the browser
 * (docs/forms.md#proof-of-work), loaded when the visitor first focuses a
 * form (proof-of-work.ts): fetch a signed challenge and solve it in a Web
 * Worker (proof-of-work.worker.ts) while they type; the submission then
 * takes the solution and sends it in `altcha`. Nothing to click, no cookie,
 * nothing stored, no third party. Without Web Workers, or when the
 * challenge cannot be had, the enquiry goes without one, which is never
 * spam by itself.
 */

/** A solution this close to its challenge's expiry is not sent: another is worked out. */
const EXPIRY_MARGIN_MS = 60_000;

/** After a challenge could not be had (offline, the limit), the next try is this much later. */
const RETRY_AFTER_MS = 60_000;

/** The solver gives up after this long (a very slow device): the enquiry goes without. */
const SOLVE_TIMEOUT_MS = 60_000;

interface Attempt {
  /** The payload for `altcha`, or null when none could be had. */
  payload: Promise<string | null>;
  /** Until when it may be used, or another tried; unknown (Infinity) until the challenge comes. */
  usableUntil: number;
}

/** The one attempt of the page: every form on it shares it, and each solution is sent once. */
let current: Attempt | undefined;

const createWorker = () =>
  new Worker(new URL('./proof-of-work.worker.ts', import.meta.url), { type: 'module' });

async function solve(attempt: Attempt): Promise<string | null> {
  const response = await fetch(new URL(LEAD_CHALLENGE_PATH, document.baseURI), {
    headers: { Accept: 'application/json' },
    credentials: 'omit',
  });
  if (!response.ok) throw new Error(`challenge: ${response.status}`);
  const challenge = (await response.json()) as Challenge;
  attempt.usableUntil = (challenge.parameters.expiresAt ?? 0) * 1000 - EXPIRY_MARGIN_MS;
  // One worker, one core: the page and the visitor's typing keep the others.
  const solution = await solveChallengeWorkers({
    challenge,
    concurrency: 1,
    createWorker,
    timeout: SOLVE_TIMEOUT_MS,
  });
  if (!solution) throw new Error('challenge: not solved in time');
  // ALTCHA's payload: the challenge and its solution, base64 JSON (all ASCII).
  return btoa(JSON.stringify({ challenge, solution }));
}

/**
 * Starts working out a solution, unless one is under way or ready and
 * still usable. Called when the visitor focuses a form.
 */
export function startProofOfWork(): void {
  if (typeof Worker === 'undefined') return;
  if (current && current.usableUntil > Date.now()) return;
  const attempt: Attempt = { payload: Promise.resolve(null), usableUntil: Infinity };
  attempt.payload = solve(attempt).catch(() => {
    attempt.usableUntil = Date.now() + RETRY_AFTER_MS;
    return null;
  });
  current = attempt;
}

/**
 * The solution to send with a submission, waiting for it at most `waitMs`;
 * null when there is none by then (a late one serves the next attempt).
 * A solution is handed out once: the next submission needs another.
 */
export async function takeProofOfWork(waitMs: number): Promise<string | null> {
  startProofOfWork();
  const attempt = current;
  if (!attempt) return null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), waitMs);
  });
  const payload = await Promise.race([attempt.payload, late]);
  clearTimeout(timer);
  if (payload === 'late' || payload === null) return null;
  if (current === attempt) current = undefined;
  return payload;
}

import type * as Solver from './proof-of-work-solver.ts';

/**
 * What the lead forms load of the proof of work (docs/forms.md#proof-of-work):
 * nothing with the page. The solver (proof-of-work-solver.ts, with
 * altcha-lib's) is loaded when the visitor first focuses a form, with the
 * validator, so the page's own JavaScript and its load are unchanged.
 */

/** The longest a submission waits for a solution still being worked out. */
export const PROOF_OF_WORK_WAIT_MS = 3000;

let loading: Promise<typeof Solver> | undefined;

function loadSolver(): Promise<typeof Solver> {
  loading ??= import('./proof-of-work-solver.ts').catch((error: unknown) => {
    // A failed chunk load (offline, a new deployment) may succeed next time.
    loading = undefined;
    throw error;
  });
  return loading;
}

/** The visitor is in a form: start working out a solution. */
export function startProofOfWork(): void {
  loadSolver().then(
    (solver) => solver.startProofOfWork(),
    () => undefined,
  );
}

/**
 * The solution to send with a submission, or null when there is none
 * within `waitMs` (the enquiry then goes without one).
 */
export async function takeProofOfWork(waitMs = PROOF_OF_WORK_WAIT_MS): Promise<string | null> {
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), waitMs);
  });
  const taken = loadSolver().then(
    (solver) => solver.takeProofOfWork(Math.max(0, waitMs - (Date.now() - started))),
    () => null,
  );
  const payload = await Promise.race([taken, late]);
  clearTimeout(timer);
  return payload;
}

import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { REQUEST_INPUT_CASES } from './testing/request-input.cases.ts';

/**
 * No request can hold the server's one thread: every regular expression the
 * server runs on request input takes time in proportion to the input. Each
 * case feeds megabytes, far more than a request can carry; linear code
 * finishes in milliseconds, a backtracking regular expression such as the
 * trailing-slash redirect's old `/\/+$/` would take hours. A case runs in a
 * worker thread so the test can stop it: a synchronous regular expression
 * cannot be interrupted, and would hold the test's own thread.
 */

/** A ceiling for a loaded, shared machine, not a wait: a case that finishes ends the wait. */
const CEILING_MS = 30_000;

function runCase(name: string): Promise<'finished'> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./testing/request-input.worker.ts', import.meta.url), {
      workerData: name,
    });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error(`${name}: still running after ${CEILING_MS} ms`));
    }, CEILING_MS);
    worker.once('message', (message: 'finished') => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(message);
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

describe('regular expressions over request input take linear time', () => {
  it.each(Object.keys(REQUEST_INPUT_CASES))('%s', async (name) => {
    await expect(runCase(name)).resolves.toBe('finished');
  });
});

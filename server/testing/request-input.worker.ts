import { parentPort, workerData } from 'node:worker_threads';
import { REQUEST_INPUT_CASES } from './request-input.cases.ts';

// Runs one case of request-input.cases.ts and says when it has finished.
const run = REQUEST_INPUT_CASES[workerData as string];
if (!run) throw new Error(`no such case: ${String(workerData)}`);
await run();
parentPort?.postMessage('finished');

/**
 * The Web Worker that solves a lead form's proof of work
 * (docs/forms.md#proof-of-work): altcha-lib's own worker, with the
 * browser's PBKDF2 (Web Crypto) instead of Node's. It takes a challenge
 * from proof-of-work.ts and answers with its solution, off the page's
 * main thread, so typing is never slowed.
 */
import { handler } from 'altcha-lib/workers/shared';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';

handler({ deriveKey });

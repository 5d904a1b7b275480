import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The end-to-end suite builds and serves the site with these settings. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3217);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;

/**
 * The test build's own folder: never the production build (BUILD_DIR), so
 * `npm test` leaves a site served from this clone alone. Parallel runs in one
 * clone can set E2E_BUILD_DIR apart.
 */
export const E2E_BUILD_DIR = process.env.E2E_BUILD_DIR ?? 'build-test';

/** The test build: its folder and the public settings baked into it (analytics on, with a stand-in tag). */
export const E2E_BUILD_ENV = {
  BUILD_DIR: E2E_BUILD_DIR,
  SITE_URL: 'https://glass.example.com',
  GTAG_ID: 'G-E2ETEST01',
  ADS_CONVERSION_SEND_TO: 'AW-123456789/E2eTestLabel',
} as const;

let dataDir: string | undefined;

/**
 * The suite's site server settings, with a store of its own. Every
 * process that loads playwright.config.ts (the runner and each worker) calls
 * this; the folder goes when that process exits, by which time the runner has
 * stopped the server that used it.
 */
export function e2eServerEnv(extra: Record<string, string> = {}): Record<string, string> {
  if (!dataDir) {
    const dir = mkdtempSync(path.join(tmpdir(), 'glass-e2e-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    dataDir = dir;
  }
  return {
    ...(process.env as Record<string, string>),
    ...E2E_BUILD_ENV,
    PORT: String(E2E_PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    LEAD_RATE_LIMIT: '1000',
    ...extra,
  };
}

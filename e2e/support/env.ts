import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The end-to-end suite builds and serves the site with these settings. */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3217);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;

/** Public settings baked into the test build (analytics on, with a stand-in tag). */
export const E2E_BUILD_ENV = {
  SITE_URL: 'https://glass.example.com',
  GTAG_ID: 'G-E2ETEST01',
  ADS_CONVERSION_SEND_TO: 'AW-123456789/E2eTestLabel',
} as const;

let dataDir: string | undefined;

export function e2eServerEnv(extra: Record<string, string> = {}): Record<string, string> {
  dataDir ??= mkdtempSync(path.join(tmpdir(), 'glass-e2e-'));
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

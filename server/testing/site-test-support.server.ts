import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Request, Response } from 'express';
import {
  captureLogger,
  tempDataDir,
  type CapturedLogger,
} from '../../app/leads/testing/test-support.server.ts';
import { createApp } from '../app.server.ts';
import type { AstroHandler } from '../release-files.server.ts';
import { parseEnv } from '../env.server.ts';
import { createRuntime, type Runtime } from '../runtime.server.ts';

/**
 * The site's server as start.ts assembles it (createApp with the real lead
 * pipeline on an embedded store), without an Astro build: the prerendered
 * pages are two small files, and what the build would render is a plain
 * 404. For tests of what the server itself does (logging, time limits);
 * e2e/support/lead-server.ts runs the real built site.
 */

export interface TestSite {
  readonly url: string;
  readonly server: http.Server;
  readonly log: CapturedLogger;
  /** The lead pipeline and the owner's pages' context, as the server has them. */
  readonly leads: Runtime;
  close(): Promise<void>;
}

export async function startTestSite(
  settings: Record<string, string> = {},
  createServer: (app: http.RequestListener) => http.Server = (app) => http.createServer(app),
  /** What stands in for the Astro build: by default a plain 404. */
  render: AstroHandler = (_req: Request, res: Response) =>
    res.status(404).type('text/plain').send('not found'),
): Promise<TestSite> {
  const data = tempDataDir('site-');
  const clientDir = path.join(data.dir, 'client');
  mkdirSync(path.join(clientDir, 'about'), { recursive: true });
  writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>Home</title>');
  writeFileSync(path.join(clientDir, 'about/index.html'), '<!doctype html><title>About</title>');
  const env = parseEnv({ DATA_DIR: path.join(data.dir, 'leads'), ...settings });
  const log = captureLogger('info');
  const leads = await createRuntime(env, log.logger);
  const app = await createApp({
    env,
    logger: log.logger,
    render,
    clientDir,
    leads,
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    log,
    leads,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await leads.close();
      data.remove();
    },
  };
}

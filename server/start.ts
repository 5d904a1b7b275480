import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import type { ServerBuild } from 'react-router';
import { createApp } from './app.server.ts';
import { EnvError, parseEnv } from './env.server.ts';
import { createLeadsIntegration } from './leads-integration.server.ts';

/**
 * The production server: `npm start` runs this after making sure the build
 * is current (scripts/ensure-build.ts).
 */

let env;
try {
  env = parseEnv();
} catch (error) {
  if (error instanceof EnvError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const logger = pino({ level: env.LOG_LEVEL, base: { service: 'web' } });
const root = path.resolve(import.meta.dirname, '..');
// BUILD_DIR lets parallel test runs keep separate builds (default: build).
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? 'build');
const serverEntry = path.join(buildDir, 'server/index.js');
const clientDir = path.join(buildDir, 'client');
if (!existsSync(serverEntry)) {
  logger.fatal('No build found. Run `npm run build` (npm start does this for you).');
  process.exit(1);
}

const build = (await import(pathToFileURL(serverEntry).href)) as ServerBuild;
const leads = await createLeadsIntegration(env, logger);
const app = await createApp({ env, logger, build, clientDir, leads });

const server = app.listen(env.PORT, env.HOST, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : env.PORT;
  logger.info(
    { port, host: env.HOST, store: leads.storeKind },
    `Listening on http://localhost:${port}`,
  );
});
server.keepAliveTimeout = 65_000;

let shuttingDown = false;
async function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info({ signal }, 'shutting down');
  // Stop taking new connections, let requests in flight finish, then close the store.
  const forceExit = setTimeout(() => {
    logger.error('shutdown took too long; exiting');
    process.exit(1);
  }, 10_000);
  forceExit.unref();
  server.close(async () => {
    try {
      await leads.close();
    } catch (error) {
      logger.error({ err: error }, 'error while closing the lead store');
    }
    logger.info('stopped');
    process.exit(0);
  });
  server.closeIdleConnections();
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

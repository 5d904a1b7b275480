import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import { createApp, type AstroHandler } from './app.server.ts';
import { currentRelease, markInUse } from './build-releases.ts';
import { EnvError, parseEnv } from './env.server.ts';
import { createHttpServer } from './http-server.server.ts';
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
// BUILD_DIR (default: build) links to the current release. It is resolved
// once: this process serves that release until it restarts, whatever later
// builds do, as its page list and CSP hashes come from it.
const release = currentRelease(path.resolve(root, process.env.BUILD_DIR ?? 'build'));
const serverEntry = release && path.join(release, 'server/entry.mjs');
if (!release || !serverEntry || !existsSync(serverEntry)) {
  logger.fatal('No build found. Run `npm run build` (npm start does this for you).');
  process.exit(1);
}
const clientDir = path.join(release, 'client');
try {
  // Keeps a later build from deleting this release while it is served.
  process.on('exit', markInUse(release));
} catch (error) {
  logger.warn(
    { err: (error as Error).message, release },
    'cannot mark the build as in use; a later build may delete it before this server restarts',
  );
}

const { handler: render } = (await import(pathToFileURL(serverEntry).href)) as {
  handler: AstroHandler;
};
const leads = await createLeadsIntegration(env, logger);
const app = await createApp({ env, logger, render, clientDir, leads });

// Time limits on slow clients (http-server.server.ts).
const server = createHttpServer(app);
server.once('error', (error) => {
  logger.fatal({ err: error, port: env.PORT, host: env.HOST }, 'cannot listen');
  process.exit(1);
});
server.listen(env.PORT, env.HOST, () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : env.PORT;
  logger.info(
    { port, host: env.HOST, store: leads.storeKind },
    `Listening on http://localhost:${port}`,
  );
});

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

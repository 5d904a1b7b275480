import { existsSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { createApp } from './app.server.ts';
import { currentRelease } from './build-releases.ts';
import { EnvError, parseEnv } from './env.server.ts';
import { createHttpServer } from './http-server.server.ts';
import { createRuntime } from './runtime.server.ts';
import { siteHostName } from './site-hosts.server.ts';
import { createSitePublisher } from './site-publisher.server.ts';
import { ServedSite } from './site-release.server.ts';

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
// BUILD_DIR (default: build) links to the current release. The server
// serves that release until the publisher switches it to a newer one
// (site-release.server.ts, docs/operations.md "Publishing the site").
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? 'build');
const release = currentRelease(buildDir);
if (!release || !existsSync(path.join(release, 'server/entry.mjs'))) {
  logger.fatal('No build found. Run `npm run build` (npm start does this for you).');
  process.exit(1);
}
const site = await ServedSite.open(release, { env, logger });
process.on('exit', () => site.close());

// E-mails and passkeys name the business the served release names.
const leads = await createRuntime(env, logger, {
  identity: () => site.current.content.identity,
  // Each host records its own builds (docs/operations.md#several-hosts).
  hostName: siteHostName(env, buildDir, path.resolve(root, 'build')),
});
const app = await createApp({ env, logger, site, leads });
const publisher = leads.sitePublishing
  ? createSitePublisher({
      source: leads.sitePublishing,
      site,
      root,
      buildDir,
      logger,
      intervalMs: env.SITE_PUBLISH_INTERVAL_S * 1000,
    })
  : undefined;
publisher?.start();
// "Publish" on /admin/site builds at once, and the page shows what this process serves.
if (publisher && leads.ownerPages) {
  leads.ownerPages.publishing = {
    publishNow: () => void publisher.publishNow().catch(() => undefined),
    servedVersion: () => site.current.stamp?.content?.version ?? null,
  };
}

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
    await publisher?.close();
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

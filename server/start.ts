import { existsSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { createApp } from './app.server.ts';
import { currentRelease } from './build-releases.ts';
import { EnvError, parseEnv } from './env.server.ts';
import { createHttpServer } from './http-server.server.ts';
import { createRuntime } from './runtime.server.ts';
import { siteHostName } from './site-hosts.server.ts';
import { publishNotifier } from './publish-signal.server.ts';
import { followBuildDir } from './release-follower.server.ts';
import { ServedSite } from './site-release.server.ts';

/**
 * The production web server: `npm start` runs this beside the builder
 * (scripts/start.ts, server/builder.ts) after making sure the build is
 * current (scripts/ensure-build.ts). It never builds: it serves BUILD_DIR's
 * release and follows BUILD_DIR when the builder points it at a new one.
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
// serves that release until the builder points BUILD_DIR at a newer one
// (release-follower.server.ts, docs/operations.md "Publishing the site").
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
// A new release in BUILD_DIR is served within a second of the builder publishing it.
const follower = followBuildDir({
  buildDir,
  site,
  logger,
  onServing: (version) => leads.sitePublishing?.onServing?.(version),
});
follower.start();
// "Publish" on /admin/site wakes the builder at once: with PostgreSQL by a
// NOTIFY; the builder reads the embedded store's newest version every
// second (publish-signal.server.ts). The page shows what this process serves.
const notifier = env.DATABASE_URL ? publishNotifier(env.DATABASE_URL, logger) : undefined;
if (leads.ownerPages) {
  leads.ownerPages.publishing = {
    publishNow: () => notifier?.notify(),
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
    await follower.close();
    await notifier?.close().catch(() => undefined);
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
// Started by scripts/start.ts: it goes when its supervisor goes, however that ends.
if (process.connected) process.once('disconnect', () => void shutdown('supervisor gone'));

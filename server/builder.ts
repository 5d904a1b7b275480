import path from 'node:path';
import pino from 'pino';
import { reconnectingStore } from '../app/db/open-store.server.ts';
import { EnvError, parseEnv } from './env.server.ts';
import { listenForPublish, watchNewestVersion } from './publish-signal.server.ts';
import { sitePublishingSource } from './runtime.server.ts';
import { siteHostName } from './site-hosts.server.ts';
import { createSitePublisher } from './site-publisher.server.ts';

/**
 * The builder (docs/decisions/0010-builds-in-their-own-process.md): the
 * process that builds the site when the owner publishes, beside the web
 * server (server/start.ts), which never builds. It opens the store, and
 * builds the version that should be served into BUILD_DIR whenever it
 * differs from BUILD_DIR's release: woken by "Publish" (a NOTIFY with
 * PostgreSQL, the newest version's number read every second with the
 * embedded store, server/publish-signal.server.ts), and every
 * SITE_PUBLISH_INTERVAL_S seconds. The web server follows BUILD_DIR.
 * `npm start` runs both (scripts/start.ts); systemd runs it as
 * deploy/glass-site-builder.service.
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

const logger = pino({ level: env.LOG_LEVEL, base: { service: 'builder' } });
const root = path.resolve(import.meta.dirname, '..');
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? 'build');
// Never fails: a database that is down is an outage the builder waits out.
const store = await reconnectingStore({
  dataDir: env.DATA_DIR,
  databaseUrl: env.DATABASE_URL,
  logger: logger.child({ component: 'store' }),
});
// The same host name as the web server beside it: they share BUILD_DIR.
const hostName = siteHostName(env, buildDir, path.resolve(root, 'build'));
const publisher = createSitePublisher({
  source: sitePublishingSource(store, hostName, logger),
  root,
  buildDir,
  logger,
  intervalMs: env.SITE_PUBLISH_INTERVAL_S * 1000,
});
const wake = () => void publisher.publishNow().catch(() => undefined);
let signal: { close(): Promise<void> };
if (env.DATABASE_URL) {
  signal = listenForPublish({ databaseUrl: env.DATABASE_URL, logger, wake });
} else {
  const watcher = watchNewestVersion({ store, logger, wake });
  // Read before the first check, so no version published meanwhile goes unnoticed.
  await watcher.ready;
  signal = watcher;
}
publisher.start();
// The publisher's and the signals' timers let a process end; this one runs until stopped.
const keepAlive = setInterval(() => undefined, 2 ** 31 - 1);
logger.info(
  { buildDir, host: hostName, store: env.DATABASE_URL ? 'postgres' : 'sqlite' },
  'builder started',
);

let shuttingDown = false;
async function shutdown(reason: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info({ reason }, 'builder stopping');
  const forceExit = setTimeout(() => {
    logger.error('stopping took too long; exiting');
    process.exit(1);
  }, 10_000);
  forceExit.unref();
  clearInterval(keepAlive);
  // A build in progress is stopped: its release is never published.
  await signal.close();
  await publisher.close();
  try {
    await store.close();
  } catch (error) {
    logger.error({ err: error }, 'error while closing the store');
  }
  logger.info('builder stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
// Started by scripts/start.ts: it goes when its supervisor goes, however that ends.
if (process.connected) process.once('disconnect', () => void shutdown('supervisor gone'));

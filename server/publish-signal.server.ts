import pg from 'pg';
import type { Logger } from 'pino';
import type { AppStore } from '../app/db/store.server.ts';

/**
 * How "Publish" on /admin/site reaches the builder (server/builder.ts), a
 * process of its own (docs/decisions/0010-builds-in-their-own-process.md):
 *
 * - With PostgreSQL, the web server sends a NOTIFY on PUBLISH_CHANNEL once
 *   the version is stored, and the builder, which LISTENs on it, checks at
 *   once. A notification sent while the builder is away is lost; the
 *   builder checks when it connects again, and every
 *   SITE_PUBLISH_INTERVAL_S seconds anyway.
 * - With the embedded store there is no such signal: the builder reads the
 *   newest version's number every second (one indexed row) and checks when
 *   it changed.
 */

/** The channel of the notification (database-wide, like every channel). */
export const PUBLISH_CHANNEL = 'glass_site_publish';

/** How often the builder reads the newest version's number on the embedded store. */
export const NEWEST_VERSION_POLL_MS = 1000;

/** How long the listener waits before connecting again after losing its connection. */
const RECONNECT_MS = 5000;

const pgError = (error: unknown) => ({
  message: (error as Error).message,
  code: (error as { code?: string }).code,
});

export interface PublishNotifier {
  /** Sends the notification; returns at once, and a failure is only logged. */
  notify(version?: number): void;
  close(): Promise<void>;
}

/** The web server's side: one connection at most, opened when first needed. */
export function publishNotifier(databaseUrl: string, logger: Logger): PublishNotifier {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 1,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
  });
  // An idle connection lost must not end the process.
  pool.on('error', (error) =>
    logger.warn({ err: pgError(error) }, 'publish notifier connection lost'),
  );
  pool.on('connect', (client) => client.on('error', () => undefined));
  return {
    notify(version) {
      pool
        .query('SELECT pg_notify($1, $2)', [PUBLISH_CHANNEL, String(version ?? '')])
        .catch((error: unknown) =>
          logger.error(
            { err: pgError(error) },
            'cannot tell the builder to publish; it will on its next check',
          ),
        );
    },
    close: () => pool.end(),
  };
}

export interface PublishListener {
  /** Resolves once the first LISTEN is in place (or never, while PostgreSQL is away). */
  readonly listening: Promise<void>;
  close(): Promise<void>;
}

/**
 * The builder's side: LISTEN on a connection of its own, calling `wake` on
 * every notification, and once each time the connection is made (what
 * was sent while there was none is lost).
 */
export function listenForPublish(options: {
  databaseUrl: string;
  logger: Logger;
  wake: () => void;
  reconnectMs?: number;
}): PublishListener {
  const { databaseUrl, logger, wake } = options;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;
  /** Whether the loss of the connection was logged (once per outage). */
  let lostLogged = false;
  let resolveListening: () => void = () => undefined;
  const listening = new Promise<void>((resolve) => (resolveListening = resolve));

  const again = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, options.reconnectMs ?? RECONNECT_MS);
    retry.unref();
  };

  async function connect() {
    if (closed) return;
    const next = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
    client = next;
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (client === next) client = undefined;
      if (closed) return;
      if (!lostLogged) {
        logger.warn(
          error ? { err: pgError(error) } : {},
          'no connection hears "Publish"; connecting again every few seconds',
        );
        lostLogged = true;
      }
      next.end().catch(() => undefined);
      again();
    };
    next.on('error', onLost);
    next.on('end', () => onLost());
    next.on('notification', (message) => {
      if (message.channel === PUBLISH_CHANNEL) wake();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${PUBLISH_CHANNEL}`);
    } catch (error) {
      onLost(error as Error);
      return;
    }
    if (closed) return;
    lostLogged = false;
    logger.info({ channel: PUBLISH_CHANNEL }, 'listening for "Publish"');
    resolveListening();
    // Anything published while there was no connection (or before the first).
    wake();
  }

  void connect();
  return {
    listening,
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}

/**
 * The builder's side on the embedded store: reads the newest version's
 * number every `pollMs`, calling `wake` when it changed.
 */
export function watchNewestVersion(options: {
  store: Pick<AppStore, 'listSiteContentVersions'>;
  logger: Logger;
  wake: () => void;
  pollMs?: number;
}): { readonly ready: Promise<void>; close(): Promise<void> } {
  let newest: number | undefined;
  let running: Promise<void> | undefined;
  let failing = false;
  const look = async () => {
    try {
      const [latest] = await options.store.listSiteContentVersions(1);
      const version = latest?.version ?? 0;
      if (failing) options.logger.info('reading the newest site content version again');
      failing = false;
      if (newest !== undefined && version !== newest) options.wake();
      newest = version;
    } catch (error) {
      if (!failing)
        options.logger.warn({ err: error }, 'cannot read the newest site content version');
      failing = true;
    }
  };
  const timer = setInterval(() => {
    running ??= look().finally(() => (running = undefined));
  }, options.pollMs ?? NEWEST_VERSION_POLL_MS);
  timer.unref();
  const ready = look();
  running = ready.finally(() => (running = undefined));
  return {
    /** The first read is done: a version published from now on wakes the builder. */
    ready,
    async close() {
      clearInterval(timer);
      await running;
    },
  };
}

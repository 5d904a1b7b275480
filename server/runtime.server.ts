import type { Logger } from 'pino';
import { ownerAlerts } from '../app/leads/delivery/lead-email.server.ts';
import { photoLinks } from '../app/leads/delivery/signed-photo-links.server.ts';
import { createLeadService } from '../app/leads/lead-service.server.ts';
import { createProofOfWork } from '../app/leads/intake/proof-of-work.server.ts';
import { createOutbox, eventLoopBusy } from '../app/leads/delivery/outbox.server.ts';
import { createRetentionPurge } from '../app/leads/retention.server.ts';
import { storeErrorForLog, type AppStore } from '../app/db/store.server.ts';
import { reconnectingStore } from '../app/db/open-store.server.ts';
import {
  emailSender,
  shippedIdentity,
  type IdentitySource,
} from '../app/content/served-identity.ts';
import { sendBackupAlertEmail } from '../app/owner/backup-email.server.ts';
import { sendEscalationEmail } from '../app/owner/escalation-email.server.ts';
import { createEscalation, type EscalationOptions } from '../app/leads/alerts/escalation.server.ts';
import { createOutageWatch } from '../app/leads/alerts/outage-alert.server.ts';
import {
  createMorningEmail,
  type MorningEmailOptions,
} from '../app/leads/alerts/morning-email.server.ts';
import { sendMorningEmail } from '../app/owner/morning-email.server.ts';
import type { PushToDevices } from '../app/leads/alerts/owner-push.server.ts';
import { backupAlertPush } from '../app/owner/backup-email.server.ts';
import {
  createBackupCheck,
  type BackupCheckOptions,
  type BackupStatus,
} from './backup/backup-check.server.ts';
import { createOwnerPagesContext, type OwnerPagesContext } from '../app/owner/context.server.ts';
import type { LeadDeliveryControl } from '../app/owner/inbox.server.ts';
import { siteBuildActivity } from '../app/owner/site-activity.server.ts';
import { createDeliveryTargets } from './delivery-targets.server.ts';
import { leadPhotoRoute } from './lead-photo-route.server.ts';
import type { LeadsIntegration } from './app.server.ts';
import type { Env } from './env.server.ts';
import { siteBuildToPublish } from './site-content-build.server.ts';
import { siteHostName } from './site-hosts.server.ts';
import type { SitePublishSource } from './site-publisher.server.ts';
import {
  createChallengeRateLimiter,
  createLeadApiRouter,
  createLeadRateLimiter,
  leadGuards,
  leadsRequestContext,
} from './lead-api.server.ts';

export interface Runtime extends LeadsIntegration {
  storeKind: 'sqlite' | 'postgres';
  close: () => Promise<void>;
}

/**
 * GET /healthz (docs/operations.md#health-checks): can the site accept leads in
 * its current mode?
 */
export interface LeadsHealth {
  ok: boolean;
  mode: 'delivered' | 'stored';
  /** `writable`: a small write (the heartbeat row) was committed just now. */
  store: { kind: 'sqlite' | 'postgres'; state: 'up' | 'down'; writable: boolean };
  /** The targets that keep a lead: the webhooks and the e-mail, not the push. */
  targets: number;
  /** Deliveries given up for good (null while the store is down). */
  failedDeliveries: number | null;
  /** The backup and its daily check (docs/operations.md#backups). */
  backup?: BackupStatus;
}

/**
 * How long the outcome of a write check is reused: /healthz answers from it
 * meanwhile, so requests to it cannot turn into a stream of fsynced commits.
 */
export const WRITE_CHECK_REUSE_MS = 1000;

/**
 * The composition root of one server process: it opens the store (embedded
 * or PostgreSQL) and wires its three users side by side: the lead pipeline
 * of docs/operations.md#delivery (the delivery targets and their outbox, the
 * lead service, the HTTP API and the guards a form's post to its page shares
 * with it), the owner's pages (ownerPagesContext) and publishing
 * (sitePublishingSource).
 */
export async function createRuntime(
  env: Env,
  logger: Logger,
  options: {
    /** The business identity the site serves now (the served release's); the shipped one without it. */
    identity?: IdentitySource;
    /** This host's name in the store's record of builds (siteHostName); SITE_HOST_NAME or the machine's name without it. */
    hostName?: string;
    /** When the backup check runs (tests): its first check and its intervals. */
    backupCheck?: Pick<BackupCheckOptions, 'firstCheckMs' | 'checkEveryMs' | 'lagEveryMs'>;
    /** How often the escalation looks for urgent leads nobody took (tests; default 15 s). */
    escalationPollMs?: number;
    /** The morning e-mail's looks and clock (tests; default once a minute, the real time). */
    morningEmail?: { pollMs?: number; now?: () => number };
  } = {},
): Promise<Runtime> {
  const identity = options.identity ?? shippedIdentity;
  const hostName = options.hostName ?? siteHostName(env, 'build', 'build');
  const leadLogger = logger.child({ component: 'leads' });
  // Never fails: a database that is down is an outage the site rides out.
  const store = await reconnectingStore({
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    replicated: env.BACKUP_URL !== undefined,
    logger: leadLogger,
  });
  const storeKind = env.DATABASE_URL ? 'postgres' : 'sqlite';
  const leads = leadPipeline(env, store, storeKind, leadLogger, identity, {
    escalationPollMs: options.escalationPollMs,
    morningEmail: options.morningEmail,
  });
  // The daily proof that the backup restores (docs/operations.md#backups).
  const backup = createBackupCheck({
    target: env.BACKUP_URL,
    storeKind,
    dataDir: env.DATA_DIR,
    store,
    logger,
    sendAlert: backupAlertSender(env, identity, logger),
    // The same warning on every owner's device.
    pushAlert: async (problem) => {
      const pushed = await leads.pushToDevices?.(backupAlertPush(problem));
      return (pushed?.sent ?? 0) > 0;
    },
    ...options.backupCheck,
  });
  backup.start();
  const ownerPages = ownerPagesContext(env, store, logger, identity);
  ownerPages.backup = () => backup.status();
  ownerPages.delivery = leads.delivery;
  ownerPages.followUpQuotedDays = env.FOLLOW_UP_QUOTED_DAYS;
  return {
    storeKind,
    apiRouter: leads.apiRouter,
    photoLinks: leads.photoLinks,
    formPostGuards: leads.formPostGuards,
    requestContext: leads.requestContext,
    health: async () => ({ ...(await leads.health()), backup: backup.status() }),
    ownerPages,
    sitePublishing: sitePublishingSource(store, hostName, logger),
    async close() {
      await backup.close();
      await leads.close();
      await store.close();
    },
  };
}

/** What the lead pipeline gives the app, and how it stops. */
type LeadPipeline = Required<
  Pick<LeadsIntegration, 'apiRouter' | 'photoLinks' | 'requestContext' | 'formPostGuards'>
> & {
  health(): Promise<LeadsHealth>;
  close(): Promise<void>;
  /** What "Not spam" sends a lead to: the targets configured now, and the outbox. */
  delivery: LeadDeliveryControl;
  /** Pushes a warning to every owner's device (docs/operations.md#push-notifications). */
  pushToDevices: PushToDevices | undefined;
};

/**
 * The lead pipeline of docs/operations.md#delivery: the delivery targets
 * and their outbox, the lead service, the retention purge, the HTTP API
 * and the guards a form's post to its page shares with it, and the health
 * check that says whether leads can be accepted.
 */
function leadPipeline(
  env: Env,
  store: AppStore,
  storeKind: 'sqlite' | 'postgres',
  leadLogger: Logger,
  identity: IdentitySource,
  timing: {
    escalationPollMs?: number | undefined;
    morningEmail?: { pollMs?: number; now?: () => number } | undefined;
  } = {},
): LeadPipeline {
  // Photos go with their lead: attached to the e-mail, signed links in a
  // webhook's JSON, keyed with the store's own secret so every process agrees.
  const links = photoLinks({
    siteUrl: env.SITE_URL,
    secret: () => store.getOrCreateSecret('photo-links'),
  });
  const delivery = createDeliveryTargets(env, leadLogger, {
    photos: { source: store, links },
    identity,
    push: store,
  });
  const { targets, email, pushToDevices } = delivery;
  // The targets that keep a lead (the push only tells the owner of one).
  const keepers = targets.filter((target) => !target.notifyOnly).length;
  // A lead a webhook never got, and the leads a removed target will never
  // get, reach the owner's inbox.
  const { onGivenUp, onRemovedTarget } = ownerAlerts(email, leadLogger);
  const outbox = createOutbox({
    store,
    logger: leadLogger,
    targets,
    timeoutMs: env.LEAD_WEBHOOK_TIMEOUT_MS,
    onGivenUp,
    onRemovedTarget,
    // Requests come first: a burst's deliveries wait (at most 10 s a round) until it has passed.
    busy: eventLoopBusy(),
  });
  const service = createLeadService({
    store,
    targets,
    onGivenUp,
    acceptMode: env.LEAD_ACCEPT,
    timeoutMs: env.LEAD_WEBHOOK_TIMEOUT_MS,
    logger: leadLogger,
    outbox,
  });
  outbox.start();
  const retention = createRetentionPurge({
    store,
    days: env.LEAD_RETENTION_DAYS,
    logger: leadLogger,
  });
  retention.start();
  // An urgent lead nobody said "I'm on it" to, pushed and e-mailed again once.
  const escalation = createEscalation({
    store,
    logger: leadLogger,
    minutes: env.URGENT_ESCALATE_MINUTES,
    emailOwner: escalationEmailer(env, identity, leadLogger),
    push: pushToDevices,
    pollIntervalMs: timing.escalationPollMs,
  });
  escalation.start();
  // The lead e-mail failing for an hour is pushed to the owners' devices once per outage.
  const outageWatch = email
    ? createOutageWatch({ store, logger: leadLogger, push: pushToDevices })
    : undefined;
  outageWatch?.start();
  // Each owner's e-mail at 7:30 New Zealand time of what waits, once a day.
  const emailMorning = morningEmailer(env, identity, leadLogger);
  const morningEmail = emailMorning
    ? createMorningEmail({
        store,
        logger: leadLogger,
        quotedDays: env.FOLLOW_UP_QUOTED_DAYS,
        emailOwner: emailMorning,
        pollIntervalMs: timing.morningEmail?.pollMs,
        now: timing.morningEmail?.now,
      })
    : undefined;
  morningEmail?.start();

  // One write check at a time, its outcome reused for WRITE_CHECK_REUSE_MS.
  let writeCheck: { startedAt: number; writable: Promise<boolean> } | undefined;
  let lastWritable = true;
  const checkWritable = (): Promise<boolean> => {
    const now = Date.now();
    if (writeCheck && now - writeCheck.startedAt < WRITE_CHECK_REUSE_MS) return writeCheck.writable;
    const writable = store.checkWritable().then(
      () => {
        if (!lastWritable) leadLogger.info('Lead store commits again');
        lastWritable = true;
        return true;
      },
      (error: unknown) => {
        if (lastWritable) {
          leadLogger.error({ err: storeErrorForLog(error) }, 'Lead store cannot commit a write');
        }
        lastWritable = false;
        return false;
      },
    );
    writeCheck = { startedAt: now, writable };
    return writable;
  };

  // One count per visitor for the API and the page forms together, and for
  // every server process when they share PostgreSQL.
  const limiter = createLeadRateLimiter({
    limit: env.LEAD_RATE_LIMIT,
    store: storeKind === 'postgres' ? store : undefined,
    logger: leadLogger,
  });
  // The forms' invisible proof of work (docs/forms.md#proof-of-work),
  // signed with the store's own secret so every process checks alike.
  const proofOfWork = createProofOfWork({ store, logger: leadLogger });
  const apiRouter = createLeadApiRouter({
    service,
    rateLimit: env.LEAD_RATE_LIMIT,
    siteUrl: env.SITE_URL,
    logger: leadLogger,
    limiter,
    proofOfWork,
    challengeLimiter: createChallengeRateLimiter({
      leadLimit: env.LEAD_RATE_LIMIT,
      store: storeKind === 'postgres' ? store : undefined,
      logger: leadLogger,
    }),
  });

  return {
    apiRouter,
    pushToDevices,
    delivery: {
      targets: () => targets.map(({ key, label }) => ({ key, label })),
      kick: () => outbox.kick(),
      escalateAfterMinutes: env.URGENT_ESCALATE_MINUTES,
    },
    photoLinks: leadPhotoRoute({ links, store, logger: leadLogger }),
    // The API's guards: a cross-origin form post gets its 403 (only an
    // attacking page sends one); an over-limit one reaches the page, where
    // receiveLead answers 429 with the message in the form.
    formPostGuards: leadGuards(env.SITE_URL, limiter),
    requestContext: (res) => leadsRequestContext(service, res, leadLogger, proofOfWork),
    async health(): Promise<LeadsHealth> {
      // The ping records the store's state, so an outage is logged once when it starts and ends.
      const up = await store.ping().then(
        () => true,
        () => false,
      );
      // A store that answers may still refuse to commit (a full disk, a
      // read-only file or database, a write lock another process holds).
      const writable = up && (await checkWritable());
      const failedDeliveries = up ? await store.countFailedDeliveries().catch(() => null) : null;
      return {
        // `delivered` mode accepts a lead the targets take even without the store.
        ok: env.LEAD_ACCEPT === 'delivered' ? keepers > 0 : writable,
        mode: env.LEAD_ACCEPT,
        store: { kind: storeKind, state: up ? 'up' : 'down', writable },
        targets: keepers,
        failedDeliveries,
      };
    },
    async close() {
      retention.stop();
      await escalation.stop();
      await outageWatch?.stop();
      await morningEmail?.stop();
      await outbox.stop();
      delivery.close();
    },
  };
}

/**
 * What the builder builds (docs/operations.md#publishing-the-site), and
 * where it and the web server record how each build of this host went.
 */
export function sitePublishingSource(
  store: AppStore,
  hostName: string,
  logger: Logger,
): SitePublishSource {
  return {
    desired: (now) => siteBuildToPublish(store, now, hostName),
    async onBuildStarting(version) {
      if (version === 0) return;
      // Five publishes in a row build the first and the last: the others never will (here).
      const superseded = await store.supersedeSiteContentVersions(version, hostName);
      if (superseded.length > 0) {
        logger.info({ version, superseded }, 'site content versions superseded before their build');
      }
    },
    async onBuilt(version, ok, errorSummary) {
      if (version === 0) return;
      // This host's build; the version's state follows every host's (docs/operations.md#several-hosts).
      const changed = await store.recordSiteBuild(
        version,
        hostName,
        ok ? 'live' : 'failed',
        errorSummary ?? undefined,
      );
      // Once per change of the version's state, by the process whose build changed it.
      if (changed) await store.recordActivity(siteBuildActivity(version, ok, new Date()));
    },
    async onServing(version) {
      if (version === 0) return;
      // The web server serves it (server/release-follower.server.ts); recorded
      // here too in case the builder could not record its build.
      if (await store.recordSiteBuild(version, hostName, 'live')) {
        await store.recordActivity(siteBuildActivity(version, true, new Date()));
      }
    },
  };
}

/**
 * E-mails an owner that the backup needs attention, through lead e-mail's
 * SMTP settings; undefined when lead e-mail is not configured.
 */
function backupAlertSender(
  env: Env,
  identity: IdentitySource,
  logger: Logger,
): BackupCheckOptions['sendAlert'] {
  const smtp = env.SMTP_URL;
  if (!smtp || env.LEAD_EMAIL_TO.length === 0) return undefined;
  const sender = emailSender(identity, env.LEAD_EMAIL_FROM);
  return async (to, problem) => {
    const sent = await sendBackupAlertEmail(
      smtp,
      { to, problem, ...sender() },
      { timeoutMs: env.LEAD_WEBHOOK_TIMEOUT_MS },
    );
    if (!sent.ok) logger.error({ error: sent.error }, 'Backup warning not e-mailed');
    return sent.ok;
  };
}

/**
 * E-mails an owner that an urgent enquiry is still unanswered, through lead
 * e-mail's SMTP settings; undefined when no mail server is configured.
 */
function escalationEmailer(
  env: Env,
  identity: IdentitySource,
  logger: Logger,
): EscalationOptions['emailOwner'] {
  const smtp = env.SMTP_URL;
  if (!smtp) return undefined;
  const sender = emailSender(identity, env.LEAD_EMAIL_FROM);
  return async (to, lead) => {
    const sent = await sendEscalationEmail(
      smtp,
      { to, lead, minutes: env.URGENT_ESCALATE_MINUTES, siteUrl: env.SITE_URL, ...sender() },
      { timeoutMs: env.LEAD_WEBHOOK_TIMEOUT_MS },
    );
    if (!sent.ok) logger.error({ error: sent.error, leadId: lead.id }, 'Escalation not e-mailed');
    return sent.ok;
  };
}

/**
 * E-mails an owner the morning's list of what waits, through lead e-mail's
 * SMTP settings; undefined when no mail server is configured.
 */
function morningEmailer(
  env: Env,
  identity: IdentitySource,
  logger: Logger,
): MorningEmailOptions['emailOwner'] | undefined {
  const smtp = env.SMTP_URL;
  if (!smtp) return undefined;
  const sender = emailSender(identity, env.LEAD_EMAIL_FROM);
  return async (to, lists, now) => {
    const sent = await sendMorningEmail(
      smtp,
      { to, lists, now, siteUrl: env.SITE_URL, ...sender() },
      { timeoutMs: env.LEAD_WEBHOOK_TIMEOUT_MS },
    );
    if (!sent.ok) logger.error({ error: sent.error }, 'Morning e-mail not sent');
    return sent.ok;
  };
}

/** What the owner's pages (/admin) need: the store, the site's address, the sign-in e-mails. */
function ownerPagesContext(
  env: Env,
  store: AppStore,
  logger: Logger,
  identity: IdentitySource,
): OwnerPagesContext {
  return createOwnerPagesContext({
    store,
    siteUrl: env.SITE_URL,
    logger: logger.child({ component: 'owner-pages' }),
    identity,
    adsConversionName: env.ADS_CONVERSION_NAME,
    email:
      env.LEAD_EMAIL_TO.length > 0 && env.SMTP_URL
        ? {
            smtp: env.SMTP_URL,
            from: env.LEAD_EMAIL_FROM,
            timeoutMs: env.LEAD_WEBHOOK_TIMEOUT_MS,
          }
        : undefined,
  });
}

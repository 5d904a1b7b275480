import type { Logger } from 'pino';
import { emailSender, type IdentitySource } from '../content/served-identity.ts';
import type { SmtpSettings } from '../leads/delivery/lead-email.server.ts';
import type { AppStore, OwnerLinkKind } from '../db/store.server.ts';
import { sendOwnerEmail, sendOwnerLinkEmail } from './sign-in-email.server.ts';
import {
  composeReviewRequestEmail,
  type ReviewRequestEmail,
} from '../reviews/review-request-email.server.ts';
import type { BackupStatusForOwner } from './backup-words.ts';
import type { LeadDeliveryControl } from './inbox.server.ts';
import { signInLimits, type SignInLimits } from './limits.server.ts';
import { DEFAULT_CONVERSION_NAME } from './google-ads.server.ts';
import {
  ownerSessions,
  sessionCookie,
  type OwnerSessions,
  type SessionCookie,
} from './sessions.server.ts';

/**
 * What the owner's pages (app/pages/admin) get from the server for one
 * request, as Astro.locals: the store they read and write, sessions and
 * one-time links, the sign-in limits, and who is signed in
 * (docs/operations.md, "Owner's pages"). The server builds it once
 * (server/runtime.server.ts) and the gate in front of /admin
 * (server/owner-gate.server.ts) adds the owner of the request's session.
 */
export interface OwnerPagesContext {
  store: AppStore;
  sessions: OwnerSessions;
  limits: SignInLimits;
  /** The session cookie's name and attributes for this site. */
  cookie: SessionCookie;
  /** SITE_URL's origin: links, the origin check, the passkey's expected origin. */
  siteOrigin: string;
  /** The passkey's relying party: SITE_URL's host name, and the name of the business served now. */
  readonly relyingParty: { id: string; name: string };
  /**
   * E-mails a one-time link to an owner's own address; false when it could
   * not be sent. Undefined when lead e-mail is not configured.
   */
  sendLink?: (link: {
    to: string;
    url: string;
    kind: OwnerLinkKind;
    expiresAt: string;
  }) => Promise<boolean>;
  /**
   * E-mails a won customer their review link (docs/operations.md,
   * "Reviews") from the business served now; false when it could not be
   * sent. Undefined when lead e-mail is not configured.
   */
  sendReviewRequest?: (mail: CustomerReviewMail) => Promise<boolean>;
  logger: Logger;
  /**
   * Publishing as the web server has it (server/start.ts sets it):
   * "Publish" on /admin/site wakes the builder (server/builder.ts) at once.
   * Without it the builder of every host on the store picks the version up
   * on its next check.
   */
  publishing?: SitePublishingControl;
  /**
   * The backup and its daily check as the web server has them
   * (server/backup/backup-check.server.ts): the inbox says when it was last
   * checked. Unset: the inbox says nothing about it.
   */
  backup?: () => BackupStatusForOwner;
  /**
   * The delivery targets configured now and the outbox's kick
   * (server/runtime.server.ts sets it): "Not spam" on a lead's page sends
   * it to each. Unset: "Not spam" makes it new with nothing to send.
   */
  delivery?: LeadDeliveryControl;
  /**
   * FOLLOW_UP_QUOTED_DAYS (server/runtime.server.ts sets it): a lead quoted
   * this many days ago is a quote to chase under "Follow up". Unset: 3.
   */
  followUpQuotedDays?: number;
  /**
   * ADS_CONVERSION_NAME: the conversion name of the won jobs the report's
   * "Download for Google Ads" lists (app/owner/google-ads.server.ts).
   */
  adsConversionName: string;
}

/** What the review request needs that the business details do not give. */
export type CustomerReviewMail = Pick<
  ReviewRequestEmail,
  'to' | 'customerName' | 'url' | 'expiresAt'
>;

/** What the owner's pages may ask of publishing (server/start.ts, server/builder.ts). */
export interface SitePublishingControl {
  /** Wake the builder now; returns at once (the build runs in the builder). */
  publishNow(): void;
  /** The content version this process serves now; null when its release names none. */
  servedVersion(): number | null;
}

/** The owner a request's session names (Astro.locals.owner). */
export interface SignedInOwner {
  id: string;
  email: string;
}

export interface OwnerPagesOptions {
  store: AppStore;
  siteUrl: string;
  logger: Logger;
  /**
   * Lead e-mail's settings, when configured: the sign-in links go out the
   * same way. `from` is LEAD_EMAIL_FROM; unset, the served business e-mail.
   */
  email?: {
    smtp: SmtpSettings;
    from: string | undefined;
    timeoutMs: number;
    tls?: { ca?: string | Buffer };
  };
  /** The business identity served now: the e-mails' sender and the passkey's relying party name. */
  identity: IdentitySource;
  /** ADS_CONVERSION_NAME; unset, DEFAULT_CONVERSION_NAME. */
  adsConversionName?: string | undefined;
}

export function createOwnerPagesContext(options: OwnerPagesOptions): OwnerPagesContext {
  const site = new URL(options.siteUrl);
  const { email, logger, identity } = options;
  const sender = emailSender(identity, email?.from);
  return {
    store: options.store,
    sessions: ownerSessions(options.store),
    limits: signInLimits(options.store),
    cookie: sessionCookie(site),
    siteOrigin: site.origin,
    get relyingParty() {
      return { id: site.hostname, name: identity().name };
    },
    sendLink: email
      ? async (link) => {
          const sent = await sendOwnerLinkEmail(
            email.smtp,
            { ...link, ...sender() },
            { timeoutMs: email.timeoutMs, tls: email.tls },
          );
          if (!sent.ok)
            logger.error({ error: sent.error, kind: link.kind }, 'Owner link not e-mailed');
          return sent.ok;
        }
      : undefined,
    sendReviewRequest: email
      ? async (mail) => {
          const served = identity();
          const sent = await sendOwnerEmail(
            email.smtp,
            composeReviewRequestEmail({
              ...mail,
              ...sender(),
              phone: served.phone.display,
              replyTo: served.email,
            }),
            { timeoutMs: email.timeoutMs, tls: email.tls },
          );
          if (!sent.ok) logger.error({ error: sent.error }, 'Review request not e-mailed');
          return sent.ok;
        }
      : undefined,
    logger,
    adsConversionName: options.adsConversionName ?? DEFAULT_CONVERSION_NAME,
  };
}

/**
 * The business identity as Node code reads it (docs/operations.md, "Site
 * content"): the lead e-mail's sender, the sign-in e-mails and the passkey's
 * relying party name read the identity the site serves now, never the
 * shipped placeholders compiled into the code. The server reads it from the
 * release it serves (server/site-release.server.ts); the CLIs from the
 * newest published version in the store.
 */
import { defaultSiteContent, type SiteIdentity } from './site-content.ts';

/** The identity served now: called at each use, so a publication reaches the next e-mail. */
export type IdentitySource = () => SiteIdentity;

/** The shipped identity: a store or a release that has none. */
export const shippedIdentity: IdentitySource = () => defaultSiteContent.identity;

/**
 * The name and address e-mails are sent from: the served business name,
 * and LEAD_EMAIL_FROM or else the served business e-mail.
 */
export function emailSender(
  identity: IdentitySource,
  configuredFrom: string | undefined,
): () => { siteName: string; from: string } {
  return () => {
    const served = identity();
    return { siteName: served.name, from: configuredFrom ?? served.email };
  };
}

/**
 * The VAPID subject the pushes to the owners' phones are signed with
 * (docs/operations.md#push-notifications): VAPID_SUBJECT, or else mailto:
 * and the served business e-mail.
 */
export function vapidSubject(
  identity: IdentitySource,
  configured: string | undefined,
): () => string {
  return () => configured ?? `mailto:${identity().email}`;
}

/**
 * The identity of the newest published version in a store (what the CLIs
 * e-mail with), or the shipped one when none is published or the store
 * cannot say.
 */
export async function publishedIdentity(
  store: {
    newestLiveSiteContent(): Promise<{ content: { identity: SiteIdentity } } | null>;
  } | null,
): Promise<SiteIdentity> {
  const live = store ? await store.newestLiveSiteContent().catch(() => null) : null;
  return live?.content.identity ?? shippedIdentity();
}

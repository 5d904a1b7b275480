import type { BrowserContext } from '@playwright/test';
import { type OwnerRecord } from '../../app/db/store.server.ts';
import { openStore } from '../../app/db/open-store.server.ts';
import { ownerSessions, sessionCookie } from '../../app/owner/sessions.server.ts';
import type { SiteServer } from './lead-server.ts';

/**
 * Signs a browser context in as an owner without the sign-in pages: the
 * owner and a session are created in the store the server uses (the same
 * DATA_DIR or DATABASE_URL), as a passkey sign-in would leave them, and the
 * session's cookie is given to the context under the site's cookie name,
 * for the server's SITE_URL. For tests of what a signed-in owner does; the
 * sign-in itself has its own.
 *
 * Browse the server at its SITE_URL: a local one is `http://localhost:PORT`
 * (start the server with that SITE_URL and PORT, e2e/support/free-port.ts),
 * whose cookie has no `Secure` and no `__Host-` prefix, which a browser
 * takes only from https.
 */
export async function signInAsOwner(
  context: BrowserContext,
  server: SiteServer,
  email: string,
): Promise<OwnerRecord> {
  const store = await openStore({
    dataDir: server.env.DATA_DIR ?? '',
    databaseUrl: server.env.DATABASE_URL || undefined,
  });
  try {
    const { owner } = await store.addOwner(email, new Date().toISOString());
    const session = await ownerSessions(store).create(owner.id);
    if (!session) throw new Error(`no session for ${email}`);
    const site = new URL(server.env.SITE_URL ?? 'http://localhost');
    const cookie = sessionCookie(site);
    await context.addCookies([
      {
        name: cookie.name,
        value: session,
        url: site.origin,
        httpOnly: true,
        secure: cookie.options.secure,
        sameSite: 'Lax',
      },
    ]);
    return owner;
  } finally {
    await store.close();
  }
}

import type { CDPSession, Page } from '@playwright/test';
import { main as ownerCli } from '../../server/cli/owner-cli.ts';
import {
  startSmtpServer,
  type TestSmtpServer,
} from '../../app/leads/testing/smtp-test-support.server.ts';
import { freePort } from './free-port.ts';
import { startSiteServer, tempDataDir, type SiteServer } from './lead-server.ts';

/**
 * A server for the owner's pages, started by the test on the suite's build
 * (lead-server.ts): SITE_URL is `http://localhost:PORT`, since WebAuthn
 * refuses an IP address as its relying party and Chromium treats localhost
 * as a secure origin. Lead e-mail goes to a real SMTP server on loopback,
 * so the e-mailed sign-in links arrive as an owner's would.
 */

export interface OwnerSite {
  readonly server: SiteServer;
  /** http://localhost:PORT: SITE_URL, where the browser goes. */
  readonly url: string;
  readonly smtp: TestSmtpServer;
  /** The environment `npm run owner` and `npm run leads` need for this site's store. */
  readonly env: Record<string, string>;
  /** `npm run owner -- ARGS` against this site's store: its exit code and output. */
  owner(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** `owner add EMAIL`, and the set-up link it printed. */
  addOwner(email: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startOwnerSite(env: Record<string, string> = {}): Promise<OwnerSite> {
  const smtp = await startSmtpServer();
  const data = tempDataDir();
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const siteEnv = {
    SITE_URL: url,
    PORT: String(port),
    DATA_DIR: data.dir,
    LEAD_EMAIL_TO: 'office@glass.example.nz',
    LEAD_EMAIL_FROM: 'website@glass.example.nz',
    SMTP_URL: smtp.url,
    ...env,
  };
  // With a builder: the owner's pages publish the site.
  const server = await startSiteServer(siteEnv, { builder: true });
  const owner = async (...args: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await ownerCli(args, {
      env: { ...process.env, ...siteEnv, LOG_LEVEL: 'silent' },
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
    });
    return { code, stdout, stderr };
  };
  return {
    server,
    url,
    smtp,
    env: siteEnv,
    owner,
    async addOwner(email) {
      const result = await owner('add', email);
      const link = new RegExp(`${url}/admin/setup/[A-Za-z0-9_-]{43}`).exec(result.stdout)?.[0];
      if (result.code !== 0 || !link) throw new Error(`owner add failed: ${result.stderr}`);
      return link;
    },
    async stop() {
      await server.stop();
      await smtp.close();
      data.remove();
    },
  };
}

/**
 * Chromium's virtual authenticator (DevTools protocol): a platform
 * authenticator that keeps discoverable credentials and verifies its user,
 * as a phone's does. Passkeys it creates are real: the site checks them
 * with SimpleWebAuthn as it would a phone's.
 */
export async function addVirtualAuthenticator(
  page: Page,
): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  return { cdp, authenticatorId };
}

/** The sign-in link in the latest e-mail to `to`, once it has arrived. */
export async function signInLinkMailed(
  site: OwnerSite,
  to: string,
  after: number,
): Promise<string> {
  const pattern = new RegExp(`${site.url}/admin/sign-in/[A-Za-z0-9_-]{43}`);
  for (;;) {
    await site.smtp.waitForMessages(after + 1);
    const mail = site.smtp.messages
      .slice(after)
      .find(
        (message) => message.envelope.to.includes(to) && pattern.test(message.parsed.text ?? ''),
      );
    if (mail) return pattern.exec(mail.parsed.text ?? '')![0];
    after = site.smtp.messages.length;
  }
}

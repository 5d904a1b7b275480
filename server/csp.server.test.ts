import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, hashSource } from './csp.server.ts';
import { loadPrerenderedPages, loadSiteRelease } from './release-files.server.ts';
import { StaticFiles } from './static.server.ts';
import { tempDataDir } from '../app/leads/testing/test-support.server.ts';

const sha = (body: string) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`;

describe('hashSource', () => {
  it('allows one inline body by its SHA-256', () => {
    expect(hashSource('window.a = 1;')).toBe(sha('window.a = 1;'));
  });
});

describe('contentSecurityPolicy', () => {
  const directive = (policy: string, name: string) =>
    policy.split('; ').find((part) => part.startsWith(`${name} `));

  it('allows no inline script or style but the given hashes, and no framing', () => {
    const policy = contentSecurityPolicy({ hashes: ["'sha256-abc'"] }, {});
    expect(directive(policy, 'script-src')).toBe("script-src 'self' 'sha256-abc'");
    expect(directive(policy, 'frame-ancestors')).toBe("frame-ancestors 'none'");
    expect(directive(policy, 'frame-src')).toBe("frame-src 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('googletagmanager');
    expect(policy).not.toContain('upgrade-insecure-requests');
    expect(directive(policy, 'style-src')).toBe("style-src 'self'");
    expect(
      directive(contentSecurityPolicy({ styleHashes: ["'sha256-def'"] }, {}), 'style-src'),
    ).toBe("style-src 'self' 'sha256-def'");
  });

  it('allows a service worker of the site only on the pages that say so (the owner’s)', () => {
    expect(directive(contentSecurityPolicy({}, {}), 'worker-src')).toBe("worker-src 'none'");
    const owner = contentSecurityPolicy({}, { serviceWorker: true });
    expect(directive(owner, 'worker-src')).toBe("worker-src 'self'");
    expect(directive(owner, 'manifest-src')).toBe("manifest-src 'self'");
    expect(directive(owner, 'script-src')).toBe("script-src 'self'");
  });

  it('allows analytics, ads and map hosts only when configured', () => {
    const policy = contentSecurityPolicy(
      {},
      {
        gtagId: 'G-1',
        adsConversionSendTo: 'AW-1/x',
        mapEmbedUrl: 'https://www.google.com/maps?q=x&output=embed',
        https: true,
      },
    );
    expect(directive(policy, 'script-src')).toContain('https://www.googletagmanager.com');
    expect(directive(policy, 'script-src')).toContain('https://www.googleadservices.com');
    expect(directive(policy, 'connect-src')).toContain('https://*.google-analytics.com');
    expect(directive(policy, 'frame-src')).toContain('https://www.google.com');
    expect(policy.endsWith('upgrade-insecure-requests')).toBe(true);
  });
});

describe("Web Workers (the lead forms' proof of work, docs/forms.md#proof-of-work)", () => {
  const directive = (policy: string, name: string) =>
    policy.split('; ').find((part) => part.startsWith(`${name} `));

  it("allows the site's own workers only where asked, never blob: or data:", () => {
    expect(directive(contentSecurityPolicy({}, {}), 'worker-src')).toBe("worker-src 'none'");
    expect(directive(contentSecurityPolicy({}, { formWorker: true }), 'worker-src')).toBe(
      "worker-src 'self'",
    );
  });

  it('a prerendered page with a lead form may start one; the others may not', async () => {
    const client = tempDataDir('csp-workers-');
    try {
      for (const page of ['', 'contact', 'quote', 'about', 'blog']) {
        mkdirSync(path.join(client.dir, page), { recursive: true });
        writeFileSync(path.join(client.dir, page, 'index.html'), '<!doctype html>');
      }
      const pages = await loadPrerenderedPages(await StaticFiles.scan(client.dir), {});
      const workers = Object.fromEntries(
        [...pages].map(([urlPath, page]) => [urlPath, directive(page.csp, 'worker-src')]),
      );
      expect(workers).toEqual({
        '/': "worker-src 'self'",
        '/contact': "worker-src 'self'",
        '/quote': "worker-src 'self'",
        '/about': "worker-src 'none'",
        '/blog': "worker-src 'none'",
      });
      // A form's page answering a post without JavaScript may; any other page rendered on request may not.
      const release = await loadSiteRelease(client.dir, () => undefined, {});
      expect(directive(release.formPageCsp, 'worker-src')).toBe("worker-src 'self'");
      expect(directive(release.renderedPageCsp, 'worker-src')).toBe("worker-src 'none'");
    } finally {
      client.remove();
    }
  });
});

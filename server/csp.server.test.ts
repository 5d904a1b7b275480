import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, hashSource } from './csp.server.ts';

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

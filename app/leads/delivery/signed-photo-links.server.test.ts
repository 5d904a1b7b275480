import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PHOTO_LINK_TTL_S, photoLinks } from './signed-photo-links.server.ts';

const LEAD = '6f1c7f0e-8a51-4c1f-9a0e-2f3b0d9e1a11';
const OTHER = '0d7c3d4e-1b2a-4c3d-8e9f-0a1b2c3d4e5f';
const NOW = Date.parse('2025-03-04T01:05:00.000Z');
const secret = randomBytes(32);

const links = (key: Uint8Array = secret) =>
  photoLinks({ siteUrl: 'https://glass.example.nz', secret: () => Promise.resolve(key) });

/** A link's parts as the route reads them. */
function parts(link: string) {
  const url = new URL(link);
  const [, , leadId, number] = url.pathname.split('/');
  return {
    url,
    leadId: decodeURIComponent(leadId ?? ''),
    number: number ?? '',
    expires: url.searchParams.get('expires') ?? '',
    sig: url.searchParams.get('sig') ?? '',
  };
}

describe('signed photo links', () => {
  it('are absolute links under SITE_URL, valid 7 days from the delivery', async () => {
    const link = await links().link(LEAD, 2, NOW);
    const { url, leadId, number, expires, sig } = parts(link);
    expect(url.origin).toBe('https://glass.example.nz');
    expect(url.pathname).toBe(`/lead-photos/${LEAD}/2`);
    expect(Number(expires)).toBe(Math.floor(NOW / 1000) + 7 * 24 * 60 * 60);
    expect(sig).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await links().verify(leadId, number, expires, sig, NOW)).toEqual({
      number: 2,
      expiresAt: Number(expires) * 1000,
    });
    // Until the last second of the 7 days, and not after.
    const end = (Math.floor(NOW / 1000) + PHOTO_LINK_TTL_S) * 1000;
    expect(await links().verify(leadId, number, expires, sig, end - 1)).not.toBeNull();
    expect(await links().verify(leadId, number, expires, sig, end)).toBeNull();
  });

  it('refuse another lead, another photo, a later expiry, a changed signature or key', async () => {
    const { leadId, number, expires, sig } = parts(await links().link(LEAD, 1, NOW));
    const verify = links().verify;
    expect(await verify(OTHER, number, expires, sig, NOW)).toBeNull();
    expect(await verify(leadId, '2', expires, sig, NOW)).toBeNull();
    expect(await verify(leadId, number, String(Number(expires) + 1), sig, NOW)).toBeNull();
    const flipped = `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`;
    expect(await verify(leadId, number, expires, flipped, NOW)).toBeNull();
    // The same bytes spelt otherwise: the last character's two spare bits.
    const last = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.indexOf(
      sig.at(-1)!,
    );
    const respelt = `${sig.slice(0, -1)}${'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[last ^ 1]}`;
    expect(Buffer.from(respelt, 'base64url')).toEqual(Buffer.from(sig, 'base64url'));
    expect(await verify(leadId, number, expires, respelt, NOW)).toBeNull();
    expect(await links(randomBytes(32)).verify(leadId, number, expires, sig, NOW)).toBeNull();
  });

  it('refuse malformed parts before any comparison', async () => {
    const { leadId, number, expires, sig } = parts(await links().link(LEAD, 1, NOW));
    const verify = links().verify;
    for (const [id, n, e, s] of [
      ['', number, expires, sig],
      ['x'.repeat(65), number, expires, sig],
      [leadId, '01', expires, sig],
      [leadId, '0', expires, sig],
      [leadId, ['1'], expires, sig],
      [leadId, number, undefined, sig],
      [leadId, number, `${expires}.5`, sig],
      [leadId, number, expires, `${sig}=`],
      [leadId, number, expires, sig.slice(1)],
      [leadId, number, expires, [sig, sig]],
    ] as const) {
      expect(await verify(id, n, e, s, NOW)).toBeNull();
    }
  });

  it('ask the store for the secret once, and again after a failure', async () => {
    let asked = 0;
    const flaky = photoLinks({
      siteUrl: 'https://glass.example.nz',
      secret: () =>
        ++asked === 1 ? Promise.reject(new Error('store down')) : Promise.resolve(secret),
    });
    await expect(flaky.link(LEAD, 1, NOW)).rejects.toThrow('store down');
    const link = await flaky.link(LEAD, 1, NOW);
    await flaky.link(LEAD, 2, NOW);
    expect(asked).toBe(2);
    const { leadId, number, expires, sig } = parts(link);
    expect(await links().verify(leadId, number, expires, sig, NOW)).not.toBeNull();
  });
});

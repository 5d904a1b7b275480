import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppStore, OwnerRecord } from '../db/store.server.ts';
import { STORE_BACKENDS, type StoreHarness } from '../leads/testing/test-support.server.ts';
import {
  isSecret,
  ownerLinkUrl,
  ownerSessions,
  secretHash,
  sessionCookie,
  type OwnerSessions,
} from './sessions.server.ts';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('the session cookie', () => {
  it('on https: __Host- prefixed, Secure, HttpOnly, SameSite=Lax, Path=/', () => {
    expect(sessionCookie('https://glass.example.nz')).toEqual({
      name: '__Host-owner_session',
      options: { httpOnly: true, sameSite: 'lax', secure: true, path: '/' },
      maxAgeSeconds: 30 * 24 * 60 * 60,
    });
  });

  it('on http (a local run): no prefix and not Secure, which a browser would refuse there', () => {
    expect(sessionCookie(new URL('http://localhost:3000'))).toEqual({
      name: 'owner_session',
      options: { httpOnly: true, sameSite: 'lax', secure: false, path: '/' },
      maxAgeSeconds: 30 * 24 * 60 * 60,
    });
  });

  it('is what Express sends with those options', async () => {
    const cookie = sessionCookie('https://glass.example.nz');
    const app = express();
    app.get('/', (_req, res) => {
      res.cookie(cookie.name, 'v', { ...cookie.options, maxAge: cookie.maxAgeSeconds * 1000 });
      res.end();
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/`);
      const header = response.headers.get('set-cookie') ?? '';
      const parts = header.split('; ');
      expect(parts[0]).toBe('__Host-owner_session=v');
      expect(parts).toEqual(
        expect.arrayContaining(['Max-Age=2592000', 'Path=/', 'HttpOnly', 'Secure', 'SameSite=Lax']),
      );
      expect(header).not.toMatch(/Domain=/i);
    } finally {
      server.close();
    }
  });

  it('links lead to the owner pages of SITE_URL', () => {
    expect(ownerLinkUrl('https://glass.example.nz', 'setup', 'abc')).toBe(
      'https://glass.example.nz/admin/setup/abc',
    );
    expect(ownerLinkUrl('http://localhost:3000/', 'sign-in', 'abc')).toBe(
      'http://localhost:3000/admin/sign-in/abc',
    );
  });
});

for (const backend of STORE_BACKENDS) {
  describe.skipIf(backend.skip)(`owner sessions and links (${backend.label})`, () => {
    let harness: StoreHarness;
    let store: AppStore;
    let clock: number;
    let sessions: OwnerSessions;
    let owner: OwnerRecord;

    beforeEach(async () => {
      harness = await backend.harness();
      store = await harness.open();
      clock = Date.parse('2025-06-01T00:00:00.000Z');
      sessions = ownerSessions(store, { now: () => clock });
      owner = (await store.addOwner('ana@glass.example.nz', new Date(clock).toISOString())).owner;
    });

    afterEach(async () => {
      await store.close();
      await harness.cleanup();
    });

    it('a session is a random 32-byte id, of which the store keeps only the hash', async () => {
      const value = await sessions.create(owner.id);
      const other = await sessions.create(owner.id);
      expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(other).not.toBe(value);
      const signedIn = await sessions.resolve(value!);
      expect(signedIn?.owner.email).toBe('ana@glass.example.nz');
      expect(signedIn?.session.id_hash).toBe(secretHash(value!));
      expect(signedIn?.session.id_hash).toMatch(/^[0-9a-f]{64}$/);
      // The stored row does not hold the cookie's value.
      expect(JSON.stringify(signedIn)).not.toContain(value);
      expect(await store.findSession(value!, new Date(clock).toISOString())).toBeNull();
    });

    it('ends after 7 days unused', async () => {
      const value = await sessions.create(owner.id);
      clock += 7 * DAY - 1;
      expect(await sessions.resolve(value!)).not.toBeNull();
      // That use moved the end on by 7 days from now.
      clock += 7 * DAY - 1;
      expect(await sessions.resolve(value!)).not.toBeNull();
      clock += 7 * DAY;
      expect(await sessions.resolve(value!)).toBeNull();
    });

    it('ends 30 days after it began, however often it is used', async () => {
      const start = clock;
      const value = await sessions.create(owner.id);
      for (clock = start + 6 * DAY; clock < start + 30 * DAY; clock += 6 * DAY) {
        expect(await sessions.resolve(value!), new Date(clock).toISOString()).not.toBeNull();
      }
      clock = start + 30 * DAY - 1;
      expect((await sessions.resolve(value!))?.session.expires_at).toBe(
        new Date(start + 30 * DAY).toISOString(),
      );
      clock = start + 30 * DAY;
      expect(await sessions.resolve(value!)).toBeNull();
    });

    it('ends on sign-out and when the owner is removed', async () => {
      const first = await sessions.create(owner.id);
      const second = await sessions.create(owner.id);
      await sessions.end(first!);
      expect(await sessions.resolve(first!)).toBeNull();
      expect(await sessions.resolve(second!)).not.toBeNull();
      await store.removeOwner(owner.email, new Date(clock).toISOString());
      expect(await sessions.resolve(second!)).toBeNull();
      expect(await sessions.create(owner.id)).toBeNull();
    });

    it('recognises nothing forged, missing or malformed', async () => {
      await sessions.create(owner.id);
      for (const value of [undefined, '', 'x', 'A'.repeat(43), 'A'.repeat(44), '../../etc']) {
        expect(await sessions.resolve(value)).toBeNull();
      }
      expect(isSecret('a'.repeat(10_000))).toBe(false);
      await expect(sessions.end('not a session')).resolves.toBeUndefined();
    });

    it('a set-up link works once within 24 hours, and a new one replaces it', async () => {
      const first = await sessions.createLink(owner.id, 'setup');
      expect(first.expiresAt).toBe(new Date(clock + DAY).toISOString());
      const second = await sessions.createLink(owner.id, 'setup');
      expect(await sessions.consumeLink(first.token, 'setup')).toBeNull();
      clock += DAY - 1;
      expect(await sessions.consumeLink(second.token, 'sign-in')).toBeNull();
      expect((await sessions.consumeLink(second.token, 'setup'))?.id).toBe(owner.id);
      expect(await sessions.consumeLink(second.token, 'setup')).toBeNull();
      const late = await sessions.createLink(owner.id, 'setup');
      clock += DAY;
      expect(await sessions.consumeLink(late.token, 'setup')).toBeNull();
    });

    it('a sign-in link works once within 15 minutes; of two uses at once, one', async () => {
      const link = await sessions.createLink(owner.id, 'sign-in');
      expect(
        await store.consumeOwnerLink(link.token, 'sign-in', new Date(clock).toISOString()),
      ).toBeNull();
      clock += 15 * MINUTE - 1;
      const uses = await Promise.all([
        sessions.consumeLink(link.token, 'sign-in'),
        sessions.consumeLink(link.token, 'sign-in'),
        sessions.consumeLink(link.token, 'sign-in'),
      ]);
      expect(uses.filter(Boolean).map((used) => used?.id)).toEqual([owner.id]);
      const late = await sessions.createLink(owner.id, 'sign-in');
      clock += 15 * MINUTE;
      expect(await sessions.consumeLink(late.token, 'sign-in')).toBeNull();
      expect(await sessions.consumeLink(undefined, 'sign-in')).toBeNull();
    });
  });
}

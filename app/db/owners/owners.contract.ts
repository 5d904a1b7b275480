import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AppStore, NewPasskey, OwnerLinkKind, OwnerLinkRecord } from '../store.server.ts';
import { iso, nextTime, openStorePerTest, type StoreHarness } from '../store.contract.ts';

/**
 * The behaviour every store must have for the owners' accounts and sign-ins
 * (owners.server.ts): owners, passkeys, sessions, one-time links and
 * passkey challenges, run against SQLite (store-sqlite.server.test.ts) and
 * PostgreSQL (store-postgres.server.test.ts).
 */

/** A passkey as SimpleWebAuthn's verified registration gives it. */
function passkeyOf(ownerId: string, name: string): NewPasskey {
  return {
    id: randomBytes(16).toString('base64url'),
    owner_id: ownerId,
    public_key: new Uint8Array(randomBytes(77)),
    counter: 0,
    transports: ['hybrid', 'internal'],
    name,
    created_at: nextTime(),
  };
}

/** A link whose token hash is `char` 64 times, valid a minute from `now`. */
function link(ownerId: string, kind: OwnerLinkKind, char: string, now: number): OwnerLinkRecord {
  return {
    token_hash: char.repeat(64),
    owner_id: ownerId,
    kind,
    created_at: iso(now),
    expires_at: iso(now + 60_000),
  };
}

export function runOwnersContract(
  label: string,
  makeHarness: () => Promise<StoreHarness>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`Owners in the store: ${label}`, () => {
    let store: AppStore;
    const open = openStorePerTest(makeHarness, (first) => {
      store = first;
    });

    it('adds owners once per address whatever its case, and lists them with their passkeys', async () => {
      const at = nextTime();
      const first = await store.addOwner('  Ana@Glass.Example.NZ ', at);
      expect(first).toEqual({
        added: true,
        owner: {
          id: expect.any(String),
          email: 'ana@glass.example.nz',
          webauthn_user_id: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          created_at: at,
          last_sign_in_at: null,
        },
      });
      const again = await store.addOwner('ANA@glass.example.nz', nextTime());
      expect(again).toEqual({ added: false, owner: first.owner });
      expect(await store.findOwnerByEmail('ana@GLASS.example.nz')).toEqual(first.owner);
      expect(await store.getOwner(first.owner.id)).toEqual(first.owner);
      expect(await store.getOwner(randomUUID())).toBeNull();
      expect(await store.getOwner('not-a-uuid')).toBeNull();
      expect(await store.findOwnerByEmail('nobody@glass.example.nz')).toBeNull();

      const second = await store.addOwner('rawiri@glass.example.nz', nextTime());
      const key = passkeyOf(first.owner.id, 'iPhone');
      expect(await store.addPasskey(key)).toBe(true);
      const owners = await store.listOwners();
      expect(owners.map((owner) => [owner.email, owner.passkeys.map((p) => p.name)])).toEqual([
        ['ana@glass.example.nz', ['iPhone']],
        ['rawiri@glass.example.nz', []],
      ]);
      expect(owners[1]?.id).toBe(second.owner.id);
    });

    it('keeps passkeys as SimpleWebAuthn gives them, and records their use', async () => {
      const { owner } = await store.addOwner('ana@glass.example.nz', nextTime());
      const key = passkeyOf(owner.id, 'Office PC');
      expect(await store.addPasskey(key)).toBe(true);
      // The same credential id again is refused, whoever adds it.
      expect(await store.addPasskey({ ...key, name: 'again' })).toBe(false);
      const found = await store.findPasskey(key.id);
      expect(found).toEqual({
        owner,
        passkey: { ...key, transports: ['hybrid', 'internal'], last_used_at: null },
      });
      expect(found?.passkey.public_key).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(found?.passkey.public_key ?? [])).toEqual(Buffer.from(key.public_key));
      const used = nextTime();
      await store.recordPasskeyUse(key.id, 4_294_967_295, used);
      expect(await store.listPasskeys(owner.id)).toEqual([
        expect.objectContaining({ id: key.id, counter: 4_294_967_295, last_used_at: used }),
      ]);
      expect(await store.findPasskey('unknown-credential')).toBeNull();
      expect(await store.removePasskey(randomUUID(), key.id)).toBe(false);
      expect(await store.removePasskey(owner.id, key.id)).toBe(true);
      expect(await store.findPasskey(key.id)).toBeNull();
      // Not for an owner that does not exist.
      expect(await store.addPasskey(passkeyOf(randomUUID(), 'stray'))).toBe(false);
    });

    it('finds a session by its hash until it expires, moves its expiry, and ends it', async () => {
      const { owner } = await store.addOwner('ana@glass.example.nz', nextTime());
      const created = Date.parse(nextTime());
      const session = {
        id_hash: 'a'.repeat(64),
        owner_id: owner.id,
        created_at: iso(created),
        last_seen_at: iso(created),
        expires_at: iso(created + 60_000),
      };
      expect(await store.createSession(session)).toBe(true);
      expect((await store.getOwner(owner.id))?.last_sign_in_at).toBe(session.created_at);
      const signedIn = { ...owner, last_sign_in_at: session.created_at };
      expect(await store.findSession(session.id_hash, iso(created + 1000))).toEqual({
        session,
        owner: signedIn,
      });
      expect(await store.findSession('b'.repeat(64), iso(created + 1000))).toBeNull();
      expect(await store.findSession(session.id_hash, iso(created + 60_000))).toBeNull();
      // Used again: a later expiry.
      expect(
        await store.touchSession(session.id_hash, iso(created + 30_000), iso(created + 90_000)),
      ).toBe(true);
      expect(await store.findSession(session.id_hash, iso(created + 60_000))).toEqual({
        session: {
          ...session,
          last_seen_at: iso(created + 30_000),
          expires_at: iso(created + 90_000),
        },
        owner: signedIn,
      });
      // An expired session cannot be brought back.
      expect(
        await store.touchSession(session.id_hash, iso(created + 90_000), iso(created + 99_000)),
      ).toBe(false);
      expect(await store.endSession(session.id_hash)).toBe(true);
      expect(await store.endSession(session.id_hash)).toBe(false);
      expect(await store.findSession(session.id_hash, iso(created))).toBeNull();
      // None for an unknown owner.
      expect(await store.createSession({ ...session, owner_id: randomUUID() })).toBe(false);
    });

    it('shares sessions between instances, and ends an owner’s sessions', async () => {
      const b = await open();
      const { owner } = await store.addOwner('ana@glass.example.nz', nextTime());
      const now = Date.parse(nextTime());
      for (const hash of ['c', 'd']) {
        await store.createSession({
          id_hash: hash.repeat(64),
          owner_id: owner.id,
          created_at: iso(now),
          last_seen_at: iso(now),
          expires_at: iso(now + 60_000),
        });
      }
      expect((await b.findSession('c'.repeat(64), iso(now)))?.owner.id).toBe(owner.id);
      expect(await b.endOwnerSessions(owner.id)).toBe(2);
      expect(await store.findSession('c'.repeat(64), iso(now))).toBeNull();
      expect(await store.findSession('d'.repeat(64), iso(now))).toBeNull();
    });

    it('removes an owner at once: sessions, passkeys and links go with them', async () => {
      const { owner } = await store.addOwner('ana@glass.example.nz', nextTime());
      const other = (await store.addOwner('rawiri@glass.example.nz', nextTime())).owner;
      const now = Date.parse(nextTime());
      const session = (ownerId: string, hash: string) => ({
        id_hash: hash.repeat(64),
        owner_id: ownerId,
        created_at: iso(now),
        last_seen_at: iso(now),
        expires_at: iso(now + 60_000),
      });
      await store.createSession(session(owner.id, 'e'));
      await store.createSession(session(other.id, 'f'));
      await store.addPasskey(passkeyOf(owner.id, 'iPhone'));
      await store.createOwnerLink(link(owner.id, 'sign-in', '1', now));
      expect(await store.removeOwner('ANA@glass.example.nz', iso(now + 1))).toEqual({
        ...owner,
        last_sign_in_at: iso(now),
      });
      expect(await store.removeOwner('ana@glass.example.nz', iso(now + 2))).toBeNull();
      expect(await store.findSession('e'.repeat(64), iso(now))).toBeNull();
      expect(await store.consumeOwnerLink('1'.repeat(64), 'sign-in', iso(now))).toBeNull();
      expect(await store.listPasskeys(owner.id)).toEqual([]);
      expect(await store.getOwner(owner.id)).toBeNull();
      expect(await store.findOwnerByEmail(owner.email)).toBeNull();
      expect((await store.listOwners()).map((o) => o.email)).toEqual([other.email]);
      // The other owner is still signed in.
      expect((await store.findSession('f'.repeat(64), iso(now)))?.owner.id).toBe(other.id);
      // Added again: an owner with no passkey, a new user handle and no sign-in yet.
      const back = await store.addOwner('ana@glass.example.nz', iso(now + 3));
      expect(back.added).toBe(true);
      expect(back.owner.webauthn_user_id).not.toBe(owner.webauthn_user_id);
      expect(back.owner.last_sign_in_at).toBeNull();
      expect((await store.listOwners()).map((o) => [o.email, o.passkeys])).toEqual([
        ['rawiri@glass.example.nz', []],
        ['ana@glass.example.nz', []],
      ]);
    });

    it('uses a one-time link once, before it expires, for its own kind only', async () => {
      const { owner } = await store.addOwner('ana@glass.example.nz', nextTime());
      const now = Date.parse(nextTime());
      await store.createOwnerLink(link(owner.id, 'sign-in', '2', now));
      expect(await store.consumeOwnerLink('2'.repeat(64), 'setup', iso(now))).toBeNull();
      expect(await store.consumeOwnerLink('2'.repeat(64), 'sign-in', iso(now + 60_000))).toBeNull();
      expect(await store.consumeOwnerLink('2'.repeat(64), 'sign-in', iso(now))).toEqual(owner);
      expect(await store.consumeOwnerLink('2'.repeat(64), 'sign-in', iso(now))).toBeNull();
      // A new set-up link makes the owner's earlier set-up links useless, not their sign-in links.
      await store.createOwnerLink(link(owner.id, 'setup', '3', now));
      await store.createOwnerLink(link(owner.id, 'sign-in', '4', now));
      await store.createOwnerLink(link(owner.id, 'setup', '5', now));
      expect(await store.consumeOwnerLink('3'.repeat(64), 'setup', iso(now))).toBeNull();
      expect(await store.consumeOwnerLink('4'.repeat(64), 'sign-in', iso(now))).toEqual(owner);
      expect(await store.consumeOwnerLink('5'.repeat(64), 'setup', iso(now))).toEqual(owner);
    });

    it('of many uses of one link at once, from two instances, one succeeds', async () => {
      const b = await open();
      const { owner } = await store.addOwner('ana@glass.example.nz', nextTime());
      const now = Date.parse(nextTime());
      await store.createOwnerLink(link(owner.id, 'setup', '6', now));
      const uses = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          (index % 2 === 0 ? store : b).consumeOwnerLink('6'.repeat(64), 'setup', iso(now)),
        ),
      );
      expect(uses.filter((use) => use !== null)).toEqual([owner]);
    });

    it('looks at a link without using it', async () => {
      const { owner } = await store.addOwner('ana@glass.example.nz', nextTime());
      const now = Date.parse(nextTime());
      await store.createOwnerLink(link(owner.id, 'setup', 'a', now));
      expect(await store.findOwnerLink('a'.repeat(64), 'setup', iso(now))).toEqual(owner);
      expect(await store.findOwnerLink('a'.repeat(64), 'setup', iso(now))).toEqual(owner);
      expect(await store.findOwnerLink('a'.repeat(64), 'sign-in', iso(now))).toBeNull();
      expect(await store.findOwnerLink('a'.repeat(64), 'setup', iso(now + 60_000))).toBeNull();
      expect(await store.findOwnerLink('b'.repeat(64), 'setup', iso(now))).toBeNull();
      expect(await store.consumeOwnerLink('a'.repeat(64), 'setup', iso(now))).toEqual(owner);
      expect(await store.findOwnerLink('a'.repeat(64), 'setup', iso(now))).toBeNull();
      // A removed owner's link leads nowhere.
      await store.createOwnerLink(link(owner.id, 'setup', 'c', now));
      await store.removeOwner(owner.email, iso(now));
      expect(await store.findOwnerLink('c'.repeat(64), 'setup', iso(now))).toBeNull();
    });

    it('keeps a passkey challenge for one use, before it expires, for its own kind, on any instance', async () => {
      const b = await open();
      const { owner } = await store.addOwner('ana@glass.example.nz', nextTime());
      const now = Date.parse(nextTime());
      const challenge = (
        char: string,
        kind: 'registration' | 'authentication',
        id: string | null,
      ) => ({
        challenge_hash: char.repeat(64),
        kind,
        owner_id: id,
        created_at: iso(now),
        expires_at: iso(now + 60_000),
      });
      await store.createOwnerChallenge(challenge('d', 'registration', owner.id));
      await store.createOwnerChallenge(challenge('e', 'authentication', null));
      expect(await b.consumeOwnerChallenge('d'.repeat(64), 'authentication', iso(now))).toBeNull();
      expect(
        await b.consumeOwnerChallenge('d'.repeat(64), 'registration', iso(now + 60_000)),
      ).toBeNull();
      expect(await b.consumeOwnerChallenge('d'.repeat(64), 'registration', iso(now))).toEqual({
        owner_id: owner.id,
      });
      expect(
        await store.consumeOwnerChallenge('d'.repeat(64), 'registration', iso(now)),
      ).toBeNull();
      // Of many answers to one challenge at once, one gets it.
      const uses = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          (index % 2 === 0 ? store : b).consumeOwnerChallenge(
            'e'.repeat(64),
            'authentication',
            iso(now),
          ),
        ),
      );
      expect(uses.filter((use) => use !== null)).toEqual([{ owner_id: null }]);
      // Expired ones are purged with sessions and links.
      await store.createOwnerChallenge(challenge('f', 'authentication', null));
      expect(await store.purgeExpiredSignIns(iso(now + 60_000))).toBe(1);
      expect(
        await store.consumeOwnerChallenge('f'.repeat(64), 'authentication', iso(now)),
      ).toBeNull();
      // And by every new challenge: the table holds only live ones, however many are asked for.
      await store.createOwnerChallenge(challenge('1', 'authentication', null));
      await store.createOwnerChallenge({
        ...challenge('2', 'authentication', null),
        created_at: iso(now + 60_000),
        expires_at: iso(now + 120_000),
      });
      expect(
        await store.consumeOwnerChallenge('1'.repeat(64), 'authentication', iso(now)),
      ).toBeNull();
      expect(await store.consumeOwnerChallenge('2'.repeat(64), 'authentication', iso(now))).toEqual(
        { owner_id: null },
      );
    });

    it('purges expired sessions and links', async () => {
      const { owner } = await store.addOwner('ana@glass.example.nz', nextTime());
      const now = Date.parse(nextTime());
      await store.createOwnerLink(link(owner.id, 'sign-in', '7', now));
      await store.createSession({
        id_hash: '8'.repeat(64),
        owner_id: owner.id,
        created_at: iso(now),
        last_seen_at: iso(now),
        expires_at: iso(now + 120_000),
      });
      expect(await store.purgeExpiredSignIns(iso(now + 60_000))).toBe(1);
      expect(await store.findSession('8'.repeat(64), iso(now + 60_000))).not.toBeNull();
      expect(await store.purgeExpiredSignIns(iso(now + 120_000))).toBe(1);
      expect(await store.purgeExpiredSignIns(iso(now + 120_000))).toBe(0);
    });
  });
}

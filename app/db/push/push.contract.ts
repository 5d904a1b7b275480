import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AppStore, NewPushSubscription } from '../store.server.ts';
import { nextTime, openStorePerTest, type StoreHarness } from '../store.contract.ts';

/**
 * The behaviour every store must have for the owners' push subscriptions
 * and the site's VAPID keys (push.server.ts), run against SQLite
 * (store-sqlite.server.test.ts) and PostgreSQL (store-postgres.server.test.ts).
 */

/** A subscription as a browser's PushSubscription.toJSON() gives it. */
export function makePushSubscription(
  ownerId: string,
  overrides: Partial<NewPushSubscription> = {},
): NewPushSubscription {
  return {
    owner_id: ownerId,
    endpoint: `https://push.example.net/send/${randomBytes(24).toString('base64url')}`,
    p256dh: randomBytes(65).toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
    notify: 'all',
    device: 'Android phone, Chrome',
    created_at: nextTime(),
    ...overrides,
  };
}

export function runPushContract(
  label: string,
  makeHarness: () => Promise<StoreHarness>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`Push subscriptions in the store: ${label}`, () => {
    let store: AppStore;
    const open = openStorePerTest(makeHarness, (first) => {
      store = first;
    });

    const owner = async (email: string) => (await store.addOwner(email, nextTime())).owner.id;

    it('keeps each owner’s subscriptions, lists them by owner and all together, oldest first', async () => {
      const ana = await owner('ana@glass.example.nz');
      const ben = await owner('ben@glass.example.nz');
      const phone = makePushSubscription(ana);
      const laptop = makePushSubscription(ana, { notify: 'urgent', device: 'Mac, Safari' });
      const bens = makePushSubscription(ben);
      const added = await store.addPushSubscription(phone);
      expect(added).toEqual({ ...phone, id: expect.any(String) });
      const laptopAdded = await store.addPushSubscription(laptop);
      const bensAdded = await store.addPushSubscription(bens);
      expect(new Set([added?.id, laptopAdded?.id, bensAdded?.id]).size).toBe(3);

      expect(await store.listOwnerPushSubscriptions(ana)).toEqual([added, laptopAdded]);
      expect(await store.listOwnerPushSubscriptions(ben)).toEqual([bensAdded]);
      expect(await store.listPushSubscriptions()).toEqual([added, laptopAdded, bensAdded]);
      // Read back by another process on the same data.
      expect(await (await open()).listPushSubscriptions()).toEqual([added, laptopAdded, bensAdded]);
      expect(await store.listOwnerPushSubscriptions('not-an-owner')).toEqual([]);
    });

    it('replaces a subscription whose endpoint it already has, never keeping two', async () => {
      const ana = await owner('ana@glass.example.nz');
      const ben = await owner('ben@glass.example.nz');
      const first = await store.addPushSubscription(makePushSubscription(ana));
      const again = makePushSubscription(ana, {
        endpoint: first!.endpoint,
        notify: 'urgent',
        device: 'Android phone, Firefox',
      });
      const replaced = await store.addPushSubscription(again);
      expect(replaced).toEqual({ ...again, id: first!.id });
      expect(await store.listPushSubscriptions()).toEqual([replaced]);
      // Another owner signed in on the same device: the device is theirs now.
      const bens = makePushSubscription(ben, { endpoint: first!.endpoint });
      const moved = await store.addPushSubscription(bens);
      expect(moved).toEqual({ ...bens, id: first!.id });
      expect(await store.listOwnerPushSubscriptions(ana)).toEqual([]);
      expect(await store.listOwnerPushSubscriptions(ben)).toEqual([moved]);
    });

    it('adds nothing for an unknown or removed owner', async () => {
      const ana = await owner('ana@glass.example.nz');
      expect(
        await store.addPushSubscription(
          makePushSubscription('00000000-0000-4000-8000-000000000009'),
        ),
      ).toBeNull();
      expect(await store.addPushSubscription(makePushSubscription('not-an-id'))).toBeNull();
      await store.addPushSubscription(makePushSubscription(ana));
      // Removing an owner removes their devices with their sign-ins.
      await store.removeOwner('ana@glass.example.nz', nextTime());
      expect(await store.listPushSubscriptions()).toEqual([]);
      expect(await store.addPushSubscription(makePushSubscription(ana))).toBeNull();
      expect(await store.listPushSubscriptions()).toEqual([]);
    });

    it('deletes a subscription for its owner only, and by endpoint for anyone', async () => {
      const ana = await owner('ana@glass.example.nz');
      const ben = await owner('ben@glass.example.nz');
      const anas = await store.addPushSubscription(makePushSubscription(ana));
      const bens = await store.addPushSubscription(makePushSubscription(ben));
      expect(await store.deletePushSubscription(anas!.id, ben)).toBeNull();
      expect(await store.deletePushSubscription('not-an-id', ana)).toBeNull();
      expect(await store.deletePushSubscription(anas!.id, 'not-an-id')).toBeNull();
      expect(await store.listPushSubscriptions()).toEqual([anas, bens]);
      expect(await store.deletePushSubscription(anas!.id, ana)).toEqual(anas);
      expect(await store.deletePushSubscription(anas!.id, ana)).toBeNull();
      expect(await store.listPushSubscriptions()).toEqual([bens]);

      expect(await store.deletePushSubscriptionByEndpoint(`${bens!.endpoint}x`)).toBe(false);
      expect(await store.deletePushSubscriptionByEndpoint(bens!.endpoint)).toBe(true);
      expect(await store.deletePushSubscriptionByEndpoint(bens!.endpoint)).toBe(false);
      expect(await store.listPushSubscriptions()).toEqual([]);
    });

    it('refuses a subscription whose values could not be a browser’s', async () => {
      const ana = await owner('ana@glass.example.nz');
      await expect(
        store.addPushSubscription(makePushSubscription(ana, { endpoint: '' })),
      ).rejects.toThrow();
      await expect(
        store.addPushSubscription(
          makePushSubscription(ana, { endpoint: `https://push.example.net/${'x'.repeat(2000)}` }),
        ),
      ).rejects.toThrow();
      await expect(
        store.addPushSubscription(makePushSubscription(ana, { notify: 'some' as 'all' })),
      ).rejects.toThrow();
      await expect(
        store.addPushSubscription(makePushSubscription(ana, { device: 'x'.repeat(101) })),
      ).rejects.toThrow();
      expect(await store.listPushSubscriptions()).toEqual([]);
    });

    it('makes the VAPID key pair once: every store on the same data gets the same pair', async () => {
      const other = await open();
      // Two stores asking at once, before it exists, agree.
      const [first, second] = await Promise.all([
        store.getOrCreateVapidKeys(),
        other.getOrCreateVapidKeys(),
      ]);
      expect(second).toEqual(first);
      // A P-256 public point (65 bytes, uncompressed) and a 32-byte private key.
      expect(Buffer.from(first.publicKey, 'base64url')).toHaveLength(65);
      expect(Buffer.from(first.publicKey, 'base64url')[0]).toBe(4);
      expect(Buffer.from(first.privateKey, 'base64url')).toHaveLength(32);
      const later = await open();
      expect(await later.getOrCreateVapidKeys()).toEqual(first);
      // Another store's pair is its own.
      const another = await makeHarness();
      const elsewhere = await another.open();
      try {
        expect((await elsewhere.getOrCreateVapidKeys()).privateKey).not.toBe(first.privateKey);
      } finally {
        await elsewhere.close();
        await another.cleanup();
      }
    });
  });
}

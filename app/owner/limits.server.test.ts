import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppStore } from '../db/store.server.ts';
import { STORE_BACKENDS, type StoreHarness } from '../leads/testing/test-support.server.ts';
import { SIGN_IN_LIMITS, signInLimits } from './limits.server.ts';

for (const backend of STORE_BACKENDS) {
  describe.skipIf(backend.skip)(`sign-in limits (${backend.label})`, () => {
    let harness: StoreHarness;
    let store: AppStore;

    beforeEach(async () => {
      harness = await backend.harness();
      store = await harness.open();
    });
    afterEach(async () => {
      await store.close();
      await harness.cleanup();
    });

    it('at most 5 sign-in links per address an hour from one client, whatever its case', async () => {
      const limits = signInLimits(store);
      const answers = [];
      for (let index = 0; index < 6; index++) {
        answers.push(
          await limits.allowLinkRequest(
            index % 2 ? 'Ana@Glass.example.nz' : 'ana@glass.example.nz',
            // One IPv6 /64 is one client.
            `2001:db8:0:1::${index + 1}`,
          ),
        );
      }
      expect(answers).toEqual([true, true, true, true, true, false]);
      // Another address is not held back by it, nor the address from another client.
      expect(await limits.allowLinkRequest('rawiri@glass.example.nz', '2001:db8:0:1::9')).toBe(
        true,
      );
      expect(await limits.allowLinkRequest('ana@glass.example.nz', '2001:db8:0:2::1')).toBe(true);
      // The table holds no address.
      expect(await store.peekRateLimit('ana@glass.example.nz')).toBeNull();
    });

    it('per client too, across addresses', async () => {
      const limits = signInLimits(store);
      const max = SIGN_IN_LIMITS.linkPerClient.max;
      for (let index = 0; index < max; index++) {
        expect(await limits.allowLinkRequest(`person${index}@example.com`, '203.0.113.9')).toBe(
          true,
        );
      }
      expect(await limits.allowLinkRequest('one.more@example.com', '203.0.113.9')).toBe(false);
      expect(await limits.allowLinkRequest('one.more@example.com', '198.51.100.1')).toBe(true);
    });

    it('counts failed passkey attempts only, per client and per address', async () => {
      const limits = signInLimits(store);
      // Checking (as before every attempt, and a success) counts nothing.
      for (let index = 0; index < 50; index++) {
        expect(await limits.passkeyBlocked('client-a', 'ana@glass.example.nz')).toBe(false);
      }
      for (let index = 0; index < SIGN_IN_LIMITS.failedPasskeyPerAddress.max; index++) {
        await limits.countFailedPasskey(`client-${index}`, 'ana@glass.example.nz');
      }
      expect(await limits.passkeyBlocked('client-new', 'ANA@glass.example.nz')).toBe(true);
      expect(await limits.passkeyBlocked('client-new', 'rawiri@glass.example.nz')).toBe(false);
      for (let index = 0; index < SIGN_IN_LIMITS.failedPasskeyPerClient.max; index++) {
        await limits.countFailedPasskey('client-b');
      }
      expect(await limits.passkeyBlocked('client-b')).toBe(true);
      expect(await limits.passkeyBlocked('client-c')).toBe(false);
    });
  });
}
